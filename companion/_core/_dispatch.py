"""Dispatch of ops to composite values (TF's ``dispatch_for_api``): RaggedTensors so far.

A class marks itself with ``_is_ragged = True`` and provides ``_dispatch_elementwise(op, *args)``,
``_dispatch_reduce(name, dense_reduce, axis, keepdims)`` and ``_dispatch_api(api, *args, **kwargs)``
(the class's version of the op named ``api``); the ops below the ragged package call these without
importing it (the core never imports a package above it).
"""

import functools


def composite(*values):
    """The first of ``values`` that is a composite (ragged) value, or None."""
    for value in values:
        if getattr(type(value), "_is_ragged", False):
            return value
    return None


def dispatch(api, candidates, *args, **kwargs):
    """The composite version of the op ``api`` applied to ``args`` when one of ``candidates`` (the
    arguments TF's dispatch looks at; a list is looked into) is composite, else ``NotImplemented``."""
    flat = []
    for value in candidates:
        flat.extend(value if isinstance(value, (list, tuple)) else [value])
    found = composite(*flat)
    if found is None:
        return NotImplemented
    return found._dispatch_api(api, *args, **kwargs)


def elementwise_dispatch(fn):
    """Decorates an elementwise op ``fn``: given a composite (ragged) argument, or a list holding one,
    it runs on the flat values (TF's ragged dispatch of elementwise ops)."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        found = composite(*args, *kwargs.values())
        if found is None and any(isinstance(v, (list, tuple)) for v in args):  # add_n's list
            found = composite(*[item for v in args if isinstance(v, (list, tuple)) for item in v])
        if found is None:
            return fn(*args, **kwargs)
        return found._dispatch_elementwise(wrapper, *args, **kwargs)

    return wrapper
