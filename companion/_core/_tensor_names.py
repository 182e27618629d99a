"""TF's graph names for the tensors of a `function` being traced: ``x:0``, ``mul_1:0``, ``cond/add:0``.

A tensor printed while a function traces shows as TensorFlow's graph tensor does,
``Tensor("mul:0", shape=(), dtype=float32)``. TF names a function graph's inputs after the
parameters they bind (``x``; ``pair`` and ``pair_1`` for the leaves of a tuple; ``args_0`` for
``*args``; a `TensorSpec`'s own name) and each operation after its type (``mul``, ``MatMul``,
``Sum``, ``Const``), made unique inside the graph with ``_1``, ``_2``... under the active name
scopes; output ``i`` of an operation is ``name:i``. The branches of an ``if`` on a tensor are
graphs of their own under the scope ``cond`` (``cond_1`` for the next one), a loop body under
``while``.

Only a `function`'s own traces keep names (`Trace.tensor_names`); they are dropped when the trace
ends, so no traced value is kept alive by them.
"""

import contextlib

from companion._core._context import state

# TensorFlow's operation names for companion's ops, where TF's differ from the op's name in
# CamelCase (the rule for the rest: ``reduce_sum`` -> ``Sum`` is listed, ``relu`` -> ``Relu`` is not)
TF_OP_NAMES = {
    "add": ("add", "AddV2"), "subtract": ("sub", "Sub"), "multiply": ("mul", "Mul"),
    # the functions tf.add, tf.subtract, ... name their nodes otherwise than the operators (+, -, ...)
    "Add": ("Add", "AddV2"), "Sub": ("Sub", "Sub"), "Mul": ("Mul", "Mul"), "Pow": ("Pow", "Pow"),
    "FloorMod": ("FloorMod", "FloorMod"),
    "divide": ("truediv", "RealDiv"), "truediv": ("truediv", "RealDiv"), "matmul": ("MatMul", "MatMul"),
    "reduce_sum": ("Sum", "Sum"), "reduce_mean": ("Mean", "Mean"), "reduce_max": ("Max", "Max"),
    "reduce_min": ("Min", "Min"), "reduce_prod": ("Prod", "Prod"), "add_n": ("AddN", "AddN"),
    "negative": ("Neg", "Neg"), "pow": ("pow", "Pow"), "floordiv": ("floordiv", "FloorDiv"),
    "floormod": ("mod", "FloorMod"), "cast": ("Cast", "Cast"), "identity": ("Identity", "Identity"),
    "reshape": ("Reshape", "Reshape"), "transpose": ("transpose", "Transpose"),
    "concat": ("concat", "ConcatV2"), "stack": ("stack", "Pack"), "unstack": ("unstack", "Unpack"),
    "zeros_like": ("zeros_like", "ZerosLike"), "ones_like": ("ones_like", "OnesLike"),
    "sigmoid": ("Sigmoid", "Sigmoid"), "exp": ("Exp", "Exp"), "log": ("Log", "Log"),
    "sqrt": ("Sqrt", "Sqrt"), "abs": ("Abs", "Abs"), "argmax": ("ArgMax", "ArgMax"),
    "argmin": ("ArgMin", "ArgMin"), "softmax": ("Softmax", "Softmax"), "bias_add": ("BiasAdd", "BiasAdd"),
    "expand_dims": ("ExpandDims", "ExpandDims"), "squeeze": ("Squeeze", "Squeeze"),
    "gather": ("GatherV2", "GatherV2"), "one_hot": ("one_hot", "OneHot"), "tile": ("Tile", "Tile"),
    "logical_and": ("LogicalAnd", "LogicalAnd"), "logical_or": ("LogicalOr", "LogicalOr"),
    "logical_not": ("LogicalNot", "LogicalNot"), "greater_equal": ("GreaterEqual", "GreaterEqual"),
    "less_equal": ("LessEqual", "LessEqual"), "not_equal": ("NotEqual", "NotEqual"),
    "squared_difference": ("SquaredDifference", "SquaredDifference"), "strided_slice": ("strided_slice",
                                                                                         "StridedSlice"),
    "join": ("StringJoin", "StringJoin"), "format": ("StringFormat", "StringFormat"),
    "upper": ("StringUpper", "StringUpper"), "lower": ("StringLower", "StringLower"),
    "length": ("StringLength", "StringLength"), "strip": ("StringStrip", "StringStrip"),
    "where": ("SelectV2", "SelectV2"),  # tf.where(c, x, y); tf.where(c) alone is TF's ``Where``
    "all_reduce": ("IdentityN", "IdentityN"),  # a replica context's all_reduce (TF's gradient wrapper)
}


class GraphNode:
    """One node of a function graph as TF lists it: its ``name``, ``type``, ``inputs`` (node input
    names: ``mul``, ``split:1``) and ``outputs`` (``(shape, dtype)`` pairs); ``inner``: made inside a
    sub-graph (a branch, a loop body), which TF's graph shows as the one ``If``/``While`` node."""

    __slots__ = ("name", "type", "inputs", "_outputs", "inner")

    def __init__(self, name, op_type, inputs=(), outputs=(), inner=False):
        self.name, self.type, self.inputs, self._outputs, self.inner = name, op_type, inputs, outputs, inner

    @property
    def outputs(self):
        """``(shape, dtype name)`` per output (kept as the values' abstract values while tracing, which
        hold no trace: reading a tracer's shape and dtype costs more than the rest of the log)."""
        return tuple(_shape_and_dtype(v) for v in self._outputs)

    @outputs.setter
    def outputs(self, outputs):
        self._outputs = outputs

    def __repr__(self):
        return f"GraphNode({self.name!r}, {self.type!r}, {list(self.inputs)!r})"


# the node that stands for a sub-graph in its graph (TF 2.21 marks it stateless when its body is)
_SUB_GRAPH_TYPES = {"cond": "StatelessIf", "while": "StatelessWhile"}


_PARAMETERS = ("x", "y")  # a unary or binary op's parameters, which name the constants it converts


def _abstract(value):
    """What a node keeps of an output value: its JAX abstract value, or ``(shape, dtype name)``."""
    aval = getattr(value, "aval", None)
    return aval if aval is not None else (tuple(getattr(value, "shape", ())), _dtype_name(value))


def _shape_and_dtype(kept):
    if isinstance(kept, tuple):
        return kept
    return tuple(kept.shape), kept.dtype.name


def _is_text(value):
    """Whether an output value holds strings (a host value: JAX arrays, which have ``aval``, never do)."""
    return getattr(value, "aval", None) is None and _dtype_name(value) == "string"


def _dtype_name(value):
    """The dtype name of a node's output value (``float32``; ``string`` for text)."""
    dtype = getattr(value, "dtype", None)
    name = getattr(dtype, "name", None) or str(dtype)
    return "string" if name in ("object", "None") else name


def tf_op_name(op_name):
    """(name base, node type) of an op: TF's where known, else the op's name in CamelCase."""
    known = TF_OP_NAMES.get(op_name)
    if known:
        return known
    camel = "".join(part.capitalize() for part in op_name.split("_"))
    return camel, camel


_TYPE_OF_BASE = {base: op_type for base, op_type in TF_OP_NAMES.values()}
_TYPE_OF_BASE.update(Const="Const", Identity="Identity", Placeholder="Placeholder",
                     ReadVariableOp="ReadVariableOp", range="Range", packed="Pack")


_TYPE_OF_LOWER_BASE = {base.lower(): op_type for base, op_type in _TYPE_OF_BASE.items()}  # `@`: matmul


def op_type_of(node):
    """TF's type of the node named ``node`` (``cond/mul_2`` -> ``Mul``); a name that no op gives is a
    function input's (``x``): a ``Placeholder``."""
    base = node.rpartition("/")[2]
    head, _, tail = base.rpartition("_")
    if head and tail.isdigit():
        base = head
    known = _TYPE_OF_BASE.get(base) or _TYPE_OF_LOWER_BASE.get(base)
    if known is not None:
        return known
    return base if base[:1].isupper() else "Placeholder"


def unique_name(counts, name, mark_as_used=True):
    """``name``, or ``name_1``, ``name_2``... if ``counts`` (lowercased name -> uses) has it: TF's
    rule, which compares names ignoring case (``tf.add``'s ``Add`` then ``+``'s ``add_1``)."""
    key = name.lower()
    count = counts.get(key, 0)
    if mark_as_used:
        counts[key] = count + 1
    if count == 0:
        return name
    base = key
    while key in counts:
        key = f"{base}_{count}"
        count += 1
    if mark_as_used:
        counts[key] = 1
    return f"{name}_{count - 1}"


class TensorNames:
    """The names given in one function graph: the names used, and each named value's name."""

    __slots__ = ("counts", "named", "scopes", "captures", "given", "devices", "placed", "nodes", "converted")

    def __init__(self):
        self.counts = {}
        self.named = {}  # id(value) -> (value, "name:index"); the value is kept so its id stays its own
        self.devices = []  # the device specs of the open `device` blocks (TF's graph device stack)
        self.placed = {}  # id(value) -> the device spec its operation was made under (values in `named`)
        self.captures = {}  # id(Variable) -> (Variable, its captured handle's name), by first write
        self.given = None  # the ``name=`` a public op function was called with, for its one operation
        # the sub-graphs (branches, loop bodies) being named: (their prefix, the counts they replaced,
        # the name scope open when they began)
        self.scopes = []
        # the graph's nodes in the order they were made (`GraphNode`s: names, types and shapes only,
        # so they keep no traced value alive); a function's `FuncGraph` lists those outside sub-graphs
        self.nodes = []
        self.converted = set()  # ids of values named as an op's converted operand (``add/y``)

    def new_name(self, base):
        """A fresh node name for ``base`` under the current scopes."""
        # deferred: name scopes are built on Tensor, which reads names from here
        from companion._core._scopes import get_current_name_scope

        prefix, scope = "", get_current_name_scope()
        if self.scopes:  # inside a sub-graph: its prefix, then the name scopes opened inside it
            prefix, _, outer = self.scopes[-1]
            scope = scope[len(outer):].lstrip("/") if scope.startswith(outer) else scope
        scope = "/".join(part for part in (prefix, scope) if part)
        return unique_name(self.counts, f"{scope}/{base}" if scope else base)

    def name_outputs(self, base, values, op_type=None, inputs=()):
        """Names ``values``, the outputs of one operation: ``base:0``, ``base:1``, ...; returns the
        operation's node name. The node is logged (`GraphNode`) with TF's ``op_type`` (else the
        type its name implies, `op_type_of`) and its ``inputs`` (Tensors and Variables, which it reads
        through a ``ReadVariableOp`` of their own)."""
        node = self.new_name(base)
        input_names = self._input_names(node, inputs) if inputs else ()
        self.note_node(node, op_type or op_type_of(node), input_names, values)
        device = self.devices[-1] if self.devices else ""
        for index, value in enumerate(values):
            if id(value) not in self.named:
                self.named[id(value)] = (value, f"{node}:{index}")
                if device:
                    self.placed[id(value)] = device
        return node

    @contextlib.contextmanager
    def device_scope(self, device):
        """Ops named inside the block record ``device`` (a device spec, or "" for none)."""
        self.devices.append(device)
        try:
            yield
        finally:
            self.devices.pop()

    def device_of(self, value):
        """The device spec recorded for the named ``value`` ("" for none), or None when unnamed."""
        entry = self.named.get(id(value))
        if entry is None or entry[0] is not value:
            return None
        return self.placed.get(id(value), "")

    def note_node(self, node, op_type, inputs=(), values=()):
        """Logs the node ``node`` of type ``op_type`` with input names ``inputs`` and outputs ``values``."""
        outputs = tuple(_abstract(v) for v in values)
        self.nodes.append(GraphNode(node, op_type, tuple(inputs), outputs, bool(self.scopes)))

    def _input_names(self, node, inputs):
        """The node input names of an operation ``node``'s ``inputs``: a Tensor's graph name (``mul``,
        ``split:1``; a value known while tracing gets a ``Const`` node of its own), a Variable's read
        ``node/ReadVariableOp`` of its captured handle (named after ``node`` on its first use)."""
        names, reads, named = [], 0, self.named
        for position, x in enumerate(inputs):
            if x._is_variable:
                handle = self.capture(x, f"{node}/ReadVariableOp/resource")
                read = f"{node}/ReadVariableOp" + (f"_{reads}" if reads else "")
                reads += 1
                self.note_node(read, "ReadVariableOp", [handle], [x._value])
                names.append(read)
                continue
            value = x._v
            entry = named.get(id(value))
            if entry is not None and entry[0] is value and id(value) not in self.converted:
                name = entry[1]
                names.append(name[:-2] if name.endswith(":0") else name)
                continue
            # TF converts a Python operand under the op's scope, ``add/y``, for each op (companion may
            # share one array between ops: each op still gets its own node)
            const = f"{node}/{_PARAMETERS[position] if len(inputs) <= 2 else 'Const'}"
            self.note_node(const, "Const", (), [value])
            if entry is None or entry[0] is not value:
                named[id(value)] = (value, f"{const}:0")
                self.converted.add(id(value))
            names.append(const)
        return names

    def capture(self, variable, handle):
        """``variable``'s captured handle: ``handle`` (a function input, logged as a ``Placeholder``)
        when this is its first use in the function, else the one its first use named."""
        if id(variable) not in self.captures:
            self.captures[id(variable)] = (variable, handle)
            self.note_node(handle, "Placeholder")
            self.nodes[-1].outputs = (((), "resource"),)
        return self.captures[id(variable)][1]


    def name_of(self, value):
        """``value``'s name; one made now (``Identity``) for a value no operation named."""
        entry = self.named.get(id(value))
        if entry is None or entry[0] is not value:
            self.name_outputs("Identity", [value])
            entry = self.named[id(value)]
        return entry[1]


def active():
    """The `TensorNames` of the innermost trace that keeps names, or None."""
    for trace in reversed(state.traces):
        names = getattr(trace, "tensor_names", None)
        if names is not None:
            return names
    return None


@contextlib.contextmanager
def sub_graph(scope, prefix=None):
    """While a function traces: a block (a branch, a loop body) as a graph of its own, with fresh
    names under ``prefix``, or under ``scope`` made unique (``cond``, ``cond_1``); yields the prefix
    (the other branch of the same ``if`` passes it back)."""
    names = active()
    if names is None:
        yield prefix
        return
    # deferred: name scopes are built on Tensor, which reads names from here
    from companion._core._scopes import get_current_name_scope

    if prefix is None:  # the sub-graph's node in its graph: TF's functional If / While
        prefix = names.new_name(scope)
        names.note_node(prefix, _SUB_GRAPH_TYPES.get(scope, scope))
    names.scopes.append((prefix, names.counts, get_current_name_scope()))
    names.counts = {}
    try:
        yield prefix
    finally:
        names.counts = names.scopes.pop()[1]


def name_sub_graph_outputs(prefix, values, inputs=()):
    """Names ``values``, the outputs of the sub-graph node ``prefix`` (``cond``, ``while``) while a
    function traces: ``prefix:0``, ``prefix:1``... (TF's functional If and While outputs); the node's
    inputs are the named ones among ``inputs`` (stored values: a loop's initial values)."""
    names = active()
    if names is not None and prefix is not None:
        entries = [names.named.get(id(value)) for value in inputs]
        given = tuple(e[1].removesuffix(":0") for e, v in zip(entries, inputs) if e is not None and e[0] is v)
        for index, value in enumerate(values):
            if id(value) not in names.named:
                names.named[id(value)] = (value, f"{prefix}:{index}")
        for node in names.nodes:
            if node.name == prefix:
                node.outputs = tuple(_abstract(v) for v in values)
                node.inputs = given or node.inputs


def name_inputs(base, values):
    """Names the inputs of a sub-graph (``Placeholder``, ``Placeholder_1``, ...)."""
    names = active()
    if names is not None:
        for value in values:
            names.name_outputs(base, [value], "Placeholder")


def name_outputs(op_name, outputs, inputs=()):
    """While a function traces: names the Tensor ``outputs`` of one application of the op ``op_name``
    (and logs its node, reading its ``inputs``: `TensorNames.name_outputs`)."""
    names = active()
    if names is not None:
        base, names.given = names.given or tf_op_name(op_name)[0], None
        op_type = tf_op_name(op_name)[1]
        if op_type == "AddV2" and outputs and _is_text(outputs[0]._v):
            op_type = "Add"  # TF joins strings with the older Add kernel
        names.name_outputs(base, [t._v for t in outputs], op_type, inputs)


def given_name(name):
    """While a function traces: the next operation applied is named ``name`` (a public op function's
    ``name=`` argument, TF's node name: ``tf.add(x, 1, name="plus")`` is ``plus:0``)."""
    if name and state.staging:
        names = active()
        if names is not None:
            names.given = str(name)


def fused_nodes(nodes, next_name=None):
    """While a function traces: ``nodes`` are node names TF's graph makes for what companion computes
    in one op (a Keras loss's per-example ops, say): they become names in use, so the ops after
    them count on (``Sum_1``); the next op applied is named ``next_name`` when given."""
    if state.staging:
        names = active()
        if names is not None:
            for base in nodes:
                names.new_name(base)
            if next_name:
                names.given = next_name


def name_values(op_name, values):
    """`name_outputs` for the outputs' stored values (a string op's `HostString`)."""
    names = active()
    if names is not None:
        names.name_outputs(tf_op_name(op_name)[0], values)


def rename(value, base):
    """Gives ``value`` (an op's output) a node name of its own, ``base`` (TF's ``packed``)."""
    names = active()
    if names is not None:
        old = names.named.pop(id(value), None)
        old_node = old[1].rpartition(":")[0] if old is not None and old[0] is value else None
        node = names.name_outputs(base, [value])
        renamed = [n for n in names.nodes[:-1] if n.name == old_node]
        if renamed:  # the op's node itself takes the new name (TF's ``packed`` is the Pack node)
            made = names.nodes.pop()
            renamed[-1].name = node
            renamed[-1].type = _TYPE_OF_BASE.get(base, renamed[-1].type)
            renamed[-1].outputs = made._outputs


def alias(value, other):
    """Gives ``value`` the name ``other`` already has (TF's ``for i in range``: ``i`` is the loop's
    index placeholder, where companion computes it from the index)."""
    names = active()
    if names is not None:
        names.named[id(value)] = (value, names.name_of(other))


def named(tensor, base):
    """``tensor``, named ``base`` while a function traces (TF's ``zeros``, ``Const``, ``range``)."""
    if state.traces:
        rename(tensor._v, base)
    return tensor


def unique_scope(scope):
    """While a function traces (outside its branches and loop bodies): the name scope ``scope`` made
    unique among the graph's names, as TF's graph opens a scope (``a``, then ``a_1``)."""
    names = active()
    if names is None or names.scopes:
        return scope
    return unique_name(names.counts, scope)


def graph_device(value):
    """The device spec recorded for ``value`` (a Tensor's stored value) in the function being traced
    ("" for none), or None when it has no graph name there."""
    names = active()
    return None if names is None else names.device_of(value)


def graph_name(value):
    """The graph name of ``value`` (a Tensor's stored value) in the function being traced, or None
    when it has none: made outside any trace, or inside one that keeps no names."""
    names = active()
    if names is None:
        return None
    entry = names.named.get(id(value))
    if entry is not None and entry[0] is value:
        return entry[1]
    return None


# TF's ``get_static_value`` in a graph (``tensor_util.constant_value``): a tensor has a value when its
# node is a constant or reads only a static shape, or passes on values that have one
_STATIC_SOURCES = {"Const", "Shape", "Size", "Rank"}
_STATIC_PASSING = {"Range", "Cast", "Concat", "ConcatV2", "Pack", "Unpack", "Split", "Fill", "Equal",
                   "NotEqual", "StopGradient", "Identity", "CheckNumericsV2", "DebugIdentityV2"}


def known_in_graph(value):
    """While a function traces: whether TF's graph knows the value of the tensor whose stored value
    is ``value`` (concrete in companion's trace) by TF's rules; None outside a trace."""
    names = active()
    if names is None:
        return None
    entry = names.named.get(id(value))
    if entry is None or entry[0] is not value:  # made outside the function: a capture
        return True  # made outside the function: an eager tensor, which has its value
    by_name = {node.name: node for node in names.nodes}
    return _node_known(by_name, entry[1].rpartition(":")[0], set())


def _node_known(by_name, name, seen):
    node = by_name.get(name)
    if node is None or name in seen:  # a node companion does not log: its value is what TF computes
        return node is None
    seen.add(name)
    if node.type in _STATIC_SOURCES:
        return True
    if node.type not in _STATIC_PASSING:
        return False
    return all(_node_known(by_name, n.partition(":")[0], seen) for n in node.inputs)
