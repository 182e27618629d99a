"""`Operation`: TF's ``tf.Operation``, a node with no outputs that a function being traced makes.

Inside a `companion.function`, TensorFlow returns an Operation where eager code gets None: from a
Variable write with ``read_value=False`` (``AssignVariableOp``, ``AssignAddVariableOp``,
``AssignSubVariableOp``), from `group` and from `no_op` (``NoOp``). companion's traced code runs
in program order, so the Operation only stands for the write (which has happened on the traced
value); it shows TF's name, type and node text, serves as a control input, and a function that
returns one fails as TF's does. The TF1 graph's nodes (`companion._staging._graph.Operation`)
are Operations too.
"""

import jax

from companion._core import _tensor_names
from companion._core._context import state


class Operation:
    """A node of a graph: its ``name``, ``type``, ``inputs``, ``outputs`` and ``control_inputs``.

    Example:
        >>> import companion as tf
        >>> v = tf.Variable(1.0)
        >>> @tf.function
        ... def step():
        ...     op = v.assign_add(1.0, read_value=False)
        ...     print(repr(op))
        ...     return v.read_value()
        >>> float(step())
        <companion.Operation 'AssignAddVariableOp' type=AssignAddVariableOp>
        2.0
    """

    __slots__ = ("_name", "_type", "_node_inputs", "_attrs", "_control")

    def __init__(self, name, op_type, node_inputs=(), attrs=(), control=()):
        self._name = name
        self._type = op_type
        self._node_inputs = tuple(node_inputs)  # TF's node input names ("mul", "x", "v/resource")
        self._attrs = tuple(attrs)  # (key, text of the AttrValue) in TF's order
        self._control = tuple(control)  # the Operations this one runs after

    name = property(lambda self: self._name)
    type = property(lambda self: self._type)
    outputs = property(lambda self: [])
    device = property(lambda self: "")

    @property
    def inputs(self):
        return tuple(self._node_inputs)

    @property
    def control_inputs(self):
        return list(self._control)

    def __repr__(self):
        return f"<companion.Operation '{self._name}' type={self._type}>"

    def __str__(self):  # TF prints an Operation as its NodeDef, in protobuf text
        lines = [f'name: "{self._name}"', f'op: "{self._type}"']
        lines += [f'input: "{name}"' for name in self._node_inputs]
        lines += [f'input: "^{op.name}"' for op in self._control]
        for key, value in self._attrs:
            lines += ["attr {", f'  key: "{key}"', "  value {", f"    {value}", "  }", "}"]
        return "\n".join(lines) + "\n"


def producer(tensor_name):
    """The Operation that made the graph tensor ``tensor_name`` (``mul_1:0``) in the function being
    traced: its node as logged so far (`companion._staging._func_graph.GraphOperation`: name, TF's
    type, input and output tensors), or its node's name and TF's type (``Mul``)."""
    node = tensor_name.rpartition(":")[0]
    names = _tensor_names.active()
    if names is not None:  # the node logged so far: its inputs and outputs are graph tensors
        # deferred: the staging layer is built on this module
        from companion._staging._func_graph import FuncGraph

        try:
            return FuncGraph.being_traced(names.nodes).get_operation_by_name(node)
        except KeyError:  # a name no logged node has (a loop's index): its name and type only
            pass
    return Operation(node, _tensor_names.op_type_of(node))


def traced_write(variable, op_type, name, value):
    """What a Variable write with ``read_value=False`` returns: None eagerly, else (a function is
    being traced) TF's ``op_type`` Operation writing ``value`` (a Tensor) to ``variable``."""
    if not state.staging:
        return None
    node = _node_name(name or op_type)
    names = _tensor_names.active()
    resource = f"{node}/resource"
    if names is not None:  # the function captures the Variable's handle once, named by its first use
        resource = names.capture(variable, resource)
    dtype = variable.dtype.name
    attrs = [("dtype", f"type: DT_{_DATATYPE_NAMES.get(dtype, dtype.upper())}")]
    if op_type == "AssignVariableOp":
        attrs.insert(0, ("validate_shape", "b: true"))
    operation = Operation(node, op_type, (resource, _input_name(value)), attrs)
    if names is not None:
        names.note_node(node, op_type, operation.inputs)
    return operation


def note_read(variable, scope):
    """While a function traces: a read of ``variable`` in the name scope ``scope`` (TF's
    ``Read/ReadVariableOp``), which names the Variable's captured handle if this is its first use."""
    names = _tensor_names.active()
    if names is not None and id(variable) not in names.captures:
        names.capture(variable, f"{names.new_name(scope)}/ReadVariableOp/resource")


def traced_group(name, control_inputs):
    """What `group` and `no_op` return while a function is traced: a ``NoOp`` Operation that runs
    after ``control_inputs`` (Operations, tensors, Variables); None eagerly."""
    if not state.staging:
        return None
    control = []
    for item in control_inputs:
        if isinstance(item, Operation):
            control.append(item)
        elif hasattr(item, "_v"):
            control.append(Operation(_input_name(item).partition(":")[0], "Identity"))
    operation = Operation(_node_name(name), "NoOp", control=control)
    names = _tensor_names.active()
    if names is not None:
        names.note_node(operation.name, "NoOp", [f"^{op.name}" for op in control])
    return operation


# TF's DataType enum names where they are not the dtype's name in capitals
_DATATYPE_NAMES = {"float32": "FLOAT", "float64": "DOUBLE", "float16": "HALF"}


def _node_name(base):
    names = _tensor_names.active()
    return base if names is None else names.new_name(base)


def _input_name(tensor):
    """A tensor's name as a node input: ``mul`` for output 0 (``mul:0``), ``split:1`` for others."""
    names = _tensor_names.active()
    if names is None:
        return "Const"
    value = tensor._v
    if id(value) not in names.named and not isinstance(value, jax.core.Tracer):
        names.name_outputs("Const", [value])  # a value known while tracing is a constant of the graph
    full = names.name_of(value)
    return full[:-2] if full.endswith(":0") else full

