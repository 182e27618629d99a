"""User functions applied to elements (map, filter, scan, ...): compiled, vectorised, or eager.

TensorFlow traces a dataset function once, when the transformation is made (`ElementFunction.trace`):
its ``print`` calls show then, with the graph's input names ``args_0``, ``args_1``... and the
element spec's shapes, and an error in it raises there. companion makes that trace too, and stages
the function again behind it (per element shape, vectorised, for a second size of a ``None``
dimension): those runs of the Python function are quiet, so what it prints shows once, as in TF.

A function is run through `companion.function` (traced once per input signature,
compiled by XLA, AutoGraph applied). If tracing fails (the function needs concrete values:
``.numpy()``, ``py_function`` without static shapes, string tensors), it runs eagerly from
then on, as ordinary Python. A *pure* function (no Variables, no random ops) can also be
vectorised with ``jax.vmap``: fused pipelines then apply it to a whole batch of elements
in one compiled call. Errors keep their type and traceback and gain a note naming the
transformation and the element index.
"""

import threading

import jax
import numpy as np

from companion._core._callback_errors import reraised
from companion._core._context import flags
from companion._core._dtypes import as_dtype
from companion._core._tensor import Tensor
from companion._core._tensor_names import TensorNames, name_inputs
from companion._ops._host_index_checks import checking_indices
from companion._ops._py_function import recording_static_shapes, running_as_graph_code
from companion._staging import Trace, stage
from companion._staging._concrete_function import SignatureInput
from companion._staging._errors import OperatorNotAllowedInGraphError, asked_by_user_code
from companion._staging._function import function
from companion._staging._quietly import quietly
from companion.autograph import to_graph
from companion.autograph._user_code_errors import recording_user_frames, user_code_error
from companion.data import _ragged, _spec, _structure, _values
from companion.data._node import first_elements, known_spec
from companion.data._symbolic import symbolic_dataset, tracing_dataset_function

_UNSET = object()


class ElementFunction:
    """``func`` applied to elements of a dataset by the transformation ``what`` (e.g. 'map')."""

    def __init__(self, func, what, compile=True):
        if not callable(func):
            raise TypeError(f"Dataset.{what} expects a callable. Received: {func!r} of type "
                            f"{type(func).__name__}.")
        self.func = func
        self.what = what
        # None: undecided; "compiled"; "eager" (always in tf.data's debug mode: `enable_debug_mode`)
        self._mode = None if compile and not flags.data_debug_mode else "eager"
        self._compiled = None
        self._lock = threading.Lock()
        self._vectorized = _UNSET
        self._python = None  # func converted by AutoGraph, made on first use
        self._shown = False  # whether the Python function ran once; later runs are quiet
        self._traced = None  # (argument specs, output spec) of the trace made with the transformation
        self._trace_error = None  # why that trace failed (the function then runs on elements)

    def trace(self, arg_specs):
        """Traces the function on arguments of ``arg_specs`` now, as TensorFlow does when the
        transformation is made: what it prints shows now, and its output spec is kept. A function
        that cannot be traced (it needs concrete values) is left to run on the elements."""
        try:
            self._traced = (arg_specs, _abstract_spec(self._traced_python, _as_traced(arg_specs),
                                                      _input_names(arg_specs)))
        except Exception as error:  # noqa: BLE001 - kept: raised if running on an element fails too
            _raise_if_user_asked_value(error)
            self._trace_error = error
        return None if self._traced is None else self._traced[1]

    def trace_dataset(self, arg_specs):
        """Traces a function that returns a Dataset (``flat_map``, ``interleave``) on arguments of
        ``arg_specs`` now, as TF does: what it prints shows now. Returns the element spec of the
        dataset it returns, or None when the trace failed (see `trace`)."""
        try:
            self._traced = (arg_specs, _returned_dataset_spec(self._traced_python, _as_traced(arg_specs),
                                                              self.what))
        except Exception as error:  # noqa: BLE001 - kept: raised if running on an element fails too
            _raise_if_user_asked_value(error)
            self._trace_error = error
        return None if self._traced is None else self._traced[1]

    def _traced_python(self, *args):
        """The converted Python function, as every trace runs it: quietly after its first run."""
        if self._python is None:
            self._python = recording_user_frames(_converted(self.func))
        with checking_indices():  # TF runs dataset functions on the CPU: a bad index raises
            if self._shown:
                return quietly(lambda: self._python(*args))
            self._shown = True
            return self._python(*args)

    def _eager_python(self, *args):
        """The Python function run on concrete values: quietly after its first run, as traced (in
        debug mode it prints on every element, as TF's eager runs do)."""
        if self._shown and not flags.data_debug_mode:
            return quietly(lambda: self.func(*args))
        self._shown = True
        return self.func(*args)

    # -- calling on one element -----------------------------------------------------------
    def __call__(self, args, index):
        """``func(*args)`` on leaves → the output as a structure of leaves.

        ``args`` is a tuple of positional arguments, each a structure of leaves.
        """
        try:
            return self._run(args)
        except Exception as error:
            error.add_note(f"(companion.data) Raised by the function passed to Dataset.{self.what} on "
                           f"element {index} of its input (counting from 0).")
            raise

    def _run(self, args):
        if self._mode != "eager" and _traceable(args):
            if self._mode is None:
                with self._lock:
                    return self._first_call(args)
            try:
                return _outputs(self._compiled(*_tensors(args)))
            except Exception as error:
                _raise_if_user_asked_value(error)
                self._mode = "eager"
        with running_as_graph_code():
            return _outputs(self._eager_python(*_tensors(args)))

    def _first_call(self, args):
        if self._mode is None:
            compiled = _compile(self._traced_python)
            try:
                result = _outputs(compiled(*_tensors(args))) if compiled is not None else None
            except Exception as error:
                _raise_if_user_asked_value(error)
                result = None
            self._compiled, self._mode = compiled, ("compiled" if result is not None else "eager")
            if result is not None:
                return result
        return self._run(args)

    # -- specs ------------------------------------------------------------------------------
    def output_spec(self, arg_specs, peek):
        """The output spec for arguments of ``arg_specs`` (a tuple), as TensorFlow's tracing reports it.

        Without a trace (the function needs concrete values) the function runs on real inputs:
        ``peek()`` gives the argument tuples of the first (up to two) elements. Dimensions that
        differ between them are None (they depend on the data), and outputs of `py_function` /
        `numpy_function` have an unknown shape unless `ensure_shape` fixed it, as in TF.
        """
        if self._traced is not None and self._traced[0] == arg_specs:
            return self._traced[1]
        if self._traced is None and self._trace_error is None and self.trace(arg_specs) is not None:
            return self._traced[1]
        try:
            spec = self._spec_from_elements(peek, arg_specs)
        except Exception:
            if self.failed_as_tf_would():  # TF's error (in its "in user code:" form): its trace raises it
                raise user_code_error(self._trace_error) from None
            raise
        self._traced = (arg_specs, spec)
        return spec

    def failed_as_tf_would(self):
        """Whether the trace failed for a reason other than needing concrete values (which TF's
        trace would fail for too, where companion falls back to running on elements)."""
        return self._trace_error is not None and not _needs_values(self._trace_error)

    def _spec_from_elements(self, peek, arg_specs):
        inputs = peek()
        if not inputs:
            raise ValueError(f"Cannot infer the element spec of Dataset.{self.what} on an empty "
                             "dataset: its function has to run on an element.") from None
        first = self._eager_spec(inputs[0], arg_specs)
        try:  # a second element shows which dimensions depend on the data
            return _spec.relax(first, self._eager_spec(inputs[1])) if len(inputs) > 1 else first
        except Exception:  # that element fails (an error for iteration to report) or differs
            return first

    def _eager_spec(self, args, arg_specs=None):
        with recording_static_shapes() as noted, running_as_graph_code():
            raw = self._eager_python(*_tensors(args))
        raw = tuple(raw) if isinstance(raw, list) else raw
        spec = _spec.spec_of(_values.normalize(raw))
        batch = None if arg_specs is None else _unknown_batch_size(arg_specs, args)
        leaves = []
        for r, s in zip(_structure.flatten(raw), _structure.flatten(spec)):
            entry = noted.get(id(r))
            if entry is None or entry[0] is not r:
                leaves.append(_without_batch(s, batch))
            elif len(entry) == 3:  # ensure_shape on a tensor of known shape: its known dims are kept
                leaves.append(_asserted(_without_batch(s, batch), entry[1]))
            else:  # a py_function output: TF knows only what ensure_shape asserted
                leaves.append(_spec.TensorSpec(entry[1], s.dtype))
        return _structure.pack(spec, leaves)

    # -- vectorised -------------------------------------------------------------------------
    def vectorized(self, arg_specs):
        """``f(batched args) -> batched output`` running ``func`` with ``jax.vmap``, or None if impure."""
        if flags.data_debug_mode:  # TF's debug mode runs the function element by element
            return None
        if self._vectorized is _UNSET:
            with self._lock:
                if self._vectorized is _UNSET:
                    self._vectorized = _vectorize(self._traced_python, arg_specs)
        return self._vectorized


def _as_traced(arg_specs):
    """The specs a trace gives the function: a row of a ragged tensor (a `RaggedTensorSpec` of
    ragged rank 0) is a dense tensor of unknown length, as TF passes it."""
    def dense(spec):
        if _ragged.is_ragged_spec(spec) and spec.ragged_rank == 0:
            return _spec.TensorSpec(spec.shape, spec.dtype)
        return spec
    return _structure.map_structure(dense, arg_specs)


def _input_names(arg_specs):
    """The names of a trace's inputs, flat: ``args_N``, and for a ragged row TF's conversion op."""
    names, ragged = [], 0
    for index, spec in enumerate(_structure.flatten(arg_specs)):
        if _ragged.is_ragged_spec(spec) and spec.ragged_rank == 0:
            names.append(f"RaggedFromVariant{f'_{ragged}' if ragged else ''}/RaggedTensorFromVariant")
            ragged += 1
        else:
            names.append(f"args_{index}")
    return names


def _unknown_batch_size(arg_specs, args):
    """The batch size of ``args`` when every argument is batched with a None batch dimension in
    ``arg_specs`` (else None): an output of that leading size comes from the batch, and TF's trace
    keeps it None, where running on one element cannot tell."""
    specs = _structure.flatten(arg_specs)
    if not specs or any(not isinstance(s, _spec.TensorSpec) or not s.shape.rank or s.shape[0] is not None
                        for s in specs):
        return None
    values = [getattr(v, "_value", v) for v in _structure.flatten(args)]
    sizes = {int(np.shape(v)[0]) for v in values if np.ndim(v)}
    return sizes.pop() if len(sizes) == 1 else None


def _without_batch(spec, batch):
    if batch is None or not isinstance(spec, _spec.TensorSpec) or not spec.shape.rank:
        return spec
    if spec.shape[0] != batch:
        return spec
    return _spec.TensorSpec([None] + spec.shape.as_list()[1:], spec.dtype)


def _asserted(spec, shape):
    """``spec`` with the dimensions ``shape`` (an `ensure_shape` assertion) knows filled in."""
    if not isinstance(spec, _spec.TensorSpec) or shape is None or shape.rank is None or not spec.shape.rank:
        return spec
    dims = [own if given is None else given for own, given in zip(spec.shape.as_list(), shape.as_list())]
    return _spec.TensorSpec(dims, spec.dtype)


def trace_when_made(fn, input_node, arguments=None):
    """Traces ``fn`` on ``input_node``'s elements as the transformation is made, as TF does.

    ``arguments(spec)`` gives the argument specs (default: an element's, `call_args`). Returns
    the output spec, or None when it is not known yet (the input's spec needs elements, or the
    function needs concrete values). A trace that fails as TF's would (say, ``x + "a"``) raises
    now, unless the function runs on the first element (companion is lenient there).
    """
    arguments = arguments or call_args
    spec = known_spec(input_node)
    if spec is None:
        return None
    specs = arguments(spec)
    result = fn.trace(specs)
    if result is None and fn.failed_as_tf_would():
        result = fn.output_spec(specs, lambda: [arguments(e) for e in first_elements(input_node, 2)])
    return result


def _needs_values(error):
    """Whether ``error`` says a traced value was used as a concrete one (or could not be staged)
    where TF's graph would not need it: the user's own ``x.numpy()`` or ``np.asarray(x)`` fails
    TF's trace too (`asked_by_user_code`), so it is raised, not run on the elements."""
    if asked_by_user_code(error):
        return False
    return isinstance(error, (OperatorNotAllowedInGraphError, NotStageable, jax.errors.JAXTypeError,
                              jax.errors.ConcretizationTypeError, jax.errors.TracerArrayConversionError,
                              jax.errors.TracerBoolConversionError, jax.errors.TracerIntegerConversionError,
                              jax.errors.UnexpectedTracerError, jax.errors.JAXIndexError))


def _raise_if_user_asked_value(error):
    """Raises ``error`` as TF's trace does (its "in user code:" form) when the user's own code asked
    a traced tensor for its value (``x.numpy()``): TF's graph has none, so no element could run it."""
    if asked_by_user_code(error):
        raise user_code_error(error) from None


class NotStageable(TypeError):
    """A dataset function that companion cannot stage as a whole (it runs on elements instead)."""


def call_args(element, unpack=True):
    """The positional arguments tf.data passes for ``element``: a plain tuple is unpacked."""
    return element if unpack and type(element) is tuple else (element,)


def _traceable(args):
    return all(isinstance(leaf, (np.ndarray, jax.Array)) and leaf.dtype != object
               for leaf in _structure.flatten(args))


def _tensors(args):
    return _structure.map_structure(_values.to_tensor, args)


def _outputs(result):
    if isinstance(result, list):  # as tf.data: a returned list is a tuple of components
        result = tuple(result)
    return _values.normalize(result)


def _compile(func):
    return function(func, autograph=False)  # func: `ElementFunction._traced_python`, converted


def _converted(func):
    try:
        return to_graph(func)
    except Exception:
        return func


def _staged(func, arg_structure, avals, pure, shown=None, names=None):
    """``func`` staged once on flat arrays shaped ``avals`` (`companion._staging.stage`):
    ``(Staged, output structure)``. Variables are never leaked. With ``pure``, a function that
    touches a Variable (incl. random ops) is refused; only numeric outputs are accepted.

    As in TF's dataset functions, the inputs are named ``args_0``, ``args_1``... in flat order;
    ``shown`` gives the shapes they report (the element spec's, ``None`` dims included), ``names``
    other names (`_input_names`)."""
    info = {}
    shown = shown or [None] * len(avals)
    names = names or [f"args_{index}" for index in range(len(avals))]

    def run(*arrays):
        inputs = []
        for array, shape, name in zip(arrays, shown, names):
            name_inputs(name, [array])
            inputs.append(Tensor(array) if shape is None else SignatureInput(array, shape))
        out = _outputs(func(*_structure.pack(arg_structure, inputs)))
        leaves = _structure.flatten(out)
        if not _traceable(tuple(leaves)):
            raise NotStageable("not a function of numeric tensors")
        info["structure"] = out
        return [jax.numpy.asarray(leaf) for leaf in leaves]

    trace = Trace(allow_create=False, owner="a Dataset function")
    trace.tensor_names = TensorNames()
    try:
        staged = stage(run, avals, trace)
    finally:
        trace.tensor_names = None  # no traced value outlives the trace
    if pure and (staged.variables or staged.written or trace.created or trace.feed_owner
                 or staged.closed.effects):  # e.g. a py_function: it runs once per element, not per batch
        raise NotStageable("not a pure function of numeric tensors")
    return staged, info["structure"]


def _abstract_spec(func, arg_specs, names=None):
    """Output spec by abstract evaluation (no compile); None dims found by trying two sizes.
    ``func``, as `_vectorize`'s, is `ElementFunction._traced_python` (converted by AutoGraph)."""
    specs = _structure.flatten(arg_specs)
    if not all(_numeric(s) and s.shape.rank is not None for s in specs):
        raise NotStageable("needs numeric tensor specs of known rank")

    def spec_for(avals):
        staged, structure = _staged(func, arg_specs, avals, pure=False, shown=[s.shape for s in specs],
                                    names=names)
        flat = staged.out_avals[:staged.n_out]
        return _structure.pack(structure, [_spec.TensorSpec(a.shape, as_dtype(a.dtype)) for a in flat])

    return _over_two_sizes(specs, spec_for)


def _returned_dataset_spec(func, arg_specs, what):
    """The element spec of the Dataset that ``func`` returns for symbolic arguments of ``arg_specs``
    (tensors named ``args_0``...; window arguments, `DatasetSpec`s, are `symbolic_dataset`s).
    None dims are found by trying two sizes, as in `_abstract_spec`."""
    specs = _structure.flatten(arg_specs)
    tensors = [s for s in specs if not isinstance(s, _spec.DatasetSpec)]
    if not all(_numeric(s) and s.shape.rank is not None for s in tensors):
        raise NotStageable("needs numeric tensor specs of known rank")
    return _over_two_sizes(tensors, lambda avals: _traced_dataset_spec(func, arg_specs, avals, what))


def _over_two_sizes(specs, spec_for):
    """``spec_for(avals)`` for ``specs``' shapes; with ``None`` dims, tried at sizes 2 and 3 and
    relaxed where the two results differ (those dims depend on the input's)."""
    results = []
    for fill in (2, 3):
        avals = [jax.ShapeDtypeStruct(tuple(fill if d is None else d for d in s.shape), s.dtype._np)
                 for s in specs]
        results.append(spec_for(avals))
        if all(s.shape.is_fully_defined() for s in specs):
            return results[0]
    return _spec.relax(results[0], results[1])


def _traced_dataset_spec(func, arg_specs, avals, what):
    """`_returned_dataset_spec` for the tensor arguments' sizes ``avals``."""
    specs = _structure.flatten(arg_specs)
    found = {}

    def run(*arrays):
        arrays, inputs = iter(arrays), []
        for index, s in enumerate(specs):
            if isinstance(s, _spec.DatasetSpec):
                inputs.append(symbolic_dataset(s))
                continue
            array = next(arrays)
            name_inputs(f"args_{index}", [array])
            inputs.append(SignatureInput(array, s.shape))
        found["spec"] = _dataset_element_spec(func(*_structure.pack(arg_specs, inputs)), what)
        return []

    trace = Trace(allow_create=False, owner="a Dataset function")
    trace.tensor_names = TensorNames()
    try:
        with tracing_dataset_function():
            stage(run, avals, trace)
    finally:
        trace.tensor_names = None  # no traced value outlives the trace
    return found["spec"]


def _dataset_element_spec(result, what):
    if not _values.is_dataset(result):
        kind = "tuple" if isinstance(result, list) else type(result).__name__
        kind = "Tensor" if isinstance(result, Tensor) else kind
        raise TypeError(f"The `map_func` argument of Dataset.{what} must return a `Dataset` object. "
                        f"Got a {kind}: {result!r}.")
    spec = known_spec(result._node)
    if spec is None:
        raise NotStageable("the returned dataset's element spec needs its elements")
    return spec


def _vectorize(func, arg_specs):
    specs = _structure.flatten(arg_specs)
    if not all(_numeric(s) and s.shape.is_fully_defined() for s in specs):
        return None
    avals = [jax.ShapeDtypeStruct(tuple(s.shape), s.dtype._np) for s in specs]
    try:  # staged once per element, then the program vmapped over a batch of elements
        staged, structure = _staged(func, arg_specs, avals, pure=True)
        batched = jax.vmap(lambda *arrays: staged.evaluate(arrays))
        jax.eval_shape(batched, *[jax.ShapeDtypeStruct((2, *a.shape), a.dtype) for a in avals])
    except Exception:
        return None
    compiled = jax.jit(batched)

    def apply(batched_args):
        return _structure.pack(structure, reraised(compiled, *_structure.flatten(batched_args)))

    return apply


def _numeric(spec):
    return isinstance(spec, _spec.TensorSpec) and spec.dtype.name != "string"
