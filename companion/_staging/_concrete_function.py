"""`ConcreteFunction`: one traced signature of a `Function`, compiled, with its Variable wiring."""

import jax
import jax.extend.core
import numpy as np

from companion._core import _nest, _tensor_names
from companion._core._callback_errors import reraised
from companion._core._context import state
from companion._core._convert import convert_to_tensor, to_device
from companion._core._device import settle_on_simulated_devices
from companion._core._op import Op
from companion._core._operation import Operation
from companion._core._tensor import Tensor
from companion._core._tensor_spec import TensorSpec
from companion._core._variable_spec import VariableSpec
from companion._staging import is_traced_leaf, stage
from companion._staging._concrete_surface import ConcreteSurface, SymbolicTensor  # noqa: F401 - re-exported
from companion._staging._dataset_specs import dataset_spec, is_dataset
from companion._staging._func_graph import FuncGraph
from companion._staging._input_names import CallNames
from companion._staging._leaked_tensors import check_no_leaked_tensors


def trace_concrete(fn, leaves, treedef, trace, name, shown=None, names=None):
    """Traces ``fn`` on the call ``tree_unflatten(treedef, leaves)`` and compiles the result.

    Tensor leaves become traced inputs; everything else (Python values, Variables) is
    passed as is. Runs the Python function exactly once (`companion._staging.stage`).
    ``shown`` gives, per tensor leaf, the shape its traced input reports (``None``
    dimensions of a shape-generic signature, `companion._staging._shape_generic`); ``names``, the
    call's `CallNames` (its inputs' names, the order it wrote them in).
    """
    positions = [i for i, x in enumerate(leaves) if is_traced_leaf(x)]
    avals = [_abstract(leaves[i]) for i in positions]
    shown = shown or [None] * len(positions)
    info = {}

    names = names or CallNames.unnamed(len(leaves))
    strings = [i for i, x in enumerate(leaves) if isinstance(x, Tensor) and i not in positions]
    variables = [i for i, x in enumerate(leaves) if getattr(x, "_is_variable", False) and x._traced_by_spec]
    graph_names = {}  # leaf index -> its placeholder's name (``x:0``)
    capture_names = {}  # id(Variable) -> its captured handle's name (``mul/ReadVariableOp/resource``)

    def flat_fn(*arrays):
        filled = list(leaves)
        for i, array, shape in zip(positions, arrays, shown):
            filled[i] = Tensor(array) if shape is None else SignatureInput(array, shape)
        # the graph names its inputs in the order the call wrote them: string tensors (passed by
        # value) and Variable arguments (a resource placeholder) are inputs too
        named = set(positions) | set(strings) | set(variables)
        graph = _tensor_names.active()
        for i in names.order:
            if i not in named or graph is None:
                continue
            base = names.leaves[i][1] or "Placeholder"
            if i in variables:
                graph_names[i] = f"{graph.new_name(base)}:0"
                continue
            value = leaves[i]._value if i in strings else filled[i]._value
            _tensor_names.name_inputs(base, [value])
            graph_names[i] = graph.name_of(value)
        args, kwargs = _nest.in_dict_orders(jax.tree_util.tree_unflatten(treedef, filled), names.dict_orders)
        result = fn(*args, **kwargs)
        dynamic = _split_outputs(result, info, fn)
        if graph is not None:  # the captured Variables' handles, named by their first use
            capture_names.update((key, name) for key, (_, name) in graph.captures.items())
            info["nodes"] = graph.nodes + _output_nodes(graph, _nest.tree_flatten(result)[0])
        return dynamic

    staged = stage(flat_fn, avals, trace)
    check_no_leaked_tensors(staged, name)  # a tensor kept from a staged loop: TF's InaccessibleTensorError
    inputs = [TensorSpec(a.shape, a.dtype) for a in avals]
    concrete = ConcreteFunction(name, staged, info, inputs)
    specs = list(leaves)
    for i, aval, shape in zip(positions, avals, shown):
        specs[i] = TensorSpec(aval.shape if shape is None else shape, aval.dtype, names.leaves[i][0])
    aliases = {}  # the Variable arguments traced by spec, in order: a call may pass others
    for i, leaf in enumerate(leaves):
        if getattr(leaf, "_is_variable", False) and leaf._traced_by_spec:
            alias = aliases.setdefault(id(leaf), (len(aliases), leaf))[0]
            specs[i] = VariableSpec.from_value(leaf, alias)
    concrete._arg_variables = [leaf for _, leaf in aliases.values()]
    concrete._arg_datasets = [leaf for leaf in leaves if is_dataset(leaf)]
    for i, leaf in enumerate(leaves):
        if is_dataset(leaf):  # TF's DatasetSpec (a dataset is a tensor there)
            specs[i] = dataset_spec(leaf)
    concrete._signature = (treedef, specs, names.dict_orders)
    # the string tensors, passed by value (`DatasetGenericFunction`), shown as TF's TensorSpecs
    concrete._string_specs = {i: TensorSpec(leaves[i].shape, leaves[i].dtype, names.leaves[i][0])
                              for i in strings}
    concrete._graph_names = graph_names
    concrete._capture_names = capture_names
    concrete._given_names = names.given
    concrete._flat_positional = treedef == jax.tree_util.tree_structure((tuple(positions), {})) \
        and len(positions) == len(leaves)
    return concrete


def _output_nodes(graph, outputs):
    """The ``Identity`` nodes TF's function graph returns its outputs through (``Identity``,
    ``Identity_1``...), each reading the output's tensor (a returned Python value is a constant)."""
    nodes = []
    for leaf in outputs:
        if leaf is None:
            continue
        if getattr(leaf, "_is_variable", False) or not isinstance(leaf, Tensor):
            leaf = leaf if isinstance(leaf, Tensor) else None
        value = leaf._v if leaf is not None else None
        entry = graph.named.get(id(value))
        inputs = () if entry is None or entry[0] is not value else (entry[1].removesuffix(":0"),)
        shape = (tuple(leaf.shape), leaf.dtype.name) if leaf is not None else ((), "float32")
        index = len(nodes)
        nodes.append(_tensor_names.GraphNode(f"Identity_{index}" if index else "Identity", "Identity",
                                             inputs, (shape,)))
    return nodes


class SignatureInput(Tensor):
    """A traced input of a shape-generic signature: reports the signature's shape (``None`` dims).

    Python code that reads ``x.shape`` while tracing sees what TensorFlow shows, ``(None, 2)``,
    whatever concrete size this particular specialisation was staged for.
    """

    __slots__ = ("_shown",)

    def __init__(self, value, shown):
        super().__init__(value)
        self._shown = shown

    @property
    def shape(self):
        return self._shown


class ConcreteFunction(ConcreteSurface):
    """A traced, compiled signature of a `companion.function`.

    Calling it runs the compiled program on the current values of the Variables the
    trace read, then writes back the Variables it assigned. ``graph`` shows the traced
    program (a jaxpr); ``inputs``/``outputs`` describe its tensors.
    """

    def __init__(self, name, staged, info, inputs):
        self.name = name
        self._staged = staged
        closed = staged.closed
        self._jaxpr = closed.jaxpr
        owners = staged.owners
        self._feed_slots = staged.feed_slots
        self.variables = staged.variables
        self._written = staged.written
        self._out_tree = info["tree"]
        self._out_orders = info["orders"]
        self._out_slots = info["slots"]
        self._input_specs = inputs
        self._output_specs = [TensorSpec(v.shape, v.dtype) for v in self._jaxpr.outvars[:info["n_dynamic"]]
                        for v in [v.aval]]
        self.graph = FuncGraph(name, closed, owners, info.get("nodes", ()), self)
        self._quiet = _without_prints(self._jaxpr)
        self._op = Op(f"function:{name}", self._replay)  # a tape's replay must not print again
        # jit a closure of its own, not the bound method: JAX keys a bound method's caches on its
        # function and instance, and a collected ConcreteFunction's address can be reused
        self._op._eager = jax.jit(lambda *arrays: self._run(*arrays))
        self._n_user = info["n_dynamic"]
        self._single = (len(self._out_slots) == 1 and getattr(self._out_slots[0], "plain", False)
                        and self._out_tree == jax.tree_util.tree_structure(0))
        # a program that prints: a call returns only after its prints ran, as a tf.function call does
        self._prints = any("Debug" in type(effect).__name__ for effect in self._jaxpr.effects)
        # a recorded call with effects (prints, summaries, host callbacks) runs at once: deferred,
        # they would come late, and a fused batch runs the quiet replay (`_deferred`)
        self._op.deferrable = not self._jaxpr.effects
        self._plain = self._single and not self.variables and not self._feed_slots \
            and not self._written and not self._prints
        self._arg_variables = []  # the Variable arguments it was traced with (see `trace_concrete`)
        self._flat_positional = False  # its parameters are one tensor each (see `trace_concrete`)
        self._arg_datasets = []
        self._graph_names = {}
        self._string_specs = {}

    def _replay(self, *arrays):
        return self._run(*arrays, jaxpr=self._quiet)

    def _run(self, *arrays, jaxpr=None):
        n_args, n_vars = len(self._input_specs), len(self.variables)
        return tuple(self._staged.evaluate(arrays[:n_args], arrays[n_args:n_args + n_vars],
                                           arrays[n_args + n_vars:], jaxpr=jaxpr))

    def call(self, flat_args, variables=None, datasets=None):
        """Runs the program on tensor arguments (in signature order); returns the outputs.

        ``variables``: the call's Variable arguments (distinct, in order), when they may be others
        than those it was traced with; the program then reads and writes them in their place.
        ``datasets``: the call's datasets, which must be those it was staged with (a
        `DatasetGenericFunction` stages one per dataset).
        """
        if datasets is not None and any(a is not b for a, b in zip(datasets, self._arg_datasets)):
            raise ValueError(f"This concrete function of {self.name!r} reads the dataset it was traced "
                             "with; call the function itself (or its get_concrete_function()) to pass "
                             "another.")
        if self._plain and not state.tapes:  # one output, no Variables, no datasets read
            return Tensor(settle_on_simulated_devices(reraised(self._op._eager,
                *[a._value if type(a) is Tensor else convert_to_tensor(a)._value for a in flat_args]))[0])
        reads, writes = self.variables, self._written
        if variables is not None and any(a is not b for a, b in zip(variables, self._arg_variables)):
            reads, writes = self._rebound(variables)
        if state.tapes:
            outputs, written = self._call_recorded(flat_args, reads)
        else:
            values = [a._value if type(a) is Tensor else convert_to_tensor(a)._value for a in flat_args]
            if reads:
                values += [v._value for v in reads]
            if self._feed_slots:
                values += [t._value for t in self._feed_values()]
            raw = settle_on_simulated_devices(reraised(self._op._eager, *values))
            n_user = self._n_user
            outputs, written = [Tensor(o) for o in raw[:n_user]], raw[n_user:]
        for var, value in zip(writes, written):
            var._set_value(value)
        if self._prints:
            jax.effects_barrier()  # JAX dispatches asynchronously; wait for the program's prints
        return outputs[0] if self._single else self._pack(outputs)

    def _rebound(self, variables):
        """The Variables the program reads and writes when a call passes ``variables`` for the
        Variable arguments it was traced with (TF: the same resource however it was reached, so a
        Variable the function also reads as a global is the argument's stand-in too)."""
        swap = {id(traced): given for traced, given in zip(self._arg_variables, variables)}
        return ([swap.get(id(v), v) for v in self.variables], [swap.get(id(v), v) for v in self._written])

    def _call_recorded(self, flat_args, reads):
        """The call as one recorded op, so a tape differentiates through it."""
        tensors = [a if isinstance(a, Tensor) else convert_to_tensor(a) for a in flat_args]
        inputs = tuple(tensors) + tuple(reads) + tuple(self._feed_values())
        outputs = reraised(self._op.apply, inputs, {})
        return outputs[:self._n_user], [o._value for o in outputs[self._n_user:]]

    def _feed_values(self):
        """Fresh arrays from each dataset looped over in the function (one pass per call)."""
        passes = {}
        values = []
        for _, (feed, index) in self._feed_slots:
            if id(feed) not in passes:
                passes[id(feed)] = feed.read()
            values.append(Tensor(to_device(passes[id(feed)][index])))  # a transfer, no program
        return values

    def _pack(self, dynamic):
        leaves = [slot(dynamic) for slot in self._out_slots]
        return _nest.in_dict_orders(jax.tree_util.tree_unflatten(self._out_tree, leaves), self._out_orders)

    @property
    def structured_input_signature(self):
        """``(args, kwargs)`` as bound when traced, each tensor a `TensorSpec` named by its parameter."""
        treedef, specs, orders = self._signature
        specs = [self._string_specs.get(i, spec) for i, spec in enumerate(specs)]
        return _nest.in_dict_orders(jax.tree_util.tree_unflatten(treedef, specs), orders)

    def _program(self):
        return self

    def _repr_html_(self):
        """In Jupyter: the signature, then the traced program (see `FuncGraph`)."""
        return self.graph._page(self.pretty_signature())


# -- the program without its companion.print callbacks (for gradient replays) -----------------

def _without_prints(jaxpr):
    """``jaxpr`` with every debug callback removed, also inside conds and loops."""
    try:
        return _strip(jaxpr)
    except Exception:  # noqa: BLE001 - an unexpected jaxpr shape: replay with the prints
        return jaxpr


def _strip(jaxpr):
    eqns = []
    for eqn in jaxpr.eqns:
        if eqn.primitive.name == "debug_callback":
            continue
        params = {key: _strip_param(value) for key, value in eqn.params.items()}
        eqns.append(eqn.replace(params=params, effects=_kept(eqn.effects)))
    effects = set()
    for eqn in eqns:
        effects |= set(eqn.effects)
    return jaxpr.replace(eqns=eqns, effects=effects)


def _strip_param(value):
    if isinstance(value, jax.extend.core.ClosedJaxpr):
        return value.replace(jaxpr=_strip(value.jaxpr))
    if isinstance(value, jax.extend.core.Jaxpr):
        return _strip(value)
    if isinstance(value, tuple):
        items = tuple(_strip_param(v) for v in value)
        return type(value)(*items) if hasattr(value, "_fields") else items  # keep NamedTuples
    return value


def _kept(effects):
    return {e for e in effects if "Debug" not in type(e).__name__}


# -- outputs: traced tensors become program outputs, everything else is rebuilt each call --

def _split_outputs(result, info, fn=None):
    leaves, tree = _nest.tree_flatten(result)
    dynamic, slots = [], []
    for leaf in leaves:
        if isinstance(leaf, Operation) or not _returnable(leaf):
            raise TypeError(
                "To be compatible with tf.function, Python functions must return zero or more Tensors "
                f"or ExtensionTypes or None values; in compilation of {_python_function(fn)}, found return "
                f"value of type {type(leaf).__name__}, which is not a Tensor or ExtensionType.")
        slot, arrays = _output_slot(leaf, len(dynamic))
        dynamic.extend(arrays)
        slots.append(slot)
    info.update(tree=tree, slots=slots, n_dynamic=len(dynamic), orders=_nest.dict_orders(result))
    return dynamic


def _returnable(leaf):
    """Whether a function may return ``leaf``: a tensor, a Variable, None or a value TF converts."""
    if leaf is None or isinstance(leaf, Tensor) or getattr(leaf, "_is_variable", False):
        return True
    if getattr(type(leaf), "_is_ragged", False):
        return True
    if hasattr(leaf, "_choose_from") or getattr(type(leaf), "_is_host_value", False):
        return True
    try:
        convert_to_tensor(leaf)
    except (TypeError, ValueError):
        return False
    return True


def _python_function(fn):
    """The Python function a staged callable wraps, as TF names it (``<function f at 0x...>``)."""
    fn = getattr(fn, "_python_source", fn)
    return repr(getattr(fn, "__func__", fn))


def _output_slot(leaf, start):
    if getattr(leaf, "_is_variable", False):
        leaf = leaf._read()
    if hasattr(leaf, "_choose_from"):  # a Python value chosen by a traced condition
        options = leaf._choose_from
        return (lambda out: _pick(out[start], options)), [leaf._index]
    if getattr(type(leaf), "_is_host_value", False):  # a string whose text the host builds from outputs
        count = len(leaf._arrays)
        return (lambda out: Tensor(leaf.value_from([np.asarray(o) for o in out[start:start + count]]))), \
            list(leaf._arrays)
    if isinstance(leaf, Tensor) and leaf._value.__class__ is not np.ndarray:
        return _tensor_slot(start), [leaf._value]
    if leaf is None:
        return (lambda out: None), []
    if getattr(type(leaf), "_is_ragged", False):  # the row partition is static: only the values flow
        values = leaf.flat_values
        if isinstance(values, Tensor) and values._value.__class__ is not np.ndarray:
            return (lambda out: leaf.with_flat_values(Tensor(out[start]))), [values._value]
        return (lambda out: leaf), []
    constant = leaf if isinstance(leaf, Tensor) else convert_to_tensor(leaf)
    return (lambda out: constant), []


def _tensor_slot(start):
    def slot(out):
        return out[start]

    slot.plain = True
    slot.start = start
    return slot


def _pick(index_tensor, options):
    return convert_to_tensor(options[int(index_tensor)])



def _abstract(x):
    if isinstance(x, TensorSpec):
        return x._abstract()
    value = x._value if isinstance(x, Tensor) else x
    return jax.ShapeDtypeStruct(value.shape, value.dtype)
