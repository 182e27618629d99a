"""`Checkpoint`: saving and restoring the Variables of an object graph, TF's ``tf.train.Checkpoint``."""

import os

from companion._core import _dtypes
from companion._core._variable import Variable
from companion._staging import eager_scope
from companion.train import _checkpoint_file, _checkpoint_state
from companion.train._object_graph import is_trackable, walk
from companion.train._restoration import Restoration
from companion.train._status import CheckpointLoadStatus, InitializationOnlyStatus


class Checkpoint:
    """Groups objects whose Variables are saved and restored together (``tf.train.Checkpoint``).

    The keyword arguments (and attributes assigned later) name the children: Keras layers
    and models, optimizers, metrics, Variables, other Checkpoints, or lists, dicts and
    plain objects holding them. Each Variable is stored under its object-graph path (see
    ``companion.train._object_graph``): ``model/dense/kernel``,
    ``model/dense/kernel/.OPTIMIZER_SLOT/optimizer/m``, ``optimizer/iter``, ``save_counter``.
    A ``root`` object's children are placed at the top level. A checkpoint ``P`` is the files
    ``P.index`` and ``P.data-00000-of-00001``, TF's names (their format is companion's own:
    ``companion.train._checkpoint_file``).

    Restoring matches values by path. Values of Variables that do not exist yet (an unbuilt
    layer, optimizer slots before the first step) are restored when they are created.

    Args:
        root: optional object whose children become the checkpoint's top-level children.
        **kwargs: the named children.

    Example:
        >>> import os, tempfile
        >>> import companion as tf
        >>> step = tf.Variable(3)
        >>> ckpt = tf.train.Checkpoint(step=step)
        >>> path = ckpt.save(os.path.join(tempfile.mkdtemp(), "ckpt"))
        >>> os.path.basename(path)
        'ckpt-1'
        >>> _ = step.assign(10)
        >>> ckpt.restore(path).assert_consumed()  # doctest: +ELLIPSIS
        <...CheckpointLoadStatus object at ...>
        >>> int(ckpt.step.numpy())
        3
    """

    def __init__(self, root=None, **kwargs):
        object.__setattr__(self, "_children", {})
        if root is not None:
            _check_trackable("root", root)
        object.__setattr__(self, "_root", root)
        for name, value in kwargs.items():
            setattr(self, name, value)
        object.__setattr__(self, "_save_counter", None)

    @property
    def save_counter(self):
        """How many times `save` was called (restored with the rest), an int64 Variable.

        As in TF it is made when first needed (this property, `save`, `restore`): a checkpoint
        only `write` has written holds no ``save_counter``.
        """
        if self._save_counter is None:
            with eager_scope():
                counter = Variable(0, trainable=False, dtype=_dtypes.int64, name="save_counter")
            object.__setattr__(self, "_save_counter", counter)
        return self._save_counter

    def save(self, file_prefix):
        """Increments `save_counter`, writes ``{file_prefix}-{save_counter}`` and returns that path.

        The ``checkpoint`` state file in the directory is updated to name it the latest,
        for `latest_checkpoint`.
        """
        self.save_counter.assign_add(1)
        path = self.write(f"{os.fspath(file_prefix)}-{int(self._save_counter.numpy())}")
        _checkpoint_state.write_state(os.path.dirname(path) or ".", path, [path])
        return path

    def write(self, file_prefix):
        """Writes the checkpoint ``file_prefix`` (``file_prefix.index`` and
        ``file_prefix.data-00000-of-00001``); returns the prefix."""
        _checkpoint_file.write(file_prefix, walk(self))
        return os.fspath(file_prefix)

    def restore(self, save_path):
        """Restores the checkpoint ``save_path`` (as returned by `save`) and returns a status.

        ``save_path=None`` restores nothing (e.g. ``manager.latest_checkpoint`` before the
        first save) and returns a status whose assertions fail. A value whose shape or dtype
        differs from its Variable's raises ValueError naming the path. A path with no checkpoint
        raises `tf.errors.NotFoundError` (also a FileNotFoundError) with TF's message.
        """
        if save_path is None:
            return InitializationOnlyStatus()
        try:
            return self.read(save_path)
        except _checkpoint_file.CheckpointNotFoundError as error:
            raise _checkpoint_file.CheckpointNotFoundError(
                None, None, f"Error when restoring from checkpoint or SavedModel at {os.fspath(save_path)}: "
                f"{error.message}\nPlease double-check that the path is correct. You may be missing the "
                "checkpoint suffix (e.g. the '-1' in 'path/to/ckpt-1').") from None

    def read(self, save_path):
        """Restores the checkpoint ``save_path`` written by `write` (or `save`); returns a status."""
        values, manifest = _checkpoint_file.read(save_path)
        self.save_counter  # noqa: B018 - made now, as TF does, so that a saved count is restored
        restoration = Restoration(self, values, manifest.get("aliases"),
                                  names={e["path"]: e.get("name") for e in manifest["variables"]})
        return CheckpointLoadStatus(restoration.restore_existing())

    def _checkpoint_children(self):
        root = [("", self._root)] if self._root is not None else []
        counter = [("save_counter", self._save_counter)] if self._save_counter is not None else []
        return root + list(self._children.items()) + counter

    def __setattr__(self, name, value):
        if name.startswith("_") or name == "save_counter":
            raise AttributeError(f"Cannot set {name!r} on a Checkpoint: names starting with '_' and "
                                 "'save_counter' are reserved. Choose another name.")
        _check_trackable(name, value)
        self._children[name] = value

    def __getattr__(self, name):
        children = self.__dict__.get("_children", {})
        if name in children:
            return children[name]
        raise AttributeError(f"This Checkpoint has no child {name!r}. Children: {sorted(children)}")

    def __repr__(self):
        return f"<companion.train.Checkpoint children={list(self._children)}>"


def _check_trackable(name, value):
    if not is_trackable(value):
        raise ValueError(f"Checkpoint was expecting {name!r} to be a trackable object (a Variable, "
                         "a Keras layer, model, optimizer or metric, a Checkpoint, or a list, dict "
                         f"or object holding them). Received: {name}={value!r}")
