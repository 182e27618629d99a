"""``companion.saved_model``: TensorFlow's ``tf.saved_model.save``/``load`` in a format of companion's own.

A SavedModel directory written by `save` holds

* ``saved_model.json``: the manifest ``{"format": "companion.saved_model", "version": 1,
  "programs": {name: {"file", "inputs": [{"name", "shape", "dtype"}], "outputs",
  "variables", "written"}}, "functions": [...], "signatures": [...], "variables":
  [{"path", "name", "trainable"}]}``. A program named ``signature:KEY`` serves
  ``signatures[KEY]``; the others are the object's functions (``loaded.f``, ``loaded(x)``);
* ``variables/variables.index`` and ``variables/variables.data-00000-of-00001`` (TF's names):
  the checkpoint of the Variables, in companion's checkpoint format
  (``companion.train._checkpoint_file``), keyed by object-graph path (``k``, ``dense/kernel``).
  A directory an earlier version wrote, with ``variables/variables.npz``, still loads;
* ``functions/program_N.jaxexport``: each program serialized with ``jax.export`` (StableHLO),
  staged once with ``None`` dimensions kept symbolic. It takes the Variables' values and the
  inputs and returns the outputs and the new values of the Variables it assigns, so a loaded
  function runs, and updates its Variables, without the Python source.

TensorFlow's ``saved_model.pb`` protocol buffers are not written, and TF cannot read these
directories (nor companion TF's). Gradients through loaded functions are not supported.

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
