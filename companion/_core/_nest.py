"""`companion.nest`'s rules: which Python values are structures, and in which order their leaves go.

TensorFlow's rules, which differ from ``jax.tree_util``'s in three places: ``None`` is a
leaf (JAX treats it as an empty node), every mapping is walked in sorted key order
(``OrderedDict`` too; JAX keeps its insertion order), and only lists, tuples, namedtuples
and mappings are structures (JAX also descends into classes registered as pytrees).
Strings, tensors, NumPy arrays, sets and all other objects are leaves.
"""

import collections
import collections.abc

import jax
import numpy as np

from companion._core._tensor import Tensor
from companion._core._tensor_spec import TensorSpec

__all__ = ["assert_same_structure", "flatten", "is_nested", "map_structure", "pack_sequence_as"]


def is_nested(seq):
    """True if ``seq`` is a structure: a list, tuple, namedtuple or mapping (``None`` is not).

    Example:
        >>> import companion as tf
        >>> tf.nest.is_nested([1, 2]), tf.nest.is_nested({"a": 1}), tf.nest.is_nested(None)
        (True, True, False)
    """
    return isinstance(seq, (list, tuple, collections.abc.Mapping))


def flatten(structure, expand_composites=False):
    """The leaves of ``structure``, depth first; mappings in sorted key order. A leaf gives ``[leaf]``.

    Example:
        >>> import companion as tf
        >>> tf.nest.flatten({"b": [3, None], "a": (1, 2)})
        [1, 2, 3, None]
        >>> tf.nest.flatten(None)
        [None]
    """
    leaves = []
    _flatten_into(structure, leaves)
    return leaves


def pack_sequence_as(structure, flat_sequence, expand_composites=False):
    """Puts the leaves of ``flat_sequence`` back into the shape of ``structure`` (`flatten`'s inverse).

    Example:
        >>> import companion as tf
        >>> tf.nest.pack_sequence_as({"b": [0, 0], "a": 0}, [1, 2, 3])
        {'b': [2, 3], 'a': 1}
    """
    # TF's texts (programs print them)
    if not is_nested(flat_sequence):
        raise TypeError(f"Attempted to pack value:\n  {flat_sequence}\ninto a structure, but found "
                        f"incompatible type `{type(flat_sequence)}` instead.")
    flat = list(flat_sequence)
    if not is_nested(structure):
        if len(flat) != 1:
            raise ValueError(f"The target structure is of type `{type(structure)}`\n  {structure}\nHowever "
                             f"the input is a sequence ({type(flat_sequence)}) of length {len(flat)}.\n  "
                             f"{flat_sequence}\nnest cannot guarantee that it is safe to map one to the "
                             "other.")
        return flat[0]
    count = len(flatten(structure))
    if count != len(flat):
        raise ValueError(f"Could not pack sequence. Structure had {count} atoms, but flat_sequence had "
                         f"{len(flat)} items.  Structure: {structure}, flat_sequence: {flat_sequence}.")
    packed, _ = _pack(structure, flat, 0)
    return packed


def map_structure(func, *structure, **kwargs):
    """Applies ``func`` to the matching leaves of one or more structures of the same shape.

    Example:
        >>> import companion as tf
        >>> tf.nest.map_structure(lambda x, y: x + y, {"a": [1, 2]}, {"a": [10, 20]})
        {'a': [11, 22]}
    """
    if not callable(func):
        raise TypeError(f"map_structure: func must be callable. Received: {func!r}")
    if not structure:
        raise ValueError("map_structure: give at least one structure to map over.")
    check_types = kwargs.pop("check_types", True)
    kwargs.pop("expand_composites", None)
    if kwargs:
        raise ValueError(f"map_structure: only check_types and expand_composites are accepted as keyword "
                         f"arguments. Received: {sorted(kwargs)}")
    for other in structure[1:]:
        assert_same_structure(structure[0], other, check_types=check_types)
    flat = [flatten(s) for s in structure]
    return pack_sequence_as(structure[0], [func(*leaves) for leaves in zip(*flat)])


def assert_same_structure(nest1, nest2, check_types=True, expand_composites=False):
    """Raises unless ``nest1`` and ``nest2`` nest the same way (leaves may differ).

    Raises:
        ValueError: the nesting or the number of elements differs (or a mapping's keys).
        TypeError: with ``check_types``, the types of two sequences differ (e.g. list vs tuple).

    Example:
        >>> import companion as tf
        >>> tf.nest.assert_same_structure((1, [2, 3]), ("a", ["b", "c"]))
    """
    _compare(nest1, nest2, check_types, nest1, nest2)


# -- the staging core's fast form: jax.tree_util with companion's leaves -------------------------

_VALUE_TYPES = (Tensor, TensorSpec, np.ndarray, np.generic)


def is_value(x):
    """A leaf of an argument or result structure in the core (function, tapes, Strategy.run,
    functional control flow): ``None``, tensors, specs, arrays, Variables and AutoGraph's
    chosen Python values. (A `PerReplica` is a pytree of its array here, so a function passes
    it as a traced input; `Strategy.run` takes it as one value.) Everything jax.tree_util walks is walked as
    `flatten` walks it (lists, tuples, namedtuples, dicts in sorted key order)."""
    return (x is None or isinstance(x, _VALUE_TYPES) or getattr(x, "_is_variable", False)
            or hasattr(x, "_choose_from") or getattr(type(x), "_is_host_value", False))


def tree_flatten(structure):
    """``(leaves, treedef)`` of ``structure`` with `is_value` leaves; the treedef is hashable
    (staging uses it in signature keys) and `tree_unflatten` rebuilds the structure."""
    return jax.tree_util.tree_flatten(structure, is_leaf=is_value)


tree_unflatten = jax.tree_util.tree_unflatten


# -- internals ---------------------------------------------------------------------------------

def _keys(mapping):
    try:
        return sorted(mapping)
    except TypeError:
        raise TypeError(f"nest only supports mappings with sortable keys (TensorFlow's rule). Received "
                        f"keys {list(mapping)!r}.") from None


def _children(structure):
    if isinstance(structure, collections.abc.Mapping):
        return [structure[k] for k in _keys(structure)]
    return list(structure)


def flatten_with_paths(structure):
    """``[(path, leaf)]`` in `flatten` order, ``path`` the tuple of indices and keys down to the leaf."""
    found = []
    _paths_into(structure, (), found)
    return found


def _paths_into(structure, path, found):
    if not is_nested(structure):
        found.append((path, structure))
        return
    keys = _keys(structure) if isinstance(structure, collections.abc.Mapping) else range(len(structure))
    for key in keys:
        _paths_into(structure[key], path + (key,), found)


def _flatten_into(structure, leaves):
    if not is_nested(structure):
        leaves.append(structure)
        return
    for child in _children(structure):
        _flatten_into(child, leaves)


def _pack(structure, flat, position):
    if not is_nested(structure):
        return flat[position], position + 1
    values = []
    for child in _children(structure):
        value, position = _pack(child, flat, position)
        values.append(value)
    return _rebuild(structure, values), position


def _rebuild(structure, values):
    if isinstance(structure, collections.abc.Mapping):
        by_key = dict(zip(_keys(structure), values))
        ordered = [(k, by_key[k]) for k in structure]  # the structure's own key order
        if isinstance(structure, collections.defaultdict):
            rebuilt = collections.defaultdict(structure.default_factory)
            rebuilt.update(ordered)
            return rebuilt
        return type(structure)(ordered)
    if _is_namedtuple(structure):
        return type(structure)(*values)
    return type(structure)(values)


def _is_namedtuple(value):
    return isinstance(value, tuple) and hasattr(type(value), "_fields")


def _same_type(a, b):
    if _is_namedtuple(a) and _is_namedtuple(b):  # equal name and fields count as one type
        return type(a).__name__ == type(b).__name__ and type(a)._fields == type(b)._fields
    if isinstance(a, collections.abc.Mapping) and isinstance(b, collections.abc.Mapping):
        return True
    return type(a) is type(b)


def _compare(a, b, check_types, nest1, nest2):
    """Raises TF's error (its text too: programs print it) where ``a`` and ``b`` differ."""
    problem = _difference(a, b, check_types)
    if problem is not None:
        kind, detail = problem
        raise kind(f"The two structures don't have the same nested structure.\n\n"
                   f"First structure: {_described(nest1)}\n\nSecond structure: {_described(nest2)}\n\n"
                   f"More specifically: {detail}\nEntire first structure:\n{_outline(nest1)}\n"
                   f"Entire second structure:\n{_outline(nest2)}")


def _difference(a, b, check_types):
    """``(error class, TF's "More specifically" text)`` for the first difference, or None."""
    if is_nested(a) != is_nested(b):
        sequence, leaf = (a, b) if is_nested(a) else (b, a)
        return ValueError, (f'Substructure "{_described(sequence)}" is a sequence, while substructure '
                            f'"{_described(leaf)}" is not')
    if not is_nested(a):
        return None
    if check_types and not _same_type(a, b):
        return TypeError, (f"The two namedtuples don't have the same sequence type. First structure "
                           f"{_described(a)} has type {type(a).__name__}, while second structure "
                           f"{_described(b)} has type {type(b).__name__}")
    mappings = isinstance(a, collections.abc.Mapping) and isinstance(b, collections.abc.Mapping)
    if mappings and _keys(a) != _keys(b):
        return ValueError, (f"The two dictionaries don't have the same set of keys. First structure has "
                            f"keys {_described(_keys(a))}, while second structure has keys "
                            f"{_described(_keys(b))}")
    ca, cb = _children(a), _children(b)
    if len(ca) != len(cb):
        return ValueError, (f"The two structures don't have the same number of elements. First structure: "
                            f"{_described(a)}. Second structure: {_described(b)}")
    for x, y in zip(ca, cb):
        problem = _difference(x, y, check_types)
        if problem is not None:
            return problem
    return None


def _described(value):
    """TF's ``type=list str=[1, 2]`` for a value in a structure error (an eager tensor is TF's
    ``EagerTensor``, a traced one its ``SymbolicTensor``)."""
    name = type(value).__name__
    if isinstance(value, Tensor) and name == "Tensor":
        name = "SymbolicTensor" if value.is_traced else "EagerTensor"
    return f"type={name} str={value!s}"


class _Dot:
    """A leaf drawn as ``.`` in TF's outline of a structure."""

    def __repr__(self):
        return "."


def _outline(structure):
    """The structure with each leaf drawn as ``.``: TF's ``[., (., .)]``, ``{'a': .}``."""
    dot = _Dot()
    if not is_nested(structure):
        return "."
    packed, _ = _pack(structure, [dot] * len(flatten(structure)), 0)
    return repr(packed)


def dict_orders(structure):
    """The key order of every dict in ``structure`` (None when it holds no dict): flattening sorts
    dict keys, but TF returns a function's dicts in the order the function built them."""
    if isinstance(structure, dict):
        return ("dict", list(structure), {k: dict_orders(v) for k, v in structure.items()})
    if isinstance(structure, (list, tuple)):
        inner = [dict_orders(v) for v in structure]
        return ("seq", inner) if any(o is not None for o in inner) else None
    return None


def in_dict_orders(value, orders):
    """``value`` (unflattened: dicts in sorted key order) with its dicts in ``orders``."""
    if orders is None:
        return value
    if orders[0] == "dict" and isinstance(value, dict):
        items = [(k, in_dict_orders(value[k], orders[2][k])) for k in orders[1] if k in value]
        if isinstance(value, collections.defaultdict):
            rebuilt = type(value)(value.default_factory)
            rebuilt.update(items)
            return rebuilt
        return type(value)(items)
    if orders[0] == "seq" and isinstance(value, (list, tuple)):
        items = [in_dict_orders(v, o) for v, o in zip(value, orders[1])]
        if hasattr(value, "_fields"):  # a namedtuple
            return type(value)(*items)
        return type(value)(items)
    return value
