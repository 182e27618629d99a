"""`py_function` and `numpy_function`: call arbitrary Python from a pipeline or a traced function.

Eagerly (and in dataset functions, which fall back to eager execution for them) the
Python function is simply called. Inside a compiled `companion.function` it becomes a
host callback; JAX needs the output shapes at trace time, so ``Tout`` is then best given as
`TensorSpec`s with fully known shapes. With a plain dtype (``Tout=tf.float32``, as TF's guides
write it) a top-level function call runs the function eagerly instead, with TF's results and
side effects (each call runs ``func``), as other value-dependent shapes do.
"""

import contextlib
import threading

import jax
import numpy as np
from jax.experimental import io_callback

from companion._core import _dtypes
from companion._core._context import state
from companion._core._convert import convert_to_tensor
from companion._core._tensor import Tensor
from companion._core._tensor_spec import TensorSpec
from companion._staging._errors import OperatorNotAllowedInGraphError
from companion._staging._needs_values import NeedsValues


def py_function(func, inp, Tout, name=None):  # noqa: N803 - TensorFlow's argument name
    """Calls ``func(*tensors)`` (Python, with eager Tensors) and converts its result to ``Tout``.

    Args:
        func: a Python function taking Tensors and returning values convertible to ``Tout``.
        inp: a list of input tensors (or values).
        Tout: a dtype (one output, returned as a Tensor), a list/tuple of dtypes (returned as a
            list), or `TensorSpec`s (needed with static shapes inside a compiled function).
        name: accepted for TensorFlow compatibility; unused.

    Example:
        >>> import companion as tf
        >>> from companion._ops._py_function import py_function  # companion.py_function once exported
        >>> def log_huber(x, m):
        ...     return tf.math.log(x * 2.0) if float(x) > m else x
        >>> print(py_function(log_huber, [tf.constant(0.5), 1.0], Tout=tf.float32))
        companion.Tensor(0.5, shape=(), dtype=float32)
    """
    return _call(func, inp, Tout, numpy=False, stateful=True)


def numpy_function(func, inp, Tout, stateful=True, name=None):  # noqa: N803
    """Like `py_function`, but ``func`` receives and returns NumPy arrays.

    Example:
        >>> import numpy as np
        >>> import companion as tf
        >>> from companion._ops._py_function import numpy_function
        >>> print(numpy_function(lambda x: np.sort(x), [tf.constant([3, 1, 2])], tf.int32))
        companion.Tensor([1 2 3], shape=(3,), dtype=int32)
    """
    return _call(func, inp, Tout, numpy=True, stateful=stateful)


def _call(func, inp, Tout, numpy, stateful):  # noqa: N803
    if not callable(func):
        raise TypeError(f"Expected a callable for `func`. Received: {func!r}")
    single = not isinstance(Tout, (list, tuple))
    outs = [Tout] if single else list(Tout)
    inputs = [convert_to_tensor(x) if not getattr(x, "_is_variable", False) else x.value() for x in inp]
    if state.staging and (any(t.is_traced for t in inputs) or stateful and _all_static(outs)):
        # a stateful call runs every time the compiled function does, even with constant inputs
        results = _staged(func, inputs, outs, numpy, stateful)
    else:
        # eagerly TF hands over 0-d arrays; a graph (a function, a dataset function) NumPy scalars
        convert = _graph_numpy if state.staging or state.graph_code else np.asarray
        args = [convert(t) if numpy else t for t in inputs]
        graph_code, state.graph_code = state.graph_code, 0  # the function's own code runs eagerly in TF
        try:
            results = _outputs(func(*args), outs)
        finally:
            state.graph_code = graph_code
    for result, tout in zip(results, outs):
        _note_shapes([result], tout.shape if isinstance(tout, TensorSpec) else None)
    if single:
        return None if Tout is None else results[0]
    return results


_recorders = threading.local()


@contextlib.contextmanager
def running_as_graph_code():
    """Python run where TF would run a graph (a dataset function called on an element eagerly):
    `numpy_function` hands its 0-d inputs over as NumPy scalars, as from TF's graphs, and the
    user's own ``x.numpy()``/``np.asarray(x)`` raise as on TF's graph tensors (`Tensor.numpy`)."""
    state.graph_code += 1
    try:
        yield
    finally:
        state.graph_code -= 1


@contextlib.contextmanager
def recording_static_shapes():
    """Records the static shape TensorFlow would give the tensors py_function/ensure_shape return.

    Yields a dict ``id(tensor) -> (tensor, TensorShape or None)``: None for a py_function or
    numpy_function output (TF does not know its shape), the asserted shape after `ensure_shape`.
    Dataset functions that run eagerly use it to report element specs as TF does.
    """
    seen = {}
    stack = getattr(_recorders, "stack", None) or []
    _recorders.stack = [*stack, seen]
    try:
        yield seen
    finally:
        _recorders.stack = stack


def note_data_dependent_shape(tensor, shape):
    """Notes that TF's graph gives ``tensor`` (an op's output whose size depends on the data: a
    decoded image, the pieces of a split) only the static shape ``shape`` (a TensorShape, None
    for an unknown rank), for the element specs of dataset functions that run eagerly."""
    _note_shapes([tensor], shape)
    return tensor


def _note_shapes(tensors, shape, only_known=False):
    """Notes ``shape`` (None: unknown) as the static shape of ``tensors`` while recording.

    With ``only_known`` (`ensure_shape`, `set_shape`), a tensor not noted yet (not a py_function
    output: its own static shape is known) is noted as ``(tensor, shape, "asserted")``: the
    assertion's known dimensions add to what the trace would know.
    """
    stack = getattr(_recorders, "stack", None)
    if stack:
        for tensor in tensors:
            if not isinstance(tensor, Tensor):
                continue
            previous = stack[-1].get(id(tensor))
            known = previous is not None and previous[0] is tensor
            if only_known and (not known or len(previous) == 3):
                stack[-1][id(tensor)] = (tensor, shape, "asserted")
            else:
                stack[-1][id(tensor)] = (tensor, shape)


def _outputs(result, outs):
    if not outs or outs == [None]:
        return [] if outs != [None] else [None]
    values = [result] if len(outs) == 1 and not isinstance(result, (list, tuple)) else list(result)
    if len(values) != len(outs):
        raise ValueError(f"The Python function returned {len(values)} value(s) but Tout lists {len(outs)}: "
                         f"{outs!r}. Return one value per Tout entry.")
    return [convert_to_tensor(v, dtype=_dtype_of(t)) if not isinstance(v, Tensor) or v.dtype != _dtype_of(t)
            else v for v, t in zip(values, outs)]


def _graph_numpy(value):
    array = np.asarray(value)
    return array[()] if array.ndim == 0 else array


def _staged(func, inputs, outs, numpy, stateful):
    shapes = [_static_shape(t) for t in outs]

    def host(*arrays):
        # from a graph TF hands numpy_function a 0-d input as a NumPy scalar (bytes for a string)
        args = [_graph_numpy(a) if numpy else convert_to_tensor(np.asarray(a)) for a in arrays]
        results = _outputs(func(*args), outs)
        return tuple(np.asarray(r, dtype=s.dtype) for r, s in zip(results, shapes))

    values = [t._value for t in inputs]
    if stateful:
        arrays = io_callback(host, tuple(shapes), *values)
    else:
        arrays = jax.pure_callback(host, tuple(shapes), *values)
    return [Tensor(a) for a in arrays]


def _all_static(outs):
    return all(isinstance(t, TensorSpec) and t.shape.is_fully_defined() for t in outs)


class _UnknownOutputShape(OperatorNotAllowedInGraphError, NeedsValues):
    """A py_function/numpy_function whose ``Tout`` gives no output shape, traced in a function: XLA
    needs the shape to compile the call, TF's graph does not. A top-level function call runs the
    function eagerly instead (`companion._staging._needs_values`), a dataset function on its elements;
    elsewhere (a function traced inside another) the error says to pass `TensorSpec`s."""


_UnknownOutputShape.__name__ = _UnknownOutputShape.__qualname__ = "OperatorNotAllowedInGraphError"


def _static_shape(tout):
    if isinstance(tout, TensorSpec) and tout.shape.is_fully_defined():
        return jax.ShapeDtypeStruct(tuple(tout.shape), tout.dtype._np)
    raise _UnknownOutputShape(
        "py_function/numpy_function inside a compiled function needs the output shapes while tracing: "
        f"pass Tout as companion.TensorSpec(shape, dtype) with every dimension known. Received: {tout!r}. "
        "(A top-level function call, and Dataset.map, then simply run the function eagerly.)")


def _dtype_of(tout):
    return tout.dtype if isinstance(tout, TensorSpec) else _dtypes.as_dtype(tout)
