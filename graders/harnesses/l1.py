"""Harnesses of lecture lab L1 (TF1 graphs and sessions): a graph run in a Session, and its TF2 function.

Each call turns the case's plain arrays into float32 NumPy arrays (as the notebook passes them),
calls the learner's function once and describes what came back as plain data: the kinds of the
returned objects, the placeholders and Variables of the returned graph, and the values. Nothing
here builds the model or computes its loss: the expected values come from the solution notebook.
"""

from __future__ import annotations

import numpy as np

import companion as tf
from graders._integrity import verify
from graders._values import type_name


def squared_error_graph(function, x, y, w_init, b_init, *, _verify=verify) -> dict:
    """`squared_error_graph(x, y, w_init, b_init)` -> (graph, prediction, loss), described."""
    result = function(*[np.asarray(value, np.float32) for value in (x, y, w_init, b_init)])
    fields = {"returned": _kind_and_length(result)}
    if fields["returned"] != "tuple of 3":
        return fields
    graph, prediction, loss = result
    _verify()
    fields["graph"] = _type(graph)
    if issubclass(type(graph), tf.Graph):
        operations = graph.get_operations()
        fields["placeholders"] = sorted(f"{op.outputs[0].dtype.name} {op.outputs[0].shape}"
                                        for op in operations if op.type == "Placeholder")
        fields["variables"] = sorted(f"{v.dtype.name} {v.shape}" for v in graph.get_collection("variables"))
    fields["prediction"] = _fetched(prediction)
    fields["loss"] = _fetched(loss)
    return fields


def squared_error_tf2(function, w_init, b_init, batches, new_w, *, _verify=verify) -> dict:
    """`squared_error_tf2(w_init, b_init)` -> (w, b, compute): called on each (x, y) batch, then again on
    the first batch after ``w.assign(new_w)``."""
    result = function(np.asarray(w_init, np.float32), np.asarray(b_init, np.float32))
    fields = {"returned": _kind_and_length(result)}
    if fields["returned"] != "tuple of 3":
        return fields
    w, b, compute = result
    _verify()
    fields["w and b are Variables"] = [issubclass(type(w), tf.Variable), issubclass(type(b), tf.Variable)]
    fields["compute"] = _type(compute)
    if not callable(compute):
        return fields
    batches = [(np.asarray(x, np.float32), np.asarray(y, np.float32)) for x, y in batches]
    outputs = [compute(tf.constant(x), tf.constant(y)) for x, y in batches]
    fields["outputs per batch"] = [_kind_and_length(out) for out in outputs]
    fields["predictions"] = [_part(out, 0) for out in outputs]
    fields["losses"] = [_part(out, 1) for out in outputs]
    if fields["w and b are Variables"][0]:
        w.assign(np.asarray(new_w, np.float32))
        first_x, first_y = batches[0]
        fields["loss after w.assign"] = _part(compute(tf.constant(first_x), tf.constant(first_y)), 1)
    return fields


def _fetched(value):
    """A fetched value as it is; a graph's symbolic tensor (which has no value) as a description."""
    if isinstance(getattr(value, "graph", None), tf.Graph) and hasattr(value, "op"):
        return f"a symbolic tensor {value.name!r}, not its value"
    return value


def _kind_and_length(value):
    if isinstance(value, (tuple, list)):
        return f"{type(value).__name__} of {len(value)}"
    return _type(value)


def _type(value):
    """The class name alone (Graph, Function, function): stable when companion moves its modules; a
    class of the notebook's keeps its `__main__.` (a plain class named `Function` is not companion's)."""
    name = type_name(value)
    library = name.split(".")[0] in ("companion", "numpy", "jax") or "." not in name
    return type(value).__qualname__ if library else name


def _part(output, index):
    """Item ``index`` of a returned (prediction, loss) pair, or None when there is no such item."""
    return output[index] if isinstance(output, (tuple, list)) and len(output) > index else None
