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
    if not is_nested(flat_sequence):
        raise TypeError(f"pack_sequence_as: flat_sequence must be a list or tuple of leaves. Received: "
                        f"{type(flat_sequence).__name__} {flat_sequence!r}")
    flat = list(flat_sequence)
    if not is_nested(structure):
        if len(flat) != 1:
            raise ValueError(f"pack_sequence_as: the structure is a single leaf, so flat_sequence must hold "
                             f"exactly one element. Received {len(flat)} elements.")
        return flat[0]
    count = len(flatten(structure))
    if count != len(flat):
        raise ValueError(f"pack_sequence_as: the structure has {count} leaves but flat_sequence has "
                         f"{len(flat)}. Structure: {structure!r}")
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
    if is_nested(a) != is_nested(b):
        raise ValueError(f"The two structures don't have the same nested structure: {a!r} is "
                         f"{'a structure' if is_nested(a) else 'a leaf'} where the other has {b!r}.\n"
                         f"First structure: {nest1!r}\nSecond structure: {nest2!r}")
    if not is_nested(a):
        return
    if check_types and not _same_type(a, b):
        raise TypeError(f"The two structures don't have the same sequence type: {type(a).__name__} and "
                        f"{type(b).__name__}. Pass check_types=False to compare only the nesting.\n"
                        f"First structure: {nest1!r}\nSecond structure: {nest2!r}")
    if isinstance(a, collections.abc.Mapping) and isinstance(b, collections.abc.Mapping):
        if _keys(a) != _keys(b):
            raise ValueError(f"The two structures don't have the same keys: {_keys(a)} and {_keys(b)}.\n"
                             f"First structure: {nest1!r}\nSecond structure: {nest2!r}")
    ca, cb = _children(a), _children(b)
    if len(ca) != len(cb):
        raise ValueError(f"The two structures don't have the same number of elements: {len(ca)} and "
                         f"{len(cb)} in {a!r} and {b!r}.\nFirst structure: {nest1!r}\n"
                         f"Second structure: {nest2!r}")
    for x, y in zip(ca, cb):
        _compare(x, y, check_types, nest1, nest2)


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
