"""Weights files: what ``Model.save_weights`` writes and ``Model.load_weights`` reads.

A weights file is one checkpoint archive (``companion.train._checkpoint_file``) whose paths
start at the model: ``layers/0/kernel``, ``dense/bias``, and, when the model holds an
optimizer, ``optimizer/iter`` and the slots. The manifest also lists the paths of the
model's ``weights``, so loading can tell a layer weight with no counterpart (an error)
from optimizer state whose Variables do not exist yet (restored on the first step).

File names: the file is ``filepath`` itself when it ends in ``.npz`` or ``.h5`` (Keras 3's
``'model.weights.h5'``: the same name, holding companion's format), else ``filepath + '.npz'``.
Loading applies the same rule, so whatever path was given to `save_weights` loads back; a
``.h5`` path whose file is missing falls back to ``path + '.npz'`` (what earlier versions
wrote). (TF 2 treats any other path as a checkpoint prefix; Keras 3 demands ``.weights.h5``.)
"""

import os
import warnings

from companion.train import _checkpoint_file
from companion.train._object_graph import walk
from companion.train._restoration import Restoration
from companion.train._status import CheckpointLoadStatus


def weights_filename(filepath):
    """The file `save_weights` writes for ``filepath`` (``.npz`` appended unless present): one
    file, not a checkpoint's ``.index`` and ``.data-00000-of-00001``."""
    filepath = os.fspath(filepath)
    return filepath if filepath.endswith((".npz", ".h5")) else filepath + ".npz"


def save_weights(model, filepath, overwrite=True):
    """Writes the Variables of ``model`` (by object-graph path) to a weights file.

    Args:
        model: a Keras layer or model.
        filepath: the file (see the module docstring for the ``.npz`` rule).
        overwrite: if False, an existing file raises FileExistsError.

    Returns:
        The name of the file written.

    Example:
        >>> import os, tempfile
        >>> import companion as tf
        >>> from companion.keras import _weights_file
        >>> layer = tf.keras.layers.Dense(2)
        >>> _ = layer(tf.ones((1, 3)))
        >>> path = os.path.join(tempfile.mkdtemp(), "dense.weights")
        >>> os.path.basename(_weights_file.save_weights(layer, path))
        'dense.weights.npz'
    """
    target = weights_filename(filepath)
    if not overwrite and os.path.exists(target):
        raise FileExistsError(f"The weights file {target!r} exists and overwrite=False. Pass "
                              "overwrite=True to replace it, or choose another path.")
    graph = walk(model)
    weights = [graph.path_of(w) for w in getattr(model, "weights", []) if graph.path_of(w) is not None]
    return _checkpoint_file.write(target, graph, weights=weights)


def load_weights(model, filepath, skip_mismatch=False):
    """Loads a weights file written by `save_weights` into an identically built ``model``.

    Values are matched by object-graph path. If ``model`` is not built yet, its weights
    receive their values when they are created (deferred restoration). For a built model,
    a weight with no value in the file or a saved layer weight with no counterpart raises
    ValueError naming them; so does a shape mismatch.

    Args:
        model: a Keras layer or model.
        filepath: what was given to `save_weights`.
        skip_mismatch: warn and skip instead of raising on shape or structure mismatches.

    Returns:
        A `CheckpointLoadStatus`.

    Example:
        >>> import os, tempfile
        >>> import numpy as np
        >>> import companion as tf
        >>> from companion.keras import _weights_file
        >>> saved, fresh = tf.keras.layers.Dense(2), tf.keras.layers.Dense(2)
        >>> _ = saved(tf.ones((1, 3)))
        >>> path = _weights_file.save_weights(saved, os.path.join(tempfile.mkdtemp(), "w"))
        >>> _ = _weights_file.load_weights(fresh, path)  # not built yet: restored when built
        >>> _ = fresh(tf.ones((1, 3)))
        >>> bool(np.array_equal(fresh.kernel.numpy(), saved.kernel.numpy()))
        True
    """
    target = weights_filename(filepath)
    if not os.path.isfile(target) and os.path.isfile(target + ".npz"):
        target += ".npz"  # a '.h5' name saved by a version that appended '.npz' to it
    if not os.path.isfile(target):
        raise FileNotFoundError(f"No weights file {target!r} (for filepath={os.fspath(filepath)!r}). "
                                "save_weights(filepath) writes filepath itself when it ends in '.h5' or "
                                "'.npz', else filepath + '.npz'.")
    values, manifest = _checkpoint_file.read(target)
    restoration = Restoration(model, values, manifest.get("aliases"), skip_mismatch)
    graph = walk(model)
    pairs = restoration.matches(graph)
    if getattr(model, "built", True):
        _check_structure(model, graph, pairs, restoration, manifest.get("weights", []))
    restoration.assign(pairs)
    return CheckpointLoadStatus(restoration)


def _check_structure(model, graph, pairs, restoration, saved_weights):
    matched = {path for path, _ in pairs} | set(restoration.skipped)
    missing = [graph.path_of(w) for w in model.weights if graph.path_of(w) not in matched]
    extra = [p for p in saved_weights if p not in matched and p in restoration.values]
    if not missing and not extra:
        return
    message = (f"The weights file does not match the structure of {getattr(model, 'name', model)!r}. "
               f"Weights with no saved value: {missing}. Saved weights with no counterpart: {extra}. "
               "Build the model exactly as the saved one was built.")
    if not restoration.skip_mismatch:
        raise ValueError(message)
    warnings.warn(message + " Loading what matches (skip_mismatch=True).", stacklevel=3)
    for path in extra:
        del restoration.values[path]
