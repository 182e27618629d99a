"""Keras 3's name scopes: the stack of layer names that makes a weight's ``path``.

A layer opens its scope (its ``name``) while it is called, built, or creates a weight, so a
weight made by ``dense`` inside ``sequential`` gets ``path='sequential/dense/kernel'`` and
``name='kernel'``. TensorFlow's own ``tf.name_scope`` does not enter Keras paths (as in TF 2.21
with Keras 3). A layer remembers where it first opened its scope and always reopens it there,
and reopening the scope already on top of the stack adds nothing (Keras's ``deduplicate``).
"""

import contextlib
import threading

_local = threading.local()


def _stack():
    stack = getattr(_local, "stack", None)
    if stack is None:
        stack = _local.stack = []
    return stack


def current_path():
    """The names of the open scopes joined by ``/`` (``''`` outside every layer)."""
    parts = []
    for name, parent, _ in _stack():
        if parent is not None:
            parts = [p for p in parent.split("/") if p]
        parts.append(name)
    return "/".join(parts)


@contextlib.contextmanager
def name_scope(name, caller=None):
    """Opens the scope ``name`` for ``caller`` (a layer, optimizer or metric, or None)."""
    if not isinstance(name, str) or "/" in name:
        raise ValueError(f"A Keras name scope must be a string without '/'. Received: name={name!r}")
    stack = _stack()
    if caller is not None and stack and stack[-1][0] == name and stack[-1][2] is caller:
        yield
        return
    parent = None
    if caller is not None:
        parent = caller.__dict__.get("_keras_parent_path")
        if parent is None:
            parent = caller.__dict__["_keras_parent_path"] = current_path()
    stack.append((name, parent, caller))
    try:
        yield
    finally:
        stack.pop()


def join_path(name):
    """The ``path`` of a weight ``name`` created now: the open scopes, then ``name``."""
    path = current_path()
    return f"{path}/{name}" if path else name
