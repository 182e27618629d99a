"""Dispatch of ops to composite values (TF's ``dispatch_for_api``): RaggedTensors so far.

A class marks itself with ``_is_ragged = True`` and provides ``_dispatch_elementwise(op, *args)``
and ``_dispatch_reduce(name, dense_reduce, axis, keepdims)``; the ops below the ragged package
call these without importing it (the core never imports a package above it).
"""


def composite(*values):
    """The first of ``values`` that is a composite (ragged) value, or None."""
    for value in values:
        if getattr(type(value), "_is_ragged", False):
            return value
    return None
