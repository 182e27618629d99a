"""Nested element structures as tf.data sees them: tuples, namedtuples and dicts of leaves.

Lists are *not* structures (``from_tensor_slices([1, 2])`` slices one tensor), except a list
returned by a map function, which becomes a tuple (as in tf.data). Dict keys flatten in
sorted order, so two dicts with the same keys always line up.
"""


def is_namedtuple(value):
    return isinstance(value, tuple) and hasattr(type(value), "_fields")


def is_structure(value):
    """True for the containers that nest: tuple, namedtuple, dict."""
    return isinstance(value, (tuple, dict))


def flatten(structure):
    """The leaves of ``structure`` in a fixed order (dicts by sorted key)."""
    if isinstance(structure, dict):
        return [leaf for key in sorted(structure) for leaf in flatten(structure[key])]
    if isinstance(structure, tuple):
        return [leaf for item in structure for leaf in flatten(item)]
    return [structure]


def pack(structure, leaves):
    """Rebuilds ``structure`` with ``leaves`` (in `flatten` order) in place of its own leaves."""
    return _pack(structure, iter(leaves))


def _pack(structure, it):
    if isinstance(structure, dict):
        values = {key: _pack(structure[key], it) for key in sorted(structure)}
        return type(structure)((key, values[key]) for key in structure)
    if type(structure) is tuple:
        return tuple([_pack(item, it) for item in structure])
    if isinstance(structure, tuple):  # a namedtuple
        return type(structure)(*[_pack(item, it) for item in structure])
    return next(it)


def map_structure(fn, *structures):
    """Applies ``fn`` leaf-wise over structures of the same shape."""
    flat = [flatten(s) for s in structures]
    return pack(structures[0], [fn(*leaves) for leaves in zip(*flat)])


def same_structure(a, b):
    """True when ``a`` and ``b`` nest the same way (same containers, keys and lengths)."""
    if isinstance(a, dict) or isinstance(b, dict):
        return (isinstance(a, dict) and isinstance(b, dict) and sorted(a) == sorted(b)
                and all(same_structure(a[k], b[k]) for k in a))
    if isinstance(a, tuple) or isinstance(b, tuple):
        return (isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b)
                and all(same_structure(x, y) for x, y in zip(a, b)))
    return True


def describe(structure):
    """A short text of a structure's shape, for error messages: ``(leaf, {'a': leaf})``."""
    if isinstance(structure, dict):
        return "{" + ", ".join(f"{k!r}: {describe(v)}" for k, v in structure.items()) + "}"
    if isinstance(structure, tuple):
        return "(" + ", ".join(describe(v) for v in structure) + ("," if len(structure) == 1 else "") + ")"
    return "leaf"
