"""Reading a checkpoint's values by path without building the objects (``tf.train.list_variables``)."""

import json
import os

from companion._core import _dtypes
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


class CheckpointReader:
    """The values of one checkpoint by key, TF's ``tf.train.load_checkpoint`` reader.

    Keys are those of `list_variables`: ``'w/.ATTRIBUTES/VARIABLE_VALUE'`` for each value, and
    ``_CHECKPOINTABLE_OBJECT_GRAPH`` (TF's serialized object graph; here companion's manifest as
    JSON bytes).
    """

    def __init__(self, prefix):
        self._values, self._manifest = _checkpoint_file.read(prefix)

    def _path(self, name):
        return name[:-len(VALUE_SUFFIX)] if name.endswith(VALUE_SUFFIX) else None

    def has_tensor(self, name):
        return name == GRAPH_KEY or self._path(name) in self._values

    def get_tensor(self, name):
        if name == GRAPH_KEY:
            return json.dumps(self._manifest).encode()
        if not self.has_tensor(name):
            held = sorted(key + VALUE_SUFFIX for key in self._values)
            raise NotFoundError(None, None, f"Key {name} not found in checkpoint. It holds: {held}.")
        return self._values[self._path(name)]

    def get_variable_to_shape_map(self):
        shapes = {key + VALUE_SUFFIX: list(value.shape) for key, value in self._values.items()}
        return {GRAPH_KEY: [], **shapes}

    def get_variable_to_dtype_map(self):
        dtypes = {entry["path"] + VALUE_SUFFIX: _dtypes.as_dtype(entry["dtype"])
                  for entry in self._manifest["variables"]}
        return {GRAPH_KEY: _dtypes.string, **dtypes}


def load_checkpoint(ckpt_dir_or_file):
    """A `CheckpointReader` of a checkpoint path, or of a directory's latest checkpoint.

    Example:
        >>> import os, tempfile
        >>> import companion as tf
        >>> path = tf.train.Checkpoint(w=tf.Variable([1.0, 2.0])).save(
        ...     os.path.join(tempfile.mkdtemp(), "ckpt"))
        >>> tf.train.load_checkpoint(path).get_tensor("w/.ATTRIBUTES/VARIABLE_VALUE")
        array([1., 2.], dtype=float32)
    """
    return CheckpointReader(_resolve(ckpt_dir_or_file))
