"""Staged loops: ``while`` on a traced test and ``for`` over tensors and ranges, via ``lax.while_loop``.

The loop body is traced once (its Python runs once, as in TensorFlow); the loop's state is
the locals it modifies plus the companion Variables it assigns, all carried through the
compiled loop. ``for`` over a range or a tensor becomes a while loop on a hidden index, so
the program is compiled once whatever the number of iterations.
"""

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from companion._core import _tensor_names
from companion._core._context import state
from companion._core._convert import as_input, convert_to_tensor
from companion._core._errors import RuntimeCheckError
from companion._core._shape import TensorShape
from companion._core._tensor import Tensor
from companion._ops import _math
from companion._ops._debugging import run_check
from companion._staging import _tensor_array as tensor_array
from companion.autograph import _state
from companion.autograph._blocks import trace_block, values_of
from companion.autograph._loop_op import apply_recorded, loop_function, tapes_paused
from companion.autograph._state import Undefined, is_traced


class TracedRange:
    """``range(...)`` with tensor bounds (or `companion.range` inside a function): iterated in-graph."""

    def __init__(self, start, limit, delta):
        self.start, self.limit, self.delta = (as_input(b) for b in (start, limit, delta))
        dtypes = {b.dtype for b in (self.start, self.limit, self.delta)}
        if len(dtypes) != 1 or not next(iter(dtypes)).is_integer:
            raise TypeError(f"{_state.where()}range() over tensors needs integer bounds of one dtype. "
                            f"Received dtypes {sorted(d.name for d in dtypes)}: cast them to int32.")

    @property
    def dtype(self):
        return self.start.dtype

    @property
    def shape(self):
        return TensorShape([None])  # known only when the function runs, as TF's graph shows it

    def __str__(self):
        return f"companion.Tensor(traced range, shape=(None,), dtype={self.dtype.name})"

    __repr__ = __str__

    def static_length(self):
        """The number of items when every bound is known while tracing, else None."""
        if any(is_traced(b) for b in (self.start, self.limit, self.delta)):
            return None
        start, limit, delta = (int(np.asarray(b._value)) for b in (self.start, self.limit, self.delta))
        return len(range(start, limit, delta))

    def length(self):
        span = self.limit._value - self.start._value
        step = self.delta._value
        count = (span + step - jnp.sign(step)) // step
        return jnp.maximum(count, 0)

    def item(self, index):
        return Tensor(self.start._value + index * self.delta._value)


class RangeTensor(Tensor):
    """`companion.range` called inside a converted function with bounds known while tracing: the
    tensor it makes (a tensor like any other, as TF's), which a ``for`` still runs as one compiled
    loop (its `TracedRange`, or None for a float range, looped over as a tensor)."""

    __slots__ = ("_loop",)

    def __init__(self, value, loop):
        super().__init__(value)
        self._loop = loop


def stages(iterable):
    """True if ``for`` over ``iterable`` must run as a compiled loop."""
    if isinstance(iterable, (TracedRange, RangeTensor)):
        return True
    return bool(state.staging) and isinstance(iterable, Tensor) and not _is_string(iterable)


def loop_limit(opts):
    """``maximum_iterations`` of ``set_loop_options``: an int known while tracing, a tensor, or None."""
    limit = (opts or {}).get("maximum_iterations")
    if limit is None or isinstance(limit, str):  # malt's UNSPECIFIED is a string
        return None
    if is_traced(limit):
        return _math.cast(convert_to_tensor(limit), "int32")
    limit = int(np.asarray(getattr(limit, "_value", limit)))
    if limit < 0:
        raise ValueError(f"{_state.where()}set_loop_options: maximum_iterations must be >= 0. "
                         f"Received: {limit}")
    return limit


def staged_for(iterable, extra_test, body, get_state, set_state, names, opts=None, defines=True):
    """``for`` over a `TracedRange` or a tensor's first axis, as a staged while loop.

    ``opts`` may hold ``maximum_iterations`` (from ``set_loop_options``), which caps the trip count.
    ``defines``: whether the body may define variables used after the loop (`staged_while`).
    """
    if isinstance(iterable, RangeTensor) and iterable._loop is not None:
        iterable = iterable._loop
    if isinstance(iterable, TracedRange):
        static = iterable.static_length()
        count = iterable.length() if static is None else static
        item, index_dtype = iterable.item, iterable.start._v.dtype
    elif hasattr(iterable, "item") and hasattr(iterable, "count"):  # a dataset's stacked elements
        count, item, index_dtype = iterable.count, iterable.item, jnp.int32
        static = count
    else:
        value = iterable._value
        if value.ndim == 0:
            raise TypeError(f"{_state.where()}Cannot iterate over a scalar tensor.")
        count, index_dtype = value.shape[0], jnp.int32
        static = count
        item = lambda i: Tensor(lax.dynamic_index_in_dim(value, i, keepdims=False))  # noqa: E731
    limit = loop_limit(opts)
    if isinstance(limit, int):
        static = limit if static is None else min(static, limit)
        count = jnp.minimum(count, limit)
    elif limit is not None:
        count = jnp.minimum(count, limit._value.astype(jnp.asarray(count).dtype))
    box = [Tensor(jnp.zeros((), index_dtype))]
    get, put = with_counter(box, get_state, set_state)

    def test():
        more = Tensor(box[0]._value < count)
        return more if extra_test is None else _math.logical_and(more, extra_test())

    def step():
        index = box[0]
        element = item(index._value)
        if isinstance(element, Tensor):
            _tensor_names.alias(element._v, index._v)
        body(element)
        box[0] = Tensor(index._value + 1)

    staged_while(test, step, get, put, ("<loop index>",) + tuple(names), "for loop", static, defines)


def with_counter(box, get_state, set_state):
    """``(get, put)`` of a loop's state with one more leading entry, ``box[0]`` (its counter or
    flag), for `staged_while`."""

    def get():
        return (box[0],) + tuple(get_state())

    def put(values):
        box[0] = values[0]
        set_state(values[1:])

    return get, put


def staged_while(test, body, get_state, set_state, names, what, static_count=None, defines=True):
    """A ``lax.while_loop`` over the state and the Variables the body assigns.

    With a trip count known while tracing, a ``lax.scan`` of that length whose steps run
    the body only while the test holds; otherwise a while loop whose reverse-mode
    derivative recomputes (`companion.autograph._loop_op`). A tape around the function
    differentiates either; for a tape recording inside the function the loop is one
    recorded op.

    With ``defines`` (loops over tensors and ranges, and while loops, as TF's), a variable undefined
    (or None) before the loop that the body makes a tensor starts as zeros of its type, and the
    program checks that the loop iterates at least once; a loop over a dataset needs it defined.
    """
    init = tensor_array.entering_loop(get_state(), static_count)
    set_state(init)

    def run_body(*carried):
        _tensor_names.name_inputs("Placeholder", carried)  # the loop body's graph inputs, as TF's
        set_state(_state.unflatten(carried, kinds))
        body()
        return get_state()

    arrays, kinds = _state.flatten(init)
    avals = [jax.ShapeDtypeStruct(a.shape, a.dtype) for a in arrays]
    first_made = []  # the loop variables the first iteration defines (TF's undefined-before-loop)
    if any(k[0] in ("no_return", "tensor_array_pending") or (defines and (k[0] == "undefined" or _is_none(k)))
           for k in kinds):
        with tensor_array.quiet_probe(), tapes_paused():
            probe = trace_block(run_body, avals, _state.flatten)
        init, first_made = _placeholder_returns(init, kinds, probe, names, defines)
        set_state(init)
        arrays, kinds = _state.flatten(init)
        avals = [jax.ShapeDtypeStruct(a.shape, a.dtype) for a in arrays]
    _check_defined(names, init, what)
    if first_made:
        _check_iterates(test, first_made)

    def run_test(*carried):
        set_state(_state.unflatten(carried, kinds))
        return (test(),)

    with tapes_paused():
        with _tensor_names.sub_graph("while") as prefix:  # TF's loop graphs: `while/...`
            body_block = trace_block(run_body, avals, _state.flatten)
        set_state(init)
        _state.check_loop_state(names, kinds, body_block.out_kinds, what)
        with _tensor_names.sub_graph("while", prefix):
            test_block = trace_block(run_test, avals, _flatten_test)
        set_state(init)
    written = list(body_block.written)
    before = {id(v): b for v, b in zip(written, values_of(written))}
    body_slots = body_block.variable_slots(written, before)
    test_slots = test_block.variable_slots(written, before)
    n = len(arrays)
    run = loop_function(body_block, test_block, body_slots, test_slots, n, static_count)
    initial_variables = [before[id(v)] for v in written]
    consts = list(body_block.closed.consts) + list(test_block.closed.consts)
    if state.tapes:
        final = apply_recorded(run, init, arrays, initial_variables, consts, "while_loop")
    else:
        final = [Tensor(a) for a in run(*arrays, *initial_variables, *consts)]
    _tensor_names.name_sub_graph_outputs(prefix, [t._v for t in final[:n]], arrays)
    set_state(_state.unflatten(final[:n], kinds))
    for var, value in zip(written, final[n:]):
        var._set_value(value._value)


def _placeholder_returns(init, kinds, probe, names, defines):
    """A `return` inside the loop, or a variable undefined (or None) before it that the body makes
    a tensor (TF's loop variables defined in the loop): its value starts as zeros of the type the
    body gives it. A TensorArray whose element shape is not known yet gets the shape the body writes.

    Returns the new initial values and the names of the variables the first iteration defines.
    """
    values, first_made = list(init), []
    for i, (before, after) in enumerate(zip(kinds, probe.out_kinds)):
        undefined = defines and (before[0] == "undefined" or _is_none(before))
        if (before[0] == "no_return" or undefined) and after[0] == "array":
            values[i] = Tensor(jnp.zeros(after[1], after[2]))
            if undefined:
                first_made.append(names[i])
        elif before[0] == "tensor_array_pending" and after[0] == "tensor_array":
            values[i] = tensor_array.with_probed_shape(values[i], after[1])
    return tuple(values), first_made


def _is_none(kind):
    return kind[0] == "static" and kind[1] is None


def _check_iterates(test, names):
    """TF's run-time assertion for variables the loop defines: its first test must hold, else
    `InvalidArgumentError` ("loop must iterate at least once to initialize x") when the program runs."""
    first = test()
    first = first if isinstance(first, Tensor) else convert_to_tensor(bool(first))

    def check(ok):
        if not bool(ok):
            raise RuntimeCheckError(f"assertion failed: [loop must iterate at least once to initialize "
                                    f"{names[0]}]")

    run_check(check, first)


def _flatten_test(result):
    value = result[0]
    if isinstance(value, Tensor):
        return [value._value], [("array",)]
    return [jnp.asarray(bool(value))], [("array",)]


def _check_defined(names, values, what):
    for name, value in zip(names, values):
        if isinstance(value, Undefined):
            raise ValueError(
                f"{_state.where()}'{name}' must be defined before the {what}: it is assigned inside a "
                f"{what} that runs in the compiled program and used after it (or in the loop test), "
                f"so it needs a value even if the loop runs zero times. Initialise '{name}' before "
                "the loop.")


def _is_string(tensor):
    return tensor._value.__class__.__module__ == "numpy"


__all__ = ["RangeTensor", "TracedRange", "is_traced", "staged_for", "staged_while", "stages", "with_counter"]
