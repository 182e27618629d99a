"""`GraphDef` and `NodeDef`: a function graph's nodes as TF's protocol buffers show them.

``concrete.graph.as_graph_def()`` returns a `GraphDef` whose ``node`` list holds one `NodeDef` per
operation (``name``, ``op``, ``input``, ``device``, ``attr``); printed, it is TF's protobuf text
(``node { name: "x" op: "Placeholder" ... }``). companion writes the attributes it knows of each
node: ``dtype`` (and ``shape``) of a ``Placeholder`` or ``Const``, ``T`` (the output's type) of the
others. TF's nodes carry more (``transpose_a`` of ``MatMul``, a ``Const``'s value) and a function
library for the branches and loop bodies; companion's do not.
"""

# TF's DataType enum names where they are not the dtype's name in capitals
_DATATYPE_NAMES = {"float32": "FLOAT", "float64": "DOUBLE", "float16": "HALF", "object": "STRING"}


class NodeDef:
    """One node: ``name``, ``op`` (its type), ``input`` (the node input names), ``device``, ``attr``
    (key -> the AttrValue's text, ``type: DT_FLOAT``)."""

    def __init__(self, name, op, inputs=(), attr=None, device=""):
        self.name = name
        self.op = op
        self.input = list(inputs)
        self.device = device
        self.attr = dict(attr or {})

    def __str__(self):
        lines = [f'name: "{self.name}"', f'op: "{self.op}"']
        lines += [f'input: "{name}"' for name in self.input]
        if self.device:
            lines.append(f'device: "{self.device}"')
        for key, value in self.attr.items():
            lines += ["attr {", f'  key: "{key}"', "  value {"]
            lines += [f"    {line}" for line in value.splitlines()]
            lines += ["  }", "}"]
        return "\n".join(lines) + "\n"

    def __repr__(self):
        return f"<NodeDef {self.name!r} op={self.op!r} input={self.input!r}>"


class GraphDef:
    """A graph's nodes, in the order they were made (``node``); prints as TF's protobuf text."""

    def __init__(self, nodes):
        self.node = list(nodes)

    def __str__(self):
        blocks = []
        for node in self.node:
            body = "".join(f"  {line}\n" for line in str(node).splitlines())
            blocks.append(f"node {{\n{body}}}\n")
        return "".join(blocks)

    def __repr__(self):
        return f"<GraphDef of {len(self.node)} nodes>"


def node_def(name, op_type, inputs, outputs):
    """The `NodeDef` of a node with output ``(shape, dtype name)`` pairs ``outputs``."""
    attr = {}
    if outputs:
        shape, dtype = outputs[0]
        if op_type in ("Placeholder", "Const"):
            attr["dtype"] = type_text(dtype)
            if op_type == "Placeholder" and dtype != "resource":
                attr["shape"] = shape_text(shape)
        else:
            attr["T"] = type_text(dtype)
    return NodeDef(name, op_type, inputs, attr)


def type_text(dtype_name):
    """An AttrValue's text for a dtype: ``type: DT_FLOAT``."""
    return f"type: DT_{_DATATYPE_NAMES.get(dtype_name, str(dtype_name).upper())}"


def shape_text(shape):
    """An AttrValue's text for a shape (``None`` dimensions are ``-1``, an unknown rank ``unknown_rank``)."""
    if shape is None:
        return "shape {\n  unknown_rank: true\n}"
    dims = "".join(f"  dim {{\n    size: {-1 if d is None else d}\n  }}\n" for d in shape)
    return "shape {\n" + dims + "}" if dims else "shape {\n}"
