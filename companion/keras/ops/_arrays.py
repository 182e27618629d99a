"""Keras 3's array-creation ops and the NumPy-style ops whose arguments do not fit one table row
(``where``, ``split``, ``pad``, ``einsum``, ``quantile``, ...)."""

import jax.numpy as jnp
import numpy as np

from companion._core._errors import InvalidArgumentError
from companion._core._op import Op
from companion.keras.ops._base import (
    FLOATX,
    INT32,
    call,
    dtype_of,
    float_dtype,
    hashable,
    prepare,
    result_dtype,
    standardize,
    tensor,
)
from companion.keras.ops._numpy import OPS as _NUMPY

__all__ = ["arange", "array", "array_split", "average", "bincount", "dsplit", "einsum", "empty",
           "empty_like", "eye", "full", "full_like", "geomspace", "get_item", "histogram", "hsplit",
           "identity", "linspace", "logspace", "meshgrid", "nanpercentile", "nanquantile", "ndim", "ones",
           "ones_like", "pad", "percentile", "quantile", "select", "size", "split", "trapezoid", "tri",
           "unique", "vsplit", "where", "zeros", "zeros_like"]


def _shape(shape):
    shape = hashable(shape)
    return (shape,) if isinstance(shape, int) else tuple(shape)


def _constant(array, dtype):
    return tensor(np.asarray(array, dtype=dtype))


def zeros(shape, dtype=None):
    """A tensor of ``shape`` filled with 0 (``float32`` unless ``dtype`` is given)."""
    return _constant(np.zeros(_shape(shape)), standardize(dtype) or FLOATX)


def ones(shape, dtype=None):
    """A tensor of ``shape`` filled with 1 (``float32`` unless ``dtype`` is given)."""
    return _constant(np.ones(_shape(shape)), standardize(dtype) or FLOATX)


def empty(shape, dtype=None):
    """Keras's ``empty``: as `zeros` (a tensor's memory is never left uninitialised)."""
    return zeros(shape, dtype)


_FILL = Op("full", lambda value, shape: jnp.broadcast_to(value, shape), static=("shape",))


def full(shape, fill_value, dtype=None):
    """A tensor of ``shape`` filled with ``fill_value`` (``float32`` unless ``dtype`` is given)."""
    return call(_FILL, [tensor(fill_value, standardize(dtype) or FLOATX)], {"shape": _shape(shape)})


def full_like(x, fill_value, dtype=None):
    """A tensor shaped as ``x`` filled with ``fill_value``, in ``x``'s dtype unless ``dtype`` is given."""
    x = tensor(x)
    return call(_FILL, [tensor(fill_value, standardize(dtype) or dtype_of(x))], {"shape": tuple(x.shape)})


def zeros_like(x, dtype=None):
    """Zeros shaped as ``x``, in ``x``'s dtype unless ``dtype`` is given."""
    return full_like(x, 0, dtype)


def ones_like(x, dtype=None):
    """Ones shaped as ``x``, in ``x``'s dtype unless ``dtype`` is given."""
    return full_like(x, 1, dtype)


def empty_like(x, dtype=None):
    """Keras's ``empty_like``: as `zeros_like`."""
    return full_like(x, 0, dtype)


def array(x, dtype=None):
    """``x`` as a tensor (Keras's ``array``: `convert_to_tensor` with an optional dtype)."""
    return tensor(x, standardize(dtype))


def eye(N, M=None, k=0, dtype=None):  # noqa: N803 - Keras's parameter names
    """An ``N x M`` matrix with ones on diagonal ``k`` (``float32`` unless ``dtype`` is given)."""
    return _constant(np.eye(hashable(N), hashable(M), hashable(k)), standardize(dtype) or FLOATX)


def identity(n, dtype=None):
    """The ``n x n`` identity matrix (``float32`` unless ``dtype`` is given)."""
    return eye(n, dtype=dtype)


def tri(N, M=None, k=0, dtype=None):  # noqa: N803 - Keras's parameter names
    """An ``N x M`` matrix with ones at and below diagonal ``k``."""
    return _constant(np.tri(hashable(N), hashable(M), hashable(k)), standardize(dtype) or FLOATX)


def arange(start, stop=None, step=None, dtype=None):
    """Evenly spaced values in ``[start, stop)``; int32 for integer bounds, float32 for float ones."""
    bounds = [hashable(b) for b in (start, stop, step) if b is not None]
    dtype = standardize(dtype) or result_dtype(*bounds)
    if stop is None:
        start, stop = 0, hashable(start)
    return _constant(np.arange(hashable(start), hashable(stop), 1 if step is None else hashable(step)), dtype)


def _spaced(fn):
    def run(start, stop, num=50, endpoint=True, dtype=None, axis=0, **extra):
        start, stop = hashable(start), hashable(stop)
        dtype = standardize(dtype) or float_dtype(result_dtype(start, stop, 1.0))
        return _constant(fn(np.asarray(start, np.float64), np.asarray(stop, np.float64), num=hashable(num),
                            endpoint=endpoint, axis=axis, **extra), dtype)
    return run


_linspace = _spaced(np.linspace)
_logspace = _spaced(np.logspace)
_geomspace = _spaced(np.geomspace)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    """``num`` evenly spaced values from ``start`` to ``stop`` (and the step when ``retstep``)."""
    values = _linspace(start, stop, num, endpoint, dtype, axis)
    if not retstep:
        return values
    step = (hashable(stop) - hashable(start)) / max(hashable(num) - (1 if endpoint else 0), 1)
    return values, tensor(step, dtype_of(values))


def logspace(start, stop, num=50, endpoint=True, base=10, dtype=None, axis=0):
    """``num`` values spaced evenly on a log scale, ``base ** start`` to ``base ** stop``."""
    return _logspace(start, stop, num, endpoint, dtype, axis, base=base)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """``num`` values spaced evenly on a log scale from ``start`` to ``stop`` (a geometric progression)."""
    return _geomspace(start, stop, num, endpoint, dtype, axis)


_WHERE = Op("where", jnp.where)


def where(condition, x1=None, x2=None):
    """``x1`` where ``condition`` holds, else ``x2`` (promoted); with ``condition`` alone, `nonzero`."""
    if (x1 is None) != (x2 is None):
        raise InvalidArgumentError(
            "keras.ops.where takes either both `x1` and `x2` or neither. Received: "
            f"x1={'None' if x1 is None else 'a value'}, x2={'None' if x2 is None else 'a value'}. "
            "Pass both to select between them, or only `condition` for the indices where it holds.")
    if x1 is None:
        return _NUMPY["nonzero"](condition)
    return call(_WHERE, prepare([condition], "bool") + prepare([x1, x2], "promote"), {})


_SELECT = Op("select", lambda default, *both: jnp.select(both[:len(both) // 2], both[len(both) // 2:],
                                                         default))


def select(condlist, choicelist, default=0):
    """For each element, the value from the first ``choicelist`` entry whose ``condlist`` entry holds."""
    if len(condlist) != len(choicelist):
        raise InvalidArgumentError(
            f"keras.ops.select needs one choice per condition; received {len(condlist)} conditions and "
            f"{len(choicelist)} choices. Pass lists of the same length.")
    choices = prepare([*choicelist, default], "promote")
    return call(_SELECT, [choices[-1], *prepare(condlist, "bool"), *choices[:-1]], {})


_SPLIT = Op("split", lambda x, sections, axis: tuple(jnp.split(x, sections, axis)),
            static=("sections", "axis"))
_ARRAY_SPLIT = Op("array_split", lambda x, sections, axis: tuple(jnp.array_split(x, sections, axis)),
                  static=("sections", "axis"))


def split(x, indices_or_sections, axis=0):
    """``x`` cut along ``axis`` into equal sections, or at the given indices; a list of tensors."""
    return list(call(_SPLIT, [tensor(x)], {"sections": hashable(indices_or_sections), "axis": axis}))


def array_split(x, indices_or_sections, axis=0):
    """As `split`, but a section count need not divide the axis (the first sections are one longer)."""
    return list(call(_ARRAY_SPLIT, [tensor(x)], {"sections": hashable(indices_or_sections), "axis": axis}))


def hsplit(x, indices_or_sections):
    """`split` along axis 1 (axis 0 for a vector)."""
    return split(x, indices_or_sections, 1 if len(tensor(x).shape) > 1 else 0)


def vsplit(x, indices_or_sections):
    """`split` along axis 0."""
    return split(x, indices_or_sections, 0)


def dsplit(x, indices_or_sections):
    """`split` along axis 2."""
    return split(x, indices_or_sections, 2)


_PAD = Op("pad", lambda x, value, pad_width, mode: jnp.pad(x, pad_width, mode, **(
    {"constant_values": value} if mode == "constant" else {})), static=("pad_width", "mode"))


def pad(x, pad_width, mode="constant", constant_values=None):
    """``x`` padded by ``pad_width`` (per axis ``(before, after)``); ``mode`` as NumPy's ``pad``."""
    if constant_values is not None and mode != "constant":
        raise InvalidArgumentError(
            f"keras.ops.pad: `constant_values` applies only to mode='constant'; received mode={mode!r} "
            f"and constant_values={constant_values!r}. Drop constant_values or use mode='constant'.")
    x = tensor(x)
    value = tensor(0 if constant_values is None else constant_values, dtype_of(x))
    return call(_PAD, [x, value], {"pad_width": hashable(pad_width), "mode": mode})


_EINSUM = Op("einsum", lambda *operands, subscripts: jnp.einsum(subscripts, *operands),
             static=("subscripts",))


def einsum(subscripts, *operands, **kwargs):
    """Einstein summation over ``operands`` as described by ``subscripts`` (``"ij,jk->ik"``)."""
    return call(_EINSUM, prepare(operands, "promote"), {"subscripts": subscripts})


_MESHGRID = Op("meshgrid", lambda *x, indexing: tuple(jnp.meshgrid(*x, indexing=indexing)),
               static=("indexing",))


def meshgrid(*x, indexing="xy"):
    """Coordinate grids from 1-D coordinate vectors (``indexing`` ``"xy"`` or ``"ij"``); a list."""
    if indexing not in ("xy", "ij"):
        raise InvalidArgumentError(
            f"keras.ops.meshgrid: indexing must be 'xy' or 'ij'; received {indexing!r}.")
    return list(call(_MESHGRID, prepare(x, "promote"), {"indexing": indexing}))


_AVERAGE = Op("average", lambda x, w, axis: jnp.average(x, axis, w), static=("axis",))


def average(x, axis=None, weights=None):
    """The (``weights``-weighted) mean of ``x`` over ``axis``; float32 for integer inputs."""
    if weights is None:
        return _NUMPY["mean"](x, axis=axis)
    x, weights = prepare([x, weights], "float")
    return call(_AVERAGE, [x, weights], {"axis": hashable(axis)})


def _quantile_op(name, fn, scale):
    pure = Op(name, lambda x, q, **kw: fn(x, q * scale, **kw).astype(x.dtype),
              static=("axis", "method", "keepdims"))

    def run(x, q, axis=None, method="linear", keepdims=False):
        x, q = prepare([x, q], "float")
        return call(pure, [x, q], {"axis": hashable(axis), "method": method, "keepdims": keepdims})

    run.__name__ = name
    run.__doc__ = f"Keras's ``{name}``: NumPy's, on a float32 copy of integer inputs."
    return run


quantile = _quantile_op("quantile", jnp.quantile, 1)
nanquantile = _quantile_op("nanquantile", jnp.nanquantile, 1)
percentile = _quantile_op("percentile", jnp.quantile, 0.01)
nanpercentile = _quantile_op("nanpercentile", jnp.nanquantile, 0.01)

_HISTOGRAM = Op("histogram", lambda x, bins, span: jnp.histogram(x, bins, span), static=("bins", "span"))


def histogram(x, bins=10, range=None):  # noqa: A002 - Keras's parameter name
    """Counts of ``x`` in ``bins`` equal bins over ``range`` (default: ``x``'s min to max) and the edges."""
    if not isinstance(hashable(bins), int) or hashable(bins) < 1:
        raise InvalidArgumentError(f"keras.ops.histogram: bins must be a positive int; received {bins!r}.")
    x = prepare([x], "float")[0]
    counts, edges = call(_HISTOGRAM, [x], {"bins": hashable(bins), "span": hashable(range)})
    return tensor(counts, dtype_of(x)), edges


_BINCOUNT = Op("bincount", lambda x, w, length: jnp.bincount(x, w, length=length), static=("length",),
               jit=False)


def bincount(x, weights=None, minlength=0, sparse=False):
    """How often each value ``0..max(x)`` occurs in the non-negative integers ``x`` (weighted sums
    with ``weights``); at least ``minlength`` bins. A 2-D ``x`` counts each row."""
    if sparse:
        raise InvalidArgumentError("keras.ops.bincount: sparse=True is not supported; pass sparse=False.")
    x = tensor(x)
    values = np.asarray(x._value)
    if values.dtype.kind not in "iu" or (values < 0).any():
        raise InvalidArgumentError(
            f"keras.ops.bincount expects non-negative integers; received dtype {x.dtype.name} with values "
            f"{values.tolist()}. Cast to an integer dtype and drop negative values.")
    length = max(int(values.max(initial=-1)) + 1, hashable(minlength))
    w = tensor(np.ones(values.shape, np.int32) if weights is None else weights)
    if len(x.shape) == 2:
        rows = [bincount(x[i], None if weights is None else w[i], length) for i in range(x.shape[0])]
        return _NUMPY["stack"](rows)
    return call(_BINCOUNT, [x, w], {"length": length})


def _unique(x, keep_order, flags, axis, size, fill_value):
    values, index, inverse, counts = jnp.unique(x, return_index=True, return_inverse=True, return_counts=True,
                                                axis=axis, size=size, fill_value=fill_value)
    if keep_order:  # the order in which values first appear
        order = jnp.argsort(index)
        values, index, counts = jnp.take(values, order, axis=axis or 0), index[order], counts[order]
        inverse = jnp.argsort(order)[inverse]
    extras = [a.astype(jnp.int32) for a, flag in zip((index, inverse.reshape(-1) if axis is None else inverse,
                                                      counts), flags) if flag]
    return (values, *extras)


_UNIQUE = Op("unique", _unique, jit=False)


def unique(x, sorted=True, return_index=False, return_inverse=False, return_counts=False, axis=None,
           size=None, fill_value=None):
    """The distinct values of ``x`` (flattened, or the distinct slices along ``axis``), sorted or in
    order of first appearance, with optional first indices, inverse indices and counts (int32).

    ``size`` pads (with ``fill_value``) or truncates the result to a fixed length. The output size
    depends on the values, so this runs eagerly (outside `function`) unless ``size`` is given.
    """
    flags = (return_index, return_inverse, return_counts)
    out = call(_UNIQUE, [tensor(x)], {"keep_order": not sorted, "flags": flags, "axis": hashable(axis),
                                      "size": hashable(size), "fill_value": hashable(fill_value)})
    return out if any(flags) else out[0]


_TRAPEZOID = Op("trapezoid", lambda y, x, dx, axis: jnp.trapezoid(y, x, dx, axis), static=("dx", "axis"))
_TRAPEZOID_SPACED = Op("trapezoid", lambda y, dx, axis: jnp.trapezoid(y, dx=dx, axis=axis),
                       static=("dx", "axis"))


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """The integral of ``y`` along ``axis`` by the trapezoidal rule, at points ``x`` (or ``dx`` apart)."""
    params = {"dx": float(hashable(dx)), "axis": axis}
    if x is None:
        return call(_TRAPEZOID_SPACED, prepare([y], "float"), params)
    return call(_TRAPEZOID, prepare([y, x], "float"), params)


def size(x):
    """The number of elements of ``x`` (an int32 scalar tensor)."""
    return tensor(int(np.prod(tensor(x).shape, dtype=np.int64)), INT32)


def ndim(x):
    """The rank of ``x`` (a Python int, as Keras on TF)."""
    return len(tensor(x).shape)


def get_item(x, key):
    """``x[key]``: Python indexing and slicing of a tensor."""
    return tensor(x)[key]
