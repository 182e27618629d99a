"""What a traced signature shows and how it is called, as TF 2.21's ConcreteFunction: ``inputs``,
``outputs``, ``structured_outputs``, ``output_shapes``/``output_dtypes``, ``captured_inputs``,
``function_type``; calls by the structured or the flat signature (`_concrete_call`).
"""

import jax

from companion._core import _dtypes, _nest
from companion._core._convert import convert_to_tensor
from companion._core._errors import InvalidArgumentError
from companion._core._shape import TensorShape
from companion._core._tensor import Tensor
from companion._core._tensor_names import unique_name
from companion._core._tensor_spec import TensorSpec
from companion._core._variable_spec import VariableSpec
from companion._staging._concrete_call import bind_call, flat_inputs
from companion._staging._function_type import function_type
from companion._staging._signature_text import signature_block, signature_line


class SymbolicTensor:
    """A tensor of a traced program as TF shows one: ``Tensor("Identity:0", shape=(None, 2), dtype=float32)``
    (TF's function graph returns output ``i`` through the node ``Identity_i``; its inputs are
    placeholders named after the parameters, ``x:0``)."""

    def __init__(self, spec, index=0, name=None):
        self.shape = TensorShape(spec.shape)
        self.dtype = _dtypes.as_dtype(spec.dtype)
        self.name = name or (f"Identity_{index}:0" if index else "Identity:0")

    def __str__(self):
        return f'Tensor("{self.name}", shape={self.shape}, dtype={self.dtype.name})'

    def __repr__(self):
        return f"<companion.Tensor '{self.name}' shape={self.shape} dtype={self.dtype.name}>"


class ResourceInput:
    """The placeholder of a Variable argument (TF passes its resource handle): ``<tf.Tensor 'v:0'
    shape=() dtype=resource>``. companion has no resource dtype: ``dtype`` is the Variable's."""

    def __init__(self, spec, name):
        self.shape = TensorShape([])
        self.dtype = spec.dtype
        self.name = name

    def __str__(self):
        return f'Tensor("{self.name}", shape=(), dtype=resource)'

    def __repr__(self):
        return f"<companion.Tensor '{self.name}' shape=() dtype=resource>"


class ConcreteSurface:
    """What a `ConcreteFunction` (and a `ShapeGenericFunction`) shows and how it is called, as in TF:
    ``inputs``, ``outputs``, ``structured_outputs``, ``output_shapes``, ``output_dtypes``,
    ``captured_inputs``, ``function_type``, and calls by the structured or the flat signature."""

    def pretty_signature(self):
        """companion's one line: ``f(arg0: float32[None, 3]) -> (float32[None])``."""
        args = ", ".join(f"arg{i}: {spec_text(s)}" for i, s in enumerate(self._input_specs))
        outs = ", ".join(spec_text(s) for s in self._output_specs)
        return f"{self.name}({args}) -> ({outs})"

    def pretty_printed_signature(self, verbose=True):
        """TF's text: the input parameters, output type and captures (`_signature_text`); with
        ``verbose=False``, the one line of ``repr``."""
        return signature_block(self) if verbose else signature_line(self)

    def __str__(self):
        return f"ConcreteFunction {signature_block(self)}"

    def __repr__(self):
        return f"<ConcreteFunction {signature_line(self)} at 0x{id(self):X}>"

    def __call__(self, *args, **kwargs):
        if not kwargs and self._flat_positional and len(args) == len(self._input_specs):
            return self.call(checked_arguments(self.name, self._input_specs, args))  # f(x, y) of tensors
        flat, variables, datasets = bind_call(self, args, kwargs, checked_arguments)
        return self.call(flat, variables, datasets)

    @property
    def inputs(self):
        """The graph's inputs: its argument placeholders in flat order (``x:0``, ``d_1:0``), then the
        handles of the Variables it captures (``mul/ReadVariableOp/resource:0``)."""
        shown, by_leaf = [], {i: (spec, name) for i, spec, name in flat_inputs(self)}
        graph_names = getattr(self, "_graph_names", {})
        for i, spec in getattr(self, "_string_specs", {}).items():  # strings are passed by value
            by_leaf[i] = (spec, graph_names.get(i, "Placeholder:0").rsplit(":", 1)[0])
        for i in sorted(by_leaf):
            spec, name = by_leaf[i]
            if isinstance(spec, VariableSpec):
                shown.append(ResourceInput(spec, f"{name}:0"))
            else:
                shown.append(SymbolicTensor(spec, name=f"{name}:0"))
        captured = getattr(self, "_capture_names", {})
        unnamed = {}
        for variable in self.captured_inputs:  # then the captured Variables' handles, as TF's graph
            name = captured.get(id(variable))
            if name is None:  # read outside an op (``v.numpy()``, ``tf.print(v)``): a read of its own
                name = unique_name(unnamed, "ReadVariableOp") + "/resource"
            shown.append(ResourceInput(variable, f"{name}:0"))
        return shown

    @property
    def outputs(self):
        """The graph's outputs, ``Identity:0``, ``Identity_1:0``... in flat order."""
        return _nest.flatten(self.structured_outputs)

    @property
    def structured_outputs(self):
        """The outputs' structure, each tensor a symbolic tensor of the traced program, numbered in
        flat order as TF's outputs are (a returned Python number is an output tensor too)."""
        program = self._program()
        specs = self._output_specs
        leaves, index = [], 0
        for slot in program._out_slots:
            value = _shown_output(program, slot, specs, index)
            index += value is not None
            leaves.append(value)
        structure = jax.tree_util.tree_unflatten(program._out_tree, leaves)
        return _nest.in_dict_orders(structure, program._out_orders)

    @property
    def output_shapes(self):
        return _nest.map_structure(lambda t: t.shape, self.structured_outputs)

    @property
    def output_dtypes(self):
        return _nest.map_structure(lambda t: t.dtype, self.structured_outputs)

    @property
    def captured_inputs(self):
        """The Variables the program reads or writes that no argument passes, in the order the
        function first used them (TF: their resource handles)."""
        arguments = {id(v) for v in self._arg_variables}
        touched = {}
        for v in [*self.variables, *getattr(self, "_written", ())]:
            if id(v) not in arguments and not v._is_rng_state:
                touched.setdefault(id(v), v)
        order = list(getattr(self, "_capture_names", {}))
        rank = {key: i for i, key in enumerate(order)}
        return sorted(touched.values(), key=lambda v: rank.get(id(v), len(order)))

    @property
    def trainable_variables(self):
        return [v for v in self.variables if v.trainable and not v._is_rng_state]

    @property
    def function_type(self):
        """The traced signature, an ``inspect.Signature``: ``(x: TensorSpec(...), n: Literal[3]) -> ...``."""
        return function_type(self)


def _shown_output(program, slot, specs, index):
    if getattr(slot, "plain", False):
        return SymbolicTensor(specs[slot.start], index)
    try:
        value = slot([None] * program._n_user)  # a Python constant, returned as a tensor
    except (TypeError, ValueError):
        return None  # a Python value chosen by a traced condition: known only per call
    if isinstance(value, Tensor):
        return SymbolicTensor(TensorSpec(value.shape, value.dtype), index)
    return value


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
            want, got = (_dtypes.kernel_name(d) for d in (spec.dtype, tensor.dtype))
            raise InvalidArgumentError(f"cannot compute {name} as input #{index}(zero-based) was expected "
                                       f"to be a {want} tensor but is a {got} tensor. Cast it first, e.g. "
                                       f"companion.cast(x, companion.{spec.dtype.name}).")
        tensors.append(tensor)
    return tensors


class StagedAgain(ConcreteSurface):
    """A concrete function that is one counted trace (``_first``) and programs staged again behind
    it, silently (`ShapeGenericFunction` per shape, `DatasetGenericFunction` per dataset or string
    value): it shows the counted trace's graph, Variables and signature."""

    @property
    def graph(self):
        return self._first.graph

    @property
    def variables(self):
        return self._first.variables

    @property
    def structured_input_signature(self):
        return self._first.structured_input_signature

    def _program(self):
        return self._first

    def __getattr__(self, name):  # the program's internals (_signature, _run, _feed_slots): the first's
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self._first, name)


def spec_text(spec):
    """A spec in companion's one-line signature: ``float32[None, 3]``."""
    if spec.shape.rank is None:
        return f"{_dtypes.as_dtype(spec.dtype).name}[...]"
    dims = ", ".join("None" if d is None else str(d) for d in spec.shape)
    return f"{_dtypes.as_dtype(spec.dtype).name}[{dims}]"
