"""Run-time checks of ``tf.debugging``: the ``assert_*`` comparisons and sign checks, assert_near,
assert_rank, assert_shapes and check_numerics.

Eagerly (and on values known while tracing) a failed check raises `InvalidArgumentError`
at once. On values computed inside a compiled function the check runs on the host when the
program runs, and a failure stops the call with that same `InvalidArgumentError` (XLA wraps a
callback's error; `_callback_errors` hands the original back to the call, as TF raises it).
"""

import numpy as np
from jax.experimental import io_callback

from companion._core import _callback_errors, _check_numerics
from companion._core._convert import as_input, binary_inputs
from companion._core._dtypes import as_dtype
from companion._core._errors import InvalidArgumentError, OpError, RuntimeCheckError
from companion._core._tensor import Tensor

__all__ = ["Assert", "assert_all_finite", "assert_equal", "assert_greater", "assert_greater_equal",
           "assert_integer", "assert_less", "assert_less_equal", "assert_near", "assert_negative",
           "assert_non_negative", "assert_non_positive", "assert_none_equal", "assert_positive",
           "assert_proper_iterable", "assert_rank", "assert_rank_at_least", "assert_rank_in",
           "assert_same_float_dtype", "assert_scalar", "assert_shapes", "assert_type", "check_numerics",
           "disable_check_numerics", "disable_traceback_filtering", "enable_check_numerics",
           "enable_traceback_filtering", "get_log_device_placement",
           "is_numeric_tensor", "is_traceback_filtering_enabled", "set_log_device_placement"]

_settings = {"log_device_placement": False, "traceback_filtering": True}


def assert_equal(x, y, message=None, summarize=None, name=None):
    """Raises `InvalidArgumentError` unless ``x == y`` for every element (after broadcasting).

    Example:
        >>> import companion as tf
        >>> tf.debugging.assert_equal(tf.constant([1, 2]), [1, 2])
        >>> try:
        ...     tf.debugging.assert_equal(tf.constant([1, 2]), 1)
        ... except tf.errors.InvalidArgumentError as error:
        ...     print(str(error)[:45])
        Condition x == y did not hold element-wise: 1
    """
    x, y = binary_inputs(x, y, "assert_equal")
    _shapes_broadcast(x, y, "assert_equal")

    def check(a, b):
        bad = ~np.equal(a, b)
        if bad.any():
            _fail("Condition x == y did not hold element-wise", message, a, b, bad, summarize)

    run_check(check, x, y)


def Assert(condition, data, summarize=None, name=None):  # noqa: N802 - TensorFlow's name
    """Raises `InvalidArgumentError` when the scalar bool ``condition`` is False, listing ``data`` (a
    list of tensors or values) in the message, as TF's ``tf.Assert`` does.

    Example:
        >>> import companion as tf
        >>> try:
        ...     tf.Assert(tf.constant(False), [tf.constant([1, 2])])
        ... except tf.errors.InvalidArgumentError as error:
        ...     print(str(error).split(". ")[-1])
        Summarized data: 1, 2
    """
    given, condition = condition, as_input(condition)
    if condition.dtype.name != "bool" or condition.ndim != 0:
        raise InvalidArgumentError(f"Assert: condition must be a scalar bool tensor. Received dtype "
                                   f"{condition.dtype.name} and shape {list(condition.shape)}.")
    items = [as_input(d) for d in data]
    limit = 3 if summarize is None else int(summarize)

    # string data known while tracing (Python text, constant string tensors) is shown as it is;
    # only the other tensors travel through the check (a compiled program holds no strings; text
    # computed inside a function is refused by the conversion above)
    static = [i if i.dtype.name == "string" and not i.is_traced else None for i in items]

    def check(ok, *dynamic):
        dynamic = iter(dynamic)
        values = [next(dynamic) if fixed is None else fixed._value for fixed in static]
        if not bool(ok):
            shown_condition = Tensor(np.asarray(ok)) if condition.is_traced else condition
            if isinstance(given, (bool, np.bool_)):  # TF shows a Python condition as Python prints it
                shown_condition = given
            parts = []
            for value in values:
                flat = np.asarray(value).reshape(-1)
                shown = [str(v) for v in flat[:limit].tolist()]
                parts.append(", ".join(shown) + (" ..." if flat.size > limit else ""))
            raise RuntimeCheckError(f"Expected '{shown_condition!s}' to be true. Summarized data: "
                                    + "\n".join(parts))

    run_check(check, condition, *[i for i, fixed in zip(items, static) if fixed is None])


def _comparison(symbol, compare, what):
    def assert_compare(x, y, message=None, summarize=None, name=None):
        x, y = binary_inputs(x, y, what)
        _shapes_broadcast(x, y, what)

        def check(a, b):
            bad = ~compare(a, b)
            if bad.any():
                _fail(f"Condition x {symbol} y did not hold element-wise", message, a, b, bad, summarize)

        run_check(check, x, y)

    assert_compare.__name__ = assert_compare.__qualname__ = what
    return assert_compare


assert_greater = _comparison(">", np.greater, "assert_greater")
assert_greater.__doc__ = """Raises `InvalidArgumentError` unless ``x > y`` for every element (broadcast).

    Example:
        >>> import companion as tf
        >>> tf.debugging.assert_greater(tf.constant([2, 3]), 1)
    """
assert_less = _comparison("<", np.less, "assert_less")
assert_less.__doc__ = """Raises `InvalidArgumentError` unless ``x < y`` for every element (broadcast).

    Example:
        >>> import companion as tf
        >>> tf.debugging.assert_less(tf.constant([2.0, 3.0]), [2.5, 3.5])
    """


assert_greater_equal = _comparison(">=", np.greater_equal, "assert_greater_equal")
assert_greater_equal.__doc__ = "Raises `InvalidArgumentError` unless ``x >= y`` for every element."
assert_less_equal = _comparison("<=", np.less_equal, "assert_less_equal")
assert_less_equal.__doc__ = "Raises `InvalidArgumentError` unless ``x <= y`` for every element."
assert_none_equal = _comparison("!=", np.not_equal, "assert_none_equal")
assert_none_equal.__doc__ = "Raises `InvalidArgumentError` unless ``x != y`` for every element."


def _sign_check(compare, symbol, what):
    def assert_sign(x, message=None, summarize=None, name=None):
        x = as_input(x)
        return _comparison(symbol, compare, what)(x, 0, message=message, summarize=summarize)

    assert_sign.__name__ = assert_sign.__qualname__ = what
    assert_sign.__doc__ = f"Raises `InvalidArgumentError` unless ``x {symbol} 0`` for every element."
    return assert_sign


assert_positive = _sign_check(np.greater, ">", "assert_positive")
assert_negative = _sign_check(np.less, "<", "assert_negative")
assert_non_negative = _sign_check(np.greater_equal, ">=", "assert_non_negative")
assert_non_positive = _sign_check(np.less_equal, "<=", "assert_non_positive")


def assert_shapes(shapes, data=None, summarize=None, message=None, name=None):
    """Raises ValueError unless each tensor's shape matches its spec, with symbols consistent.

    ``shapes`` is a list of ``(tensor, spec)`` pairs (or a dict). A spec lists one entry per
    dimension: an int (that size), a string (a symbol: the same size wherever it appears),
    or ``None``/``"."`` (any size); a leading or trailing ``"*"`` matches any number of
    dimensions. A scalar spec ``()`` means rank 0. Shapes are static, so the check runs at once.

    Example:
        >>> import companion as tf
        >>> tf.debugging.assert_shapes([(tf.ones((2, 3)), ("N", 3)), (tf.ones(2), ("N",))])
    """
    pairs = shapes.items() if isinstance(shapes, dict) else shapes
    sizes = {}
    prefix = f"{message}. " if message else ""
    for tensor, spec in pairs:
        actual = tuple(as_input(tensor)._v.shape)
        spec = (spec,) if isinstance(spec, (int, str)) and spec != "*" or spec is None else tuple(spec)
        dims, dims_actual = list(spec), list(actual)
        if dims and dims[0] == "*":
            dims, dims_actual = dims[1:], dims_actual[len(dims_actual) - len(dims) + 1:]
        elif dims and dims[-1] == "*":
            dims, dims_actual = dims[:-1], dims_actual[:len(dims) - 1]
        if len(dims) != len(dims_actual) or len(actual) < len(dims):
            raise ValueError(f"{prefix}assert_shapes: a tensor of shape {actual} has the wrong rank for the "
                             f"spec {tuple(spec)}.")
        for want, got in zip(dims, dims_actual):
            if want is None or want == ".":
                continue
            if isinstance(want, str):
                want = sizes.setdefault(want, got)
            if int(want) != got:
                raise ValueError(f"{prefix}assert_shapes: a tensor of shape {actual} does not match the spec "
                                 f"{tuple(spec)} (symbol sizes so far: {sizes}).")


def assert_rank(x, rank, message=None, name=None):
    """Raises ValueError unless ``x`` has rank ``rank`` (known when the op runs, so checked at once).

    Example:
        >>> import companion as tf
        >>> tf.debugging.assert_rank(tf.zeros((2, 3)), 2)
    """
    x = as_input(x)
    want = int(np.asarray(rank.numpy() if hasattr(rank, "numpy") else rank))
    if x._v.ndim != want:
        prefix = f"{message}. " if message else ""
        raise ValueError(f"{prefix}Tensor must have rank {want}. Received rank {x._v.ndim}, shape "
                         f"{tuple(x._v.shape)}.")


def assert_near(x, y, rtol=None, atol=None, message=None, summarize=None, name=None):
    """Raises `InvalidArgumentError` unless ``|x - y| <= atol + rtol * |y|`` element-wise.

    ``rtol`` and ``atol`` default to 10 times the dtype's machine epsilon, as in TensorFlow.

    Example:
        >>> import companion as tf
        >>> tf.debugging.assert_near(tf.constant([1.0, 2.0]), [1.0, 2.0000001])
    """
    x, y = binary_inputs(x, y, "assert_near")
    _shapes_broadcast(x, y, "assert_near")
    if not (x.dtype.is_floating or x.dtype.is_complex):
        raise TypeError(f"assert_near needs floating-point tensors. Received dtype {x.dtype.name}.")
    eps = float(np.finfo(x.dtype.as_numpy_dtype).eps)
    rtol = 10 * eps if rtol is None else float(rtol)
    atol = 10 * eps if atol is None else float(atol)

    def check(a, b):
        bad = ~(np.abs(a - b) <= atol + rtol * np.abs(b))
        if bad.any():
            _fail(f"x and y not equal to tolerance rtol = {rtol:g}, atol = {atol:g}", message, a, b, bad,
                  summarize)

    run_check(check, x, y)


def check_numerics(tensor, message, name=None):
    """``tensor`` unchanged, after checking that it has no NaN or infinite values.

    Raises:
        InvalidArgumentError: ``"{message} : Tensor had NaN values"`` (or ``Inf values``).

    Example:
        >>> import companion as tf
        >>> print(tf.debugging.check_numerics(tf.constant([1.0, 2.0]), "weights"))
        companion.Tensor([1. 2.], shape=(2,), dtype=float32)
    """
    tensor = as_input(tensor)
    if not tensor.dtype.is_floating:
        raise TypeError(f"check_numerics needs a floating-point tensor. Received dtype {tensor.dtype.name}: "
                        f"{tensor!s}.")

    def check(a):
        if np.isnan(a).any():
            raise RuntimeCheckError(f"{message} : Tensor had NaN values")
        if np.isinf(a).any():
            raise RuntimeCheckError(f"{message} : Tensor had Inf values")

    run_check(check, tensor)
    return tensor


def enable_check_numerics(stack_height_limit=30, path_length_limit=50):
    """Checks every float output of every op from now on: the first op that makes a NaN or an
    infinity raises `InvalidArgumentError` naming it (in eager code at once, in a `function` when
    the call runs). Slows every op; for finding where a NaN loss starts, then turn it off.

    Args:
        stack_height_limit, path_length_limit: accepted for TensorFlow compatibility (TF's limits
            on the stack trace its message prints); unused.

    Example:
        >>> import companion as tf
        >>> tf.debugging.enable_check_numerics()
        >>> try:
        ...     tf.math.log(tf.constant([0.0, 1.0]))
        ... except tf.errors.InvalidArgumentError:
        ...     print("caught")
        caught
        >>> tf.debugging.disable_check_numerics()
    """
    for name, value in (("stack_height_limit", stack_height_limit), ("path_length_limit", path_length_limit)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise TypeError(f"enable_check_numerics: {name} must be an int. Received {name}={value!r}")
    _check_numerics.enable()


def disable_check_numerics():
    """Stops the checks `enable_check_numerics` turned on (a no-op when they are off)."""
    _check_numerics.disable()


def set_log_device_placement(enabled):
    """Accepted for TensorFlow compatibility: companion does not log where each op runs.

    Example:
        >>> import companion as tf
        >>> tf.debugging.set_log_device_placement(True)
    """
    _settings["log_device_placement"] = bool(enabled)


def run_check(check, *tensors):
    values = [t._value for t in tensors]
    if any(t.is_traced for t in tensors):
        def on_host(*arrays):
            try:
                check(*[np.asarray(a) for a in arrays])
            except OpError as error:
                _callback_errors.remember(error)  # the call re-raises it (XLA wraps what a callback raises)
                raise

        io_callback(on_host, None, *values)
    else:
        check(*[np.asarray(v) for v in values])


def _shapes_broadcast(x, y, what):
    try:
        np.broadcast_shapes(x._v.shape, y._v.shape)
    except ValueError:
        raise InvalidArgumentError(f"{what}: x (shape {tuple(x._v.shape)}) and y (shape "
                                   f"{tuple(y._v.shape)}) must broadcast to one shape.") from None


def _fail(condition, message, a, b, bad, summarize):
    limit = 3 if summarize is None else int(summarize)
    a, b = np.broadcast_to(a, bad.shape), np.broadcast_to(b, bad.shape)
    first = [tuple(int(i) for i in idx) for idx in np.argwhere(bad)[:limit]]
    details = ", ".join(f"x{list(i)} = {a[i]!r} vs y{list(i)} = {b[i]!r}" for i in first)
    prefix = f"{message}\n" if message else ""
    raise RuntimeCheckError(f"{prefix}{condition}: {int(bad.sum())} of {bad.size} elements differ, "
                            f"first {details}.")


# -- static checks (dtype and rank are known when the op runs) --------------------------------------

def assert_all_finite(x, message, name=None):
    """``x`` unchanged after checking it has no NaN or infinite value (`check_numerics`)."""
    return check_numerics(x, message)


def _prefix(message):
    return f"{message}.  " if message else ""


def assert_integer(x, message=None, name=None):
    """Raises TypeError unless ``x`` has an integer dtype."""
    x = as_input(x)
    if not x.dtype.is_integer:
        raise TypeError(f'{_prefix(message)}Expected "x" to be integer type.  Found: tensor of dtype '
                        f"{x.dtype}")


def assert_rank_at_least(x, rank, message=None, name=None):
    """Raises ValueError unless ``x``'s rank is at least ``rank``."""
    x = as_input(x)
    want = int(np.asarray(rank.numpy() if hasattr(rank, "numpy") else rank))
    if x._v.ndim < want:
        raise ValueError(f"{_prefix(message)}Tensor  must have rank at least {want}.  Received rank "
                         f"{x._v.ndim}, shape {tuple(x._v.shape)}")


def assert_rank_in(x, ranks, message=None, name=None):
    """Raises ValueError unless ``x``'s rank is one of ``ranks``."""
    x = as_input(x)
    wanted = tuple(int(np.asarray(r.numpy() if hasattr(r, "numpy") else r)) for r in ranks)
    if x._v.ndim not in wanted:
        raise ValueError(f"{_prefix(message)}Tensor  must have rank in {wanted}.  Received rank {x._v.ndim}, "
                         f"shape {tuple(x._v.shape)}")


def assert_scalar(tensor, message=None, name=None):
    """Raises ValueError unless ``tensor`` is a scalar (rank 0)."""
    tensor = as_input(tensor)
    if tensor._v.ndim != 0:
        raise ValueError(f"{_prefix(message)}Expected scalar shape, saw shape: {tuple(tensor._v.shape)}.")


def assert_type(tensor, tf_type, message=None, name=None):
    """Raises TypeError unless ``tensor``'s dtype is ``tf_type``."""
    tensor = as_input(tensor)
    want = as_dtype(tf_type)
    if tensor.dtype != want:
        raise TypeError(f"{_prefix(message)}tensor must be of type tf.{want.name}; "
                        f"got tf.{tensor.dtype.name}")


def assert_same_float_dtype(tensors=None, dtype=None):
    """The one floating dtype of ``tensors`` (and ``dtype``, when given); ValueError if they differ or
    are not floating. With neither, float32."""
    tensors = list(tensors or [])
    expected = None if dtype is None else as_dtype(dtype)
    first = None
    for tensor in tensors:
        tensor_dtype = as_input(tensor).dtype
        if expected is None:
            expected, first = tensor_dtype, tensor
        elif tensor_dtype != expected:
            raise ValueError(f"{tensor!s}, type={tensor_dtype}, must be of the same type ({expected})"
                             f"{'' if first is None else f' as {first!s}'}")
    if expected is None:
        return as_dtype("float32")
    if not expected.is_floating:
        raise ValueError(f"Expected floating point type, got {expected}.")
    return expected


def assert_proper_iterable(values):
    """Raises TypeError if ``values`` is a tensor, a NumPy array or a string: iterable, but not a
    sequence of separate values."""
    if isinstance(values, (Tensor, np.ndarray, str, bytes)) or getattr(values, "_is_variable", False):
        raise TypeError(f'Expected argument "values" to be a "proper" iterable.  Found: {type(values)}')
    if not hasattr(values, "__iter__"):
        raise TypeError(f'Expected argument "values" to be iterable.  Found: {type(values)}')


def is_numeric_tensor(tensor):
    """True for a Tensor (or Variable) of a number dtype (not bool, not string)."""
    if not (isinstance(tensor, Tensor) or getattr(tensor, "_is_variable", False)):
        return False
    return tensor.dtype.is_numeric and not tensor.dtype.is_bool


def get_log_device_placement():
    """What `set_log_device_placement` last set (companion logs no placements either way)."""
    return _settings["log_device_placement"]


def is_traceback_filtering_enabled():
    """TF's traceback filtering switch; companion keeps its errors' tracebacks as Python gives them,
    so this reports the setting only."""
    return _settings["traceback_filtering"]


def enable_traceback_filtering():
    _settings["traceback_filtering"] = True


def disable_traceback_filtering():
    _settings["traceback_filtering"] = False
