"""When a summary is written: the default writer, the step, `record_if`, and writing from a program.

Every summary op goes through `emit`: eagerly it writes at once; inside a `companion.function`
it stages an ordered host callback, so the compiled program writes on every call, in program
order, with the values of that call (as TensorFlow's summary ops inside a ``tf.function``).
"""

import contextlib

import jax
import numpy as np

from companion._core._context import state as core_state
from companion._core._convert import convert_to_tensor
from companion._core._scopes import get_current_name_scope
from companion._core._tensor import Tensor
from companion.summary._state import state
from companion.summary._writer import SummaryWriter


@contextlib.contextmanager
def record_if(condition):
    """Writes summaries inside the block only while ``condition`` holds.

    ``condition`` is a bool, a boolean tensor, or a callable returning one (called each time
    a summary is about to be written, as Keras's TensorBoard callback uses it).
    """
    previous = state.condition
    state.condition = condition
    try:
        yield
    finally:
        state.condition = previous


def should_record_summaries():
    """A boolean tensor: whether a summary written now would be recorded.

    False without a default writer (or with a no-op one) or when `record_if` says no.
    """
    if not isinstance(state.writer, SummaryWriter):
        return convert_to_tensor(False)
    condition = _condition_value()
    if isinstance(condition, Tensor):
        return condition
    return convert_to_tensor(bool(condition))


def emit(name, data, step, make_summary):
    """Writes ``make_summary(tag, *arrays)`` (a ``Summary`` proto) at ``step``; returns a bool tensor.

    ``data`` is a list of values; each becomes a NumPy array when the summary is written.
    """
    writer = state.writer
    if not isinstance(writer, SummaryWriter):
        return convert_to_tensor(False)
    condition = _condition_value()
    if not isinstance(condition, Tensor) and not condition:
        return convert_to_tensor(False)
    step = _resolved_step(step)
    tag = _scoped(name)
    if not core_state.staging:
        if isinstance(condition, Tensor) and not bool(condition.numpy()):
            return convert_to_tensor(False)
        writer._write(make_summary(tag, *[_numpy(v) for v in data]), int(_numpy(step)))
        return convert_to_tensor(True)
    _stage_write(writer, tag, [*data, step, condition], make_summary)
    return condition if isinstance(condition, Tensor) else convert_to_tensor(True)


def _stage_write(writer, tag, values, make_summary):
    """Stages an ordered host callback that writes the summary each time the program runs."""
    values = [_read(v) for v in values]
    traced = [i for i, v in enumerate(values) if _is_traced(v)]
    static = [None if i in traced else _numpy(v) for i, v in enumerate(values)]

    def host(*arrays):
        filled = list(static)
        for i, array in zip(traced, arrays):
            filled[i] = np.asarray(array)
        *data, step, condition = filled
        if not bool(np.asarray(condition)):
            return
        writer._write(make_summary(tag, *data), int(step))

    jax.debug.callback(host, *[values[i]._value for i in traced], ordered=True)


def _is_traced(value):
    return isinstance(value, Tensor) and not isinstance(value._value, np.ndarray)


def _condition_value():
    condition = state.condition
    if callable(condition):
        condition = condition()
    condition = _read(condition)
    return condition if isinstance(condition, Tensor) else bool(condition)


def _resolved_step(step):
    if step is None:
        step = state.step
    if step is None:
        raise ValueError("No step set. Please specify one either through the `step` argument or "
                         "through companion.summary.experimental.set_step() (or as_default(step=...)).")
    return _read(step)


def _read(value):
    if getattr(value, "_is_variable", False):
        return value._read()
    return value


def _numpy(value):
    value = _read(value)
    if isinstance(value, Tensor):
        return value.numpy()
    return np.asarray(value)


def _scoped(name):
    scope = get_current_name_scope()
    return f"{scope}/{name}" if scope else name
