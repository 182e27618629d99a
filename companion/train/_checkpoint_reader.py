"""Reading a checkpoint's values by path without building the objects (``tf.train.list_variables``)."""

import os

from companion.errors import NotFoundError
from companion.train import _checkpoint_file, _checkpoint_state

GRAPH_KEY = "_CHECKPOINTABLE_OBJECT_GRAPH"
VALUE_SUFFIX = "/.ATTRIBUTES/VARIABLE_VALUE"


def list_variables(ckpt_dir_or_file):
    """``[(key, shape), ...]`` of a checkpoint, sorted, with TF's keys: each value's object path
    followed by ``/.ATTRIBUTES/VARIABLE_VALUE``, and ``_CHECKPOINTABLE_OBJECT_GRAPH``.

    Args:
        ckpt_dir_or_file: a checkpoint path, or a directory (its latest checkpoint). Only the
            checkpoint's ``.index`` file is read, as in TF.

    Example:
        >>> import os, tempfile
        >>> import companion as tf
        >>> path = tf.train.Checkpoint(w=tf.Variable([1.0, 2.0])).save(
        ...     os.path.join(tempfile.mkdtemp(), "ckpt"))
        >>> tf.train.list_variables(path)
        [('_CHECKPOINTABLE_OBJECT_GRAPH', []), ('save_counter/.ATTRIBUTES/VARIABLE_VALUE', []), \
('w/.ATTRIBUTES/VARIABLE_VALUE', [2])]
    """
    manifest = _checkpoint_file.read_manifest(_resolve(ckpt_dir_or_file))
    keys = [(entry["path"] + VALUE_SUFFIX, list(entry["shape"])) for entry in manifest["variables"]]
    return sorted([(GRAPH_KEY, []), *keys])


def load_variable(ckpt_dir_or_file, name):
    """The NumPy value stored under ``name`` in a checkpoint: a key of `list_variables`
    (``'w/.ATTRIBUTES/VARIABLE_VALUE'``) or the object path alone (``'w'``).

    Example:
        >>> import os, tempfile
        >>> import companion as tf
        >>> path = tf.train.Checkpoint(w=tf.Variable([1.0, 2.0])).save(
        ...     os.path.join(tempfile.mkdtemp(), "ckpt"))
        >>> tf.train.load_variable(path, "w/.ATTRIBUTES/VARIABLE_VALUE")
        array([1., 2.], dtype=float32)
    """
    values, _ = _checkpoint_file.read(_resolve(ckpt_dir_or_file))
    path = name[:-len(VALUE_SUFFIX)] if name.endswith(VALUE_SUFFIX) else name
    if path not in values:
        held = sorted(key + VALUE_SUFFIX for key in values)
        raise NotFoundError(None, None, f"Key {name} not found in checkpoint. It holds: {held}. Pass a key "
                            "that tf.train.list_variables lists.")
    return values[path]


def _resolve(ckpt_dir_or_file):
    path = os.fspath(ckpt_dir_or_file)
    if os.path.isdir(path):
        latest = _checkpoint_state.latest_checkpoint(path)
        if latest is None:
            raise _checkpoint_file.CheckpointNotFoundError(f"No checkpoint found in directory {path!r}.")
        return latest
    return path
