"""``companion.saved_model``: TensorFlow's ``tf.saved_model.save``/``load`` in a format of companion's own.

A SavedModel directory written by `save` holds what TensorFlow's does, under TF's names, so code
that lists it or tests for its files sees what TF shows (the bytes are companion's own):

* ``saved_model.pb``: a zip archive (not a protocol buffer) of the manifest ``saved_model.json``
  ``{"format": "companion.saved_model", "version": 1, "programs": {name: {"file", "inputs":
  [{"name", "shape", "dtype"}], "outputs", "variables", "written"}}, "functions": [...],
  "signatures": [...], "variables": [{"path", "name", "trainable"}]}`` and of the programs
  ``functions/program_N.jaxexport``. A program named ``signature:KEY`` serves
  ``signatures[KEY]``; the others are the object's functions (``loaded.f``, ``loaded(x)``). Each
  program is serialized with ``jax.export`` (StableHLO), staged once with ``None`` dimensions
  kept symbolic. It takes the Variables' values and the inputs and returns the outputs and the
  new values of the Variables it assigns, so a loaded function runs, and updates its
  Variables, without the Python source. It is written last: a directory holds a SavedModel
  once it exists;
* ``variables/variables.index`` and ``variables/variables.data-00000-of-00001``: the checkpoint
  of the Variables, in companion's checkpoint format (``companion.train._checkpoint_file``),
  keyed by object-graph path (``k``, ``dense/kernel``);
* ``fingerprint.pb``: JSON ``{"format": "companion.fingerprint", "saved_model_checksum",
  "checkpoint_hash"}``, 64-bit hashes of ``saved_model.pb`` and of ``variables/variables.index``;
* ``assets/``: empty (companion saves no asset files).

Directories earlier versions wrote (``saved_model.json`` and ``functions/`` beside
``variables/``, whose checkpoint may be ``variables/variables.npz``) still load; saving to one
replaces them. TF cannot read these directories, nor companion TF's (`load` says so). Gradients
through loaded functions are not supported.

Example:
    >>> import tempfile
    >>> import companion as tf
    >>> class Scaler(tf.Module):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.k = tf.Variable(3.0)
    ...     @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    ...     def __call__(self, x):
    ...         return x * self.k
    >>> path = tempfile.mkdtemp()
    >>> tf.saved_model.save(Scaler(), path)
    >>> loaded = tf.saved_model.load(path)
    >>> print(loaded(tf.constant([1.0, 2.0])))
    companion.Tensor([3. 6.], shape=(2,), dtype=float32)
    >>> print(loaded.signatures["serving_default"](x=tf.constant([1.0])))
    {'output_0': <companion.Tensor: shape=(1,), dtype=float32, numpy=array([3.], dtype=float32)>}
"""

from companion.saved_model._load import contains_saved_model, load
from companion.saved_model._save import DEFAULT_SIGNATURE, save

DEFAULT_SERVING_SIGNATURE_DEF_KEY = DEFAULT_SIGNATURE
SERVING = "serve"

__all__ = ["DEFAULT_SERVING_SIGNATURE_DEF_KEY", "SERVING", "contains_saved_model", "load", "save"]
