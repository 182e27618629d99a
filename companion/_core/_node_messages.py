"""TF's shape-inference messages for a mistake in an op met while a function traces.

In a graph, TF's shape inference refuses the node as it is added and says which::

    Dimensions must be equal, but are 3 and 4 for '{{node MatMul}} = MatMul[T=DT_FLOAT, grad_a=false,
    grad_b=false, transpose_a=false, transpose_b=false](a, b)' with input shapes: [2,3], [4,5].

`node_message` builds that text from the op's own part (``Dimensions must be equal, but are 3
and 4``), its node type and attributes, and its inputs, with the graph names the trace gave them
(`_tensor_names`): an input no op named (a Python list TF converts) is named after the node
(``add/y``, ``Reshape/shape``). Outside a trace that keeps names it returns None: the op raises its
eager message. Only error paths call it.
"""

from companion._core import _tensor_names

_DT_NAMES = {"float32": "DT_FLOAT", "float64": "DT_DOUBLE", "float16": "DT_HALF"}


def dt_name(dtype):
    """TF's ``DT_...`` name of a dtype (``DT_FLOAT`` for float32)."""
    name = getattr(dtype, "name", str(dtype))
    return _DT_NAMES.get(name, f"DT_{name.upper()}")


def shape_text(shape):
    """A shape as TF's shape inference prints it: ``[2,3]``, ``[]``, ``[4,?]``, ``?`` (unknown rank)."""
    dims = getattr(shape, "as_list", None)
    if dims is not None:
        if getattr(shape, "rank", 0) is None:
            return "?"
        shape = dims()
    return "[" + ",".join("?" if d is None or d == -1 else str(int(d)) for d in shape) + "]"


def node_name(op_name, skip=0):
    """The node name the next op ``op_name`` gets in the function being traced (TF's name, under
    the open name scopes; ``name=`` if given), or None outside one; ``skip`` names are taken first
    (an op TF tried, and failed, to add before it)."""
    names = _tensor_names.active()
    if names is None:
        return None
    base = names.given or _tensor_names.tf_op_name(op_name)[0]
    probe = _tensor_names.TensorNames()  # the trace's names as they are now, left unchanged
    probe.counts, probe.scopes = dict(names.counts), names.scopes
    for _ in range(skip):
        probe.new_name(base)
    return probe.new_name(base)


def node_message(core, op_name, inputs, attrs, node=None, op_type=None, suffix=""):
    """``core`` completed as TF's shape inference says it while a function traces, or None outside.

    ``inputs``: ``(value, fallback)`` pairs: the Tensor (or None) and the name TF gives a
    converted Python value under the node (``"y"`` for ``add/y``), and its shape (``shape`` in a
    third place when the value is None). ``attrs``: the node's attributes as TF prints them.
    """
    node = node or node_name(op_name)
    if node is None:
        return None
    names, shapes = [], []
    for entry in inputs:
        value, fallback = entry[0], entry[1]
        graph = _tensor_names.graph_name(value._v) if value is not None else None
        if graph is None:
            graph = f"{node}/{fallback}"
        names.append(graph[:-2] if graph.endswith(":0") else graph)
        shapes.append(shape_text(value.shape if value is not None else entry[2]))
    op_type = op_type or _tensor_names.tf_op_name(op_name)[1]
    return (f"{core} for '{{{{node {node}}}}} = {op_type}[{attrs}]({', '.join(names)})' with input "
            f"shapes: {', '.join(shapes)}{suffix}.")


def broadcast_mismatch(sx, sy):
    """TF's ``Dimensions must be equal, but are A and B`` for shapes that do not broadcast: the
    first pair, from the left once aligned on the right, that differs with neither 1."""
    rank = max(len(sx), len(sy))
    px, py = [1] * (rank - len(sx)) + list(sx), [1] * (rank - len(sy)) + list(sy)
    for a, b in zip(px, py):
        if a != b and a != 1 and b != 1 and a is not None and b is not None:
            return f"Dimensions must be equal, but are {a} and {b}"
    return None
