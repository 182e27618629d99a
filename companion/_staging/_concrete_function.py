"""`ConcreteFunction`: one traced signature of a `Function`, compiled, with its Variable wiring."""

import jax
import jax.extend.core
import jax.numpy as jnp
import numpy as np

from companion._core import _dtypes, _nest, _tensor_names
from companion._core._callback_errors import reraised
from companion._core._context import state
from companion._core._convert import convert_to_tensor
from companion._core._device import settle_on_simulated_devices
from companion._core._errors import InvalidArgumentError
from companion._core._op import Op
from companion._core._shape import TensorShape
from companion._core._tensor import Tensor
from companion._core._tensor_spec import TensorSpec
from companion._html import program
from companion._staging import is_traced_leaf, stage
from companion._staging._leaked_tensors import check_no_leaked_tensors
from companion._staging._program_text import legend, program_text
from companion._staging._signature_text import signature_block, signature_line


def trace_concrete(fn, leaves, treedef, trace, name, shown=None, names=None):
    """Traces ``fn`` on the call ``tree_unflatten(treedef, leaves)`` and compiles the result.

    Tensor leaves become traced inputs; everything else (Python values, Variables) is
    passed as is. Runs the Python function exactly once (`companion._staging.stage`).
    ``shown`` gives, per tensor leaf, the shape its traced input reports (``None``
    dimensions of a shape-generic signature, `companion._staging._shape_generic`); ``names``, per
    leaf, the parameter it binds (the names in ``structured_input_signature``).
    """
    positions = [i for i, x in enumerate(leaves) if is_traced_leaf(x)]
    avals = [_abstract(leaves[i]) for i in positions]
    shown = shown or [None] * len(positions)
    info = {}

    names = names or [(None, None)] * len(leaves)
    strings = [i for i, x in enumerate(leaves) if isinstance(x, Tensor) and i not in positions]

    def flat_fn(*arrays):
        filled = list(leaves)
        for i, array, shape in zip(positions, arrays, shown):
            filled[i] = Tensor(array) if shape is None else SignatureInput(array, shape)
            _tensor_names.name_inputs(names[i][1] or "Placeholder", [array])
        for i in strings:  # string tensors, passed by value, are the graph's inputs too
            _tensor_names.name_inputs(names[i][1] or "Placeholder", [leaves[i]._value])
        args, kwargs = jax.tree_util.tree_unflatten(treedef, filled)
        return _split_outputs(fn(*args, **kwargs), info)

    staged = stage(flat_fn, avals, trace)
    check_no_leaked_tensors(staged, name)  # a tensor kept from a staged loop: TF's InaccessibleTensorError
    inputs = [TensorSpec(a.shape, a.dtype) for a in avals]
    concrete = ConcreteFunction(name, staged, info, inputs)
    specs = list(leaves)
    for i, aval, shape in zip(positions, avals, shown):
        specs[i] = TensorSpec(aval.shape if shape is None else shape, aval.dtype, names[i][0])
    concrete._signature = (treedef, specs)
    return concrete


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


class ConcreteFunction:
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
        self.inputs = inputs
        self.outputs = [TensorSpec(v.shape, v.dtype) for v in self._jaxpr.outvars[:info["n_dynamic"]]
                        for v in [v.aval]]
        self.graph = _Graph(name, closed, self.inputs, self.outputs, owners)
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

    def _replay(self, *arrays):
        return self._run(*arrays, jaxpr=self._quiet)

    def _run(self, *arrays, jaxpr=None):
        n_args, n_vars = len(self.inputs), len(self.variables)
        return tuple(self._staged.evaluate(arrays[:n_args], arrays[n_args:n_args + n_vars],
                                           arrays[n_args + n_vars:], jaxpr=jaxpr))

    def call(self, flat_args):
        """Runs the program on tensor arguments (in signature order); returns the outputs."""
        if self._plain and not state.tapes:  # one output, no Variables, no datasets
            return Tensor(settle_on_simulated_devices(reraised(self._op._eager,
                *[a._value if type(a) is Tensor else convert_to_tensor(a)._value for a in flat_args]))[0])
        if state.tapes:
            outputs, written = self._call_recorded(flat_args)
        else:
            values = [a._value if type(a) is Tensor else convert_to_tensor(a)._value for a in flat_args]
            if self.variables:
                values += [v._value for v in self.variables]
            if self._feed_slots:
                values += [t._value for t in self._feed_values()]
            raw = settle_on_simulated_devices(reraised(self._op._eager, *values))
            n_user = self._n_user
            outputs, written = [Tensor(o) for o in raw[:n_user]], raw[n_user:]
        for var, value in zip(self._written, written):
            var._set_value(value)
        if self._prints:
            jax.effects_barrier()  # JAX dispatches asynchronously; wait for the program's prints
        return outputs[0] if self._single else self._pack(outputs)

    def _call_recorded(self, flat_args):
        """The call as one recorded op, so a tape differentiates through it."""
        tensors = [a if isinstance(a, Tensor) else convert_to_tensor(a) for a in flat_args]
        inputs = tuple(tensors) + tuple(self.variables) + tuple(self._feed_values())
        outputs = reraised(self._op.apply, inputs, {})
        return outputs[:self._n_user], [o._value for o in outputs[self._n_user:]]

    def __call__(self, *args):
        return self.call(checked_arguments(self.name, self.inputs, args))

    def _feed_values(self):
        """Fresh arrays from each dataset looped over in the function (one pass per call)."""
        passes = {}
        values = []
        for _, (feed, index) in self._feed_slots:
            if id(feed) not in passes:
                passes[id(feed)] = feed.read()
            values.append(Tensor(jnp.asarray(passes[id(feed)][index])))
        return values

    def _pack(self, dynamic):
        leaves = [slot(dynamic) for slot in self._out_slots]
        return _nest.in_dict_orders(jax.tree_util.tree_unflatten(self._out_tree, leaves), self._out_orders)

    @property
    def structured_input_signature(self):
        """``(args, kwargs)`` as bound when traced, each tensor a `TensorSpec` named by its parameter."""
        treedef, specs = self._signature
        return jax.tree_util.tree_unflatten(treedef, specs)

    @property
    def structured_outputs(self):
        """The outputs' structure, each tensor a symbolic tensor of the traced program."""
        leaves = [self._structured(s) for s in self._out_slots]
        structure = jax.tree_util.tree_unflatten(self._out_tree, leaves)
        return _nest.in_dict_orders(structure, self._out_orders)

    def _structured(self, slot):
        if getattr(slot, "plain", False):
            return SymbolicTensor(self.outputs[slot.start], slot.start)
        try:
            return slot([None] * self._n_user)  # a Python constant returned as is
        except (TypeError, ValueError):
            return None  # a Python value chosen by a traced condition: known only per call

    def pretty_signature(self):
        """companion's one line: ``f(arg0: float32[None, 3]) -> (float32[None])``."""
        args = ", ".join(f"arg{i}: {_spec_text(s)}" for i, s in enumerate(self.inputs))
        outs = ", ".join(_spec_text(s) for s in self.outputs)
        return f"{self.name}({args}) -> ({outs})"

    def pretty_printed_signature(self, verbose=True):
        """TF's text: the input parameters, output type and captures (`_signature_text`)."""
        return signature_block(self)

    def __str__(self):
        return f"ConcreteFunction {signature_block(self)}"

    def __repr__(self):
        return f"<ConcreteFunction {signature_line(self)} at 0x{id(self):X}>"

    def _repr_html_(self):
        """In Jupyter: the signature, then the traced program (see `_Graph`)."""
        return self.graph._page(self.pretty_signature())


class _Graph:
    """The traced program of a ConcreteFunction; prints as a readable jaxpr.

    ``as_text()`` shows Variable reads as ``read_variable`` and `companion.print` calls as
    ``companion.print`` (`companion._staging._program_text`); ``jaxpr`` is the program as JAX has it.
    """

    def __init__(self, name, closed, inputs, outputs, owners):
        self.name = name
        self.inputs = inputs
        self.outputs = outputs
        self.jaxpr = closed
        self._owners = owners

    def as_text(self):
        return program_text(self.jaxpr, self._owners)

    def operations(self):
        """The names of the primitive operations of the traced program, in order."""
        return [eqn.primitive.name for eqn in self.jaxpr.jaxpr.eqns]

    def __str__(self):
        return self.as_text()

    def __repr__(self):
        return f"<companion function graph {self.name!r}: {len(self.jaxpr.jaxpr.eqns)} operations>"

    def _repr_html_(self):
        """In Jupyter: the traced program (a jaxpr), inputs first, outputs last."""
        return self._page(repr(self))

    def _page(self, caption):
        text = self.as_text()
        return program(caption, legend(text, self.jaxpr, self._owners), text)


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

def _split_outputs(result, info):
    leaves, tree = _nest.tree_flatten(result)
    dynamic, slots = [], []
    for leaf in leaves:
        slot, arrays = _output_slot(leaf, len(dynamic))
        dynamic.extend(arrays)
        slots.append(slot)
    info.update(tree=tree, slots=slots, n_dynamic=len(dynamic), orders=_nest.dict_orders(result))
    return dynamic


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
    constant = leaf if isinstance(leaf, Tensor) else convert_to_tensor(leaf)
    return (lambda out: constant), []


def _tensor_slot(start):
    def slot(out):
        return out[start]

    slot.plain = True
    slot.start = start
    return slot


_TF_TYPE_NAMES = {"float32": "float", "float64": "double", "float16": "half"}  # TF's DataType names


def checked_arguments(name, inputs, args):
    """A concrete function's call arguments as tensors of its input ``inputs`` (TensorSpecs), as TF
    checks them: their number (TypeError) and dtypes (InvalidArgumentError); shapes are not checked
    there, and Python values convert to the spec's dtype."""
    if len(args) != len(inputs):
        problem = ("too many positional arguments" if len(args) > len(inputs)
                   else "missing a required argument")
        raise TypeError(f"Binding inputs to tf.function failed due to `{problem}`. The concrete function "
                        f"{name} takes {len(inputs)} tensor argument(s) ({', '.join(map(str, inputs))}); "
                        f"received {len(args)}.")
    tensors = []
    for index, (arg, spec) in enumerate(zip(args, inputs)):
        tensor = arg if isinstance(arg, Tensor) else convert_to_tensor(arg, dtype=spec.dtype)
        if tensor.dtype != spec.dtype:
            want, got = (_TF_TYPE_NAMES.get(d.name, d.name) for d in (spec.dtype, tensor.dtype))
            raise InvalidArgumentError(f"cannot compute {name} as input #{index}(zero-based) was expected "
                                       f"to be a {want} tensor but is a {got} tensor. Cast it first, e.g. "
                                       f"companion.cast(x, companion.{spec.dtype.name}).")
        tensors.append(tensor)
    return tensors


class SymbolicTensor:
    """An output of a traced program as TF shows one: ``Tensor("Identity:0", shape=(None, 2), dtype=float32)``
    (TF's function graph returns output ``i`` through the node ``Identity_i``)."""

    def __init__(self, spec, index=0):
        self.shape = TensorShape(spec.shape)
        self.dtype = _dtypes.as_dtype(spec.dtype)
        self.name = f"Identity_{index}:0" if index else "Identity:0"

    def __str__(self):
        return f'Tensor("{self.name}", shape={self.shape}, dtype={self.dtype.name})'

    def __repr__(self):
        return f"<companion.Tensor '{self.name}' shape={self.shape} dtype={self.dtype.name}>"


def _pick(index_tensor, options):
    return convert_to_tensor(options[int(index_tensor)])



def _abstract(x):
    if isinstance(x, TensorSpec):
        return x._abstract()
    value = x._value if isinstance(x, Tensor) else x
    return jax.ShapeDtypeStruct(value.shape, value.dtype)


def _spec_text(spec):
    if spec.shape.rank is None:
        return f"{_dtypes.as_dtype(spec.dtype).name}[...]"
    dims = ", ".join("None" if d is None else str(d) for d in spec.shape)
    return f"{_dtypes.as_dtype(spec.dtype).name}[{dims}]"
