"""`Restoration`: matching checkpoint values to the Variables of an object graph, now or later."""

import warnings

import numpy as np

from companion._core._context import state
from companion._staging import eager_scope
from companion.train import _deferred
from companion.train._object_graph import join, slot_path, walk


class Restoration:
    """The values of one checkpoint read into ``root``: assigned, skipped or still pending.

    Args:
        root: the object the checkpoint's paths start from.
        values: ``{path: numpy array}`` read from the file.
        aliases: ``{'{layer path}/{add_weight name}': path}`` from the file's manifest.
        skip_mismatch: warn about and skip values whose shape or dtype differ, instead of
            raising ValueError.
        names: ``{path: name}``, the names the saved Variables had (for messages).
    """

    def __init__(self, root, values, aliases=None, skip_mismatch=False, names=None):
        self.root = root
        self.values = dict(values)
        self.names = dict(names or {})
        self.aliases = dict(aliases or {})
        self.skip_mismatch = skip_mismatch
        self.restored = {}  # id -> Variable assigned from the checkpoint
        self.skipped = []

    @property
    def done(self):
        """Whether no value is left to assign."""
        return not self.values

    def matches(self, graph):
        """``(path, variable)`` for the existing Variables of ``graph`` with a value here."""
        return [(path, var) for path, var in graph.variables.items()
                if path in self.values and id(var) not in self.restored and self._fits(path, var)]

    def assign(self, pairs):
        """Assigns the values of ``pairs``; what is left waits for its Variable (deferred)."""
        for path, var in pairs:
            _assign(var, self.values.pop(path))
            self.restored[id(var)] = var
        if not self.done:
            _deferred.register(self)

    def restore_existing(self):
        """Assigns the values of every Variable that exists now; the rest are deferred."""
        self.assign(self.matches(walk(self.root)))
        return self

    def unmatched_variables(self):
        """The Variables of ``root`` (now) that received no value."""
        return [var for var in walk(self.root).variables.values() if id(var) not in self.restored]

    # -- deferred restoration (called through _deferred) ---------------------------------------
    def variable_created(self, owner, name, variable):
        graph = walk(self.root)
        owner_path = graph.path_of(owner)
        taken = False
        if owner_path is not None:
            path = join(owner_path, name)
            taken = self._take(self.aliases.get(path, path), variable)
        return self._sweep(graph) or taken

    def slots_created(self, optimizer, variable, slots):
        graph = walk(self.root)
        var_path, opt_path = graph.path_of(variable), graph.path_of(optimizer)
        taken = False
        if var_path is not None and opt_path is not None:
            paths = {name: slot_path(var_path, opt_path, name) for name in slots}
            taken = any([self._take(paths[name], slot) for name, slot in slots.items()])
        return self._sweep(graph) or taken

    def _sweep(self, graph):
        """Assigns Variables attached since the restore (e.g. an optimizer set on the model later)."""
        pairs = self.matches(graph)
        if pairs:
            self.assign(pairs)
        return bool(pairs)

    def _take(self, path, variable):
        if path not in self.values or not self._fits(path, variable):
            return False
        self.assign([(path, variable)])
        return True

    def _fits(self, path, var):
        message = _mismatch(path, var, self.values[path])
        if message is None:
            return True
        if not self.skip_mismatch:
            raise ValueError(message)
        warnings.warn(message + " Skipped (skip_mismatch=True).", stacklevel=4)
        self.skipped.append(path)
        del self.values[path]
        return False


def _mismatch(path, var, value):
    """Why ``value`` cannot be assigned to ``var`` (shape or dtype), or None."""
    expected = tuple(var.shape.as_list()) if var.shape.rank is not None else value.shape
    dtype = np.dtype(var.dtype.as_numpy_dtype)
    shape_ok = len(expected) == value.ndim and all(e in (None, r) for e, r in zip(expected, value.shape))
    if shape_ok and value.dtype == dtype:
        return None
    return (f"Cannot restore the checkpoint value {path!r} into Variable {var.name!r}: the variable "
            f"has shape {expected} and dtype {dtype.name}, the checkpoint holds shape "
            f"{tuple(value.shape)} and dtype {value.dtype.name}. Build the objects with the same "
            "configuration as the ones that were saved.")


def _assign(var, value):
    if state.staging:  # a variable made while a function traces: restore its initial value

        with eager_scope():
            var.assign(value)
    else:
        var.assign(value)
