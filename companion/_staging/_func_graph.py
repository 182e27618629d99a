"""`FuncGraph`: the graph of a traced `function` signature (``concrete.graph``), as TF 2.21 shows it.

TF stages a ``tf.function`` into a graph of operations; companion stages it into a jaxpr. While a
function traces, companion names its tensors as TF does (`companion._core._tensor_names`) and logs
one node per operation TF's graph would hold: the argument ``Placeholder``s, the captured
Variables' handles (``Placeholder`` nodes of dtype ``resource``) and their ``ReadVariableOp``
reads, the ops (TF's types: ``MatMul``, ``AddV2``, ``Sum``...), the ``Const`` nodes of values known
while tracing, and the ``Identity`` node of each output. A branch or loop body of a traced ``if`` or
``while`` is one node, ``cond`` (``StatelessIf``) or ``while`` (``StatelessWhile``), as TF's graph
shows its functional control flow. That log is what `FuncGraph.get_operations` and
`FuncGraph.as_graph_def` show; the program that runs is the jaxpr (``as_text()``, ``jaxpr``,
``operations()``: its primitives).

Differences from TF: a node companion computes in one op where TF has several (a Keras loss) is
one node; nodes carry no attributes but their types (`companion._staging._graph_def`).
"""

from companion._core._dtypes import as_dtype
from companion._core._operation import Operation
from companion._core._shape import TensorShape
from companion._html import program
from companion._staging._graph_def import GraphDef, node_def
from companion._staging._program_text import legend, program_text


class FuncGraph:
    """The traced program of a `ConcreteFunction`: TF's node view and the jaxpr that runs.

    Example:
        >>> import companion as tf
        >>> @tf.function
        ... def f(x, y):
        ...     return tf.matmul(x, y) + 1.0
        >>> g = f.get_concrete_function(tf.ones([1, 2]), tf.ones([2, 1])).graph
        >>> [(op.name, op.type) for op in g.get_operations()]  # doctest: +NORMALIZE_WHITESPACE
        [('x', 'Placeholder'), ('y', 'Placeholder'), ('MatMul', 'MatMul'), ('add/y', 'Const'),
         ('add', 'AddV2'), ('Identity', 'Identity')]
        >>> g.outputs
        [<companion.Tensor 'Identity:0' shape=(1, 1) dtype=float32>]
    """

    def __init__(self, name, closed, owners, nodes=(), concrete=None, inner=False):
        self.name = name
        self.jaxpr = closed
        self._owners = owners
        self._nodes = [n for n in nodes if inner or not n.inner]
        self._concrete = concrete
        self._operations = None

    @classmethod
    def being_traced(cls, nodes):
        """The node view of a function being traced, as logged so far (what ``tensor.op`` and
        ``tensor.graph`` show while it traces; its branches' and loop bodies' nodes included)."""
        return cls("being traced", None, {}, nodes, inner=True)

    # -- TF's graph view -----------------------------------------------------------------

    @property
    def inputs(self):
        """The graph's input placeholders: the arguments' (``x:0``), then the captured handles."""
        if self._concrete is None:  # being traced: the placeholders made so far
            return [op.outputs[0] for op in self.get_operations() if op.type == "Placeholder" and op.outputs]
        return self._concrete.inputs

    @property
    def outputs(self):
        """The graph's outputs (``Identity:0``, ``Identity_1:0``...), in flat order (none while traced)."""
        return self._concrete.outputs if self._concrete is not None else []

    @property
    def structured_outputs(self):
        return self._concrete.structured_outputs

    @property
    def structured_input_signature(self):
        return self._concrete.structured_input_signature

    @property
    def variables(self):
        """The Variables the traced program reads or writes (a tuple, as TF's)."""
        return tuple(self._concrete.variables) if self._concrete is not None else ()

    def get_operations(self):
        """The graph's operations (`GraphOperation`), in the order they were made."""
        if self._operations is None:
            self._operations = [GraphOperation(self, node) for node in self._nodes]
        return list(self._operations)

    def get_operation_by_name(self, name):
        """The operation named ``name``; a KeyError naming the graph's operations otherwise."""
        for operation in self.get_operations():
            if operation.name == name:
                return operation
        raise KeyError(f"The name {name!r} refers to an Operation not in the graph of {self.name!r}. "
                       f"Its operations are {[op.name for op in self.get_operations()]}.")

    def get_tensor_by_name(self, name):
        """The tensor named ``name`` (``op:index``); a KeyError otherwise."""
        node, _, index = str(name).rpartition(":")
        if not node or not index.isdigit():
            raise ValueError(f"A tensor name has the form 'op_name:output_index' (such as 'mul:0'). "
                             f"Received: name={name!r}.")
        outputs = self.get_operation_by_name(node).outputs
        if int(index) >= len(outputs):
            raise KeyError(f"The operation {node!r} has {len(outputs)} output(s); there is no tensor "
                           f"{name!r}.")
        return outputs[int(index)]

    def as_graph_def(self, add_shapes=False):
        """The graph's nodes as TF's ``GraphDef`` (`companion._staging._graph_def`)."""
        return GraphDef(node_def(n.name, n.type, n.inputs, n.outputs) for n in self._nodes)

    # -- the program that runs (a jaxpr) --------------------------------------------------

    def as_text(self):
        """The traced program as readable jaxpr text (Variable reads as ``read_variable``)."""
        return program_text(self.jaxpr, self._owners)

    def operations(self):
        """The names of the primitive operations of the traced program, in order (an op with a
        gradient rule of its own, a ``custom_jvp_call``/``custom_vjp_call``, by the operations inside)."""
        return _primitive_names(self.jaxpr.jaxpr.eqns)

    def __str__(self):
        return self.as_text()

    def __repr__(self):
        return (f"<companion FuncGraph {self.name!r}: {len(self._nodes)} nodes, "
                f"{len(self.jaxpr.jaxpr.eqns)} program operations>")

    def _repr_html_(self):
        """In Jupyter: the traced program (a jaxpr), inputs first, outputs last."""
        return self._page(repr(self))

    def _page(self, caption):
        text = self.as_text()
        return program(caption, legend(text, self.jaxpr, self._owners), text)


class GraphOperation(Operation):
    """An operation of a `FuncGraph`: ``name``, ``type``, ``inputs`` and ``outputs`` (its tensors),
    ``node_def``, ``graph``."""

    __slots__ = ("_graph", "_outputs", "_shapes")

    def __init__(self, graph, node):
        super().__init__(node.name, node.type, node.inputs)
        self._graph = graph
        self._shapes = node.outputs
        self._outputs = None

    graph = property(lambda self: self._graph)

    @property
    def outputs(self):
        if self._outputs is None:
            shown = {t.name: t.shape for t in _safe_inputs(self._graph)}
            self._outputs = [GraphTensor(self, i, shown.get(f"{self.name}:{i}", shape), dtype)
                             for i, (shape, dtype) in enumerate(self._shapes)]
        return list(self._outputs)

    def values(self):
        return tuple(self.outputs)

    @property
    def inputs(self):
        """The tensors this operation reads (control inputs, ``^name``, are in ``control_inputs``)."""
        names = [n for n in self._node_inputs if not n.startswith("^")]
        return [self._graph.get_tensor_by_name(n if ":" in n else f"{n}:0") for n in names]

    @property
    def control_inputs(self):
        return [self._graph.get_operation_by_name(n[1:]) for n in self._node_inputs if n.startswith("^")]

    @property
    def node_def(self):
        return node_def(self.name, self.type, self._node_inputs, self._shapes)

    def __repr__(self):
        return f"<companion.Operation '{self.name}' type={self.type}>"

    def __str__(self):
        return str(self.node_def)


class GraphTensor:
    """A tensor of a `FuncGraph`: ``name`` (``mul:0``), ``shape``, ``dtype`` (a dtype, or ``"resource"``
    for a Variable's handle), ``op``, ``value_index``, ``graph``."""

    def __init__(self, op, index, shape, dtype):
        self.op = op
        self.value_index = index
        self.name = f"{op.name}:{index}"
        self.shape = shape if isinstance(shape, TensorShape) else TensorShape(shape)
        self.dtype = dtype if dtype == "resource" else as_dtype(dtype)

    graph = property(lambda self: self.op.graph)

    def _dtype_name(self):
        return self.dtype if isinstance(self.dtype, str) else self.dtype.name

    def __str__(self):
        return f'Tensor("{self.name}", shape={self.shape}, dtype={self._dtype_name()})'

    def __repr__(self):
        return f"<companion.Tensor '{self.name}' shape={self.shape} dtype={self._dtype_name()}>"


def _safe_inputs(graph):
    """The concrete function's input tensors (their shapes show a signature's ``None`` dims)."""
    return graph._concrete.inputs if graph._concrete is not None else []


def _primitive_names(eqns):
    names = []
    for eqn in eqns:
        inner = eqn.params.get("call_jaxpr") if eqn.primitive.name.startswith("custom_") else None
        if inner is not None:
            names.extend(_primitive_names(getattr(inner, "jaxpr", inner).eqns))
        else:
            names.append(eqn.primitive.name)
    return names
