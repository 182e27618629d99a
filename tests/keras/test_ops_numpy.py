"""keras.ops NumPy-style functions against NumPy: values and Keras's result dtypes."""

import numpy as np
import pytest
import scipy.special

import companion as tf
from companion.keras import ops

RNG = np.random.default_rng(0)
X = np.array([[0.5, -1.5, 2.0], [3.0, 0.25, -0.75]], np.float32)
P = np.array([[0.2, 0.4, 0.9], [0.5, 0.1, 0.7]], np.float32)  # in (0, 1): valid for every unary function
Y = np.array([1.5, -2.0, 0.5], np.float32)
IV = np.array([3, 1, 2], np.int32)
J = np.array([2, 5, 1], np.int32)
B = np.array([True, False, True])
SQ = np.array([[4.0, 1.0], [1.0, 3.0]], np.float32)

UNARY_FLOAT = [
    "arccos",
    "arcsin",
    "arctan",
    "arcsinh",
    "arctanh",
    "cos",
    "cosh",
    "sin",
    "sinh",
    "tan",
    "tanh",
    "exp",
    "exp2",
    "expm1",
    "log",
    "log10",
    "log1p",
    "log2",
    "sqrt",
    "cbrt",
    "deg2rad",
    "rad2deg",
    "sinc",
    "i0",
    "floor",
    "ceil",
    "fabs",
    "reciprocal",
]
UNARY_KEEP = [
    "abs",
    "absolute",
    "negative",
    "sign",
    "square",
    "trunc",
    "conj",
    "conjugate",
    "real",
    "imag",
    "copy",
    "ravel",
    "fliplr",
    "flipud",
    "isfinite",
    "isinf",
    "isnan",
    "isneginf",
    "isposinf",
    "isreal",
    "signbit",
    "logical_not",
    "round",
]
BINARY = [
    "add",
    "subtract",
    "multiply",
    "maximum",
    "minimum",
    "mod",
    "floor_divide",
    "power",
    "fmod",
    "divide",
    "true_divide",
    "arctan2",
    "hypot",
    "logaddexp",
    "logaddexp2",
    "heaviside",
    "nextafter",
    "fmax",
    "fmin",
    "equal",
    "not_equal",
    "greater",
    "greater_equal",
    "less",
    "less_equal",
    "outer",
    "kron",
    "inner",
    "vdot",
    "isclose",
    "append",
]
INT_BINARY = [
    "gcd",
    "lcm",
    "bitwise_and",
    "bitwise_or",
    "bitwise_xor",
    "bitwise_left_shift",
    "bitwise_right_shift",
    "left_shift",
    "right_shift",
]
NP_NAMES = {
    "absolute": "abs",
    "conjugate": "conj",
    "bitwise_left_shift": "left_shift",
    "bitwise_right_shift": "right_shift",
    "bitwise_not": "invert",
    "bitwise_invert": "invert",
}
REDUCTIONS = [
    "sum",
    "prod",
    "mean",
    "var",
    "std",
    "median",
    "max",
    "min",
    "amax",
    "amin",
    "ptp",
    "all",
    "any",
    "argmax",
    "argmin",
    "nanargmax",
    "nanargmin",
    "nansum",
    "nanprod",
    "nanmean",
    "nanvar",
    "nanstd",
    "nanmedian",
    "nanmax",
    "nanmin",
]


def _np(name):
    return getattr(np, NP_NAMES.get(name, name))


def _check(actual, expected, dtype=None, rtol=1e-5):
    if isinstance(expected, (tuple, list)):
        assert len(actual) == len(expected)
        for a, e in zip(actual, expected):
            _check(a, e, rtol=rtol)
        return
    assert isinstance(actual, tf.Tensor), type(actual)
    value = actual.numpy()
    np.testing.assert_allclose(value, np.asarray(expected), rtol=rtol, atol=1e-6)
    assert value.shape == np.shape(expected)
    if dtype is not None:
        assert actual.dtype.name == dtype


@pytest.mark.parametrize("name", UNARY_FLOAT)
def test_float_unary_functions_match_numpy_and_turn_ints_into_float32(name):
    _check(getattr(ops, name)(P), _np(name)(P).astype(np.float32), "float32")
    with np.errstate(all="ignore"):
        expected = _np(name)(np.array([0.0, 2.0])).astype(np.float32)
    _check(getattr(ops, name)(np.array([0, 2], np.int32)), expected, "float32")


@pytest.mark.parametrize("name", UNARY_KEEP)
def test_dtype_keeping_unary_functions_match_numpy(name):
    x = B if name == "logical_not" else X
    _check(getattr(ops, name)(x), _np(name)(x))
    if name in ("abs", "negative", "sign", "square"):
        _check(getattr(ops, name)(IV), _np(name)(IV), "int32")


def test_bitwise_not_angle_and_erf_family():
    _check(ops.bitwise_not(IV), np.invert(IV), "int32")
    _check(ops.bitwise_invert(IV), np.invert(IV), "int32")
    _check(ops.angle(X), np.angle(X), "float32")
    _check(ops.erf(X), scipy.special.erf(X), "float32")
    _check(ops.erfc(X), scipy.special.erfc(X), "float32", rtol=1e-4)
    _check(ops.erfinv(P), scipy.special.erfinv(P), "float32", rtol=1e-4)
    _check(ops.rsqrt(P), 1 / np.sqrt(P), "float32")
    _check(ops.arccosh(P + 1), np.arccosh(P + 1), "float32")


@pytest.mark.parametrize("name", BINARY)
def test_binary_functions_match_numpy(name):
    x = X[0] if name == "vdot" else X
    with np.errstate(all="ignore"):
        _check(getattr(ops, name)(x, Y), _np(name)(x, Y))


@pytest.mark.parametrize("name", INT_BINARY)
def test_integer_binary_functions_match_numpy(name):
    _check(getattr(ops, name)(IV, J), _np(name)(IV, J), "int32")


def test_logical_functions_cast_to_bool():
    for name in ("logical_and", "logical_or", "logical_xor"):
        _check(getattr(ops, name)(IV - 2, B), getattr(np, name)(IV - 2, B), "bool")


@pytest.mark.parametrize(
    ("call", "dtype"),
    [
        (lambda: ops.add(IV, 1.5), "float32"),
        (lambda: ops.add(IV, X[0]), "float32"),
        (lambda: ops.add(np.arange(3), X[0]), "float32"),
        (lambda: ops.add(IV, np.arange(3)), "int64"),
        (lambda: ops.add(1, 2), "int32"),
        (lambda: ops.add(1, 2.0), "float32"),
        (lambda: ops.multiply(B, IV), "int32"),
        (lambda: ops.divide(IV, IV), "float32"),
        (lambda: ops.power(IV, 2), "int32"),
        (lambda: ops.power(IV, 0.5), "float32"),
        (lambda: ops.add(X[0], np.ones(3)), "float64"),
        (lambda: ops.mean(IV), "float32"),
        (lambda: ops.sum(B), "int32"),
        (lambda: ops.sum(np.ones(2, np.uint8)), "uint32"),
        (lambda: ops.sum(np.arange(2)), "int64"),
        (lambda: ops.cumsum(B), "int32"),
        (lambda: ops.argmax(X), "int32"),
        (lambda: ops.square(B), "int32"),
        (lambda: ops.clip(B, 0, 1), "int32"),
        (lambda: ops.max(B), "bool"),
        (lambda: ops.where(B, IV, 1.5), "float32"),
    ],
)
def test_keras_dtype_promotion(call, dtype):
    assert call().dtype.name == dtype


@pytest.mark.parametrize("name", REDUCTIONS)
@pytest.mark.parametrize("kwargs", [{}, {"axis": 1}, {"axis": 0, "keepdims": True}])
def test_reductions_match_numpy(name, kwargs):
    x = X > 0 if name in ("all", "any") else X
    expected = _np(name)(x, **kwargs)
    _check(getattr(ops, name)(x, **kwargs), expected, rtol=1e-5)


def test_reductions_over_several_axes_and_integer_rules():
    cube = RNG.normal(size=(2, 3, 4)).astype(np.float32)
    _check(ops.sum(cube, axis=(0, 2)), cube.sum(axis=(0, 2)), "float32", rtol=1e-5)
    _check(ops.mean(cube, axis=[0, 1], keepdims=True), cube.mean(axis=(0, 1), keepdims=True), rtol=1e-5)
    _check(ops.sum(IV), IV.sum(), "int32")
    _check(ops.mean(IV), IV.mean(), "float32")
    _check(ops.max(X, initial=10.0), 10.0)
    _check(ops.count_nonzero(X > 1), np.count_nonzero(X > 1), "int32")
    _check(ops.count_nonzero(X > 1, axis=0), np.count_nonzero(X > 1, axis=0), "int32")
    _check(ops.logsumexp(X, axis=1), scipy.special.logsumexp(X, axis=1), "float32")
    _check(ops.logsumexp(X, keepdims=True), scipy.special.logsumexp(X, keepdims=True), "float32")


@pytest.mark.parametrize("name", ["cumsum", "cumprod", "nancumsum", "nancumprod"])
def test_cumulative_functions(name):
    _check(getattr(ops, name)(IV, dtype="float32"), _np(name)(IV), "float32")
    _check(getattr(ops, name)(X, axis=1), _np(name)(X, axis=1))
    _check(getattr(ops, name)(IV), _np(name)(IV), "int32")


def test_creation_functions():
    _check(ops.zeros((2, 3)), np.zeros((2, 3)), "float32")
    _check(ops.ones(2, dtype="int32"), np.ones(2), "int32")
    _check(ops.empty((1, 2)), np.zeros((1, 2)), "float32")
    _check(ops.full((2,), 3), np.full(2, 3.0), "float32")
    _check(ops.full_like(IV, 2.5), np.full(3, 2), "int32")
    _check(ops.zeros_like(X), np.zeros_like(X), "float32")
    _check(ops.ones_like(IV, dtype="float16"), np.ones(3), "float16")
    _check(ops.empty_like(IV), np.zeros(3), "int32")
    _check(ops.array([1.5, 2.0]), [1.5, 2.0], "float32")
    _check(ops.array([1, 2], dtype="int64"), [1, 2], "int64")
    _check(ops.eye(3, 4, k=1), np.eye(3, 4, k=1), "float32")
    _check(ops.identity(2, dtype="int32"), np.eye(2), "int32")
    _check(ops.tri(3, k=-1), np.tri(3, k=-1), "float32")
    _check(ops.arange(5), np.arange(5), "int32")
    _check(ops.arange(1.0, 2.0, 0.25), np.arange(1.0, 2.0, 0.25), "float32")
    _check(ops.arange(2, 11, 3, dtype="float32"), np.arange(2, 11, 3), "float32")
    _check(ops.linspace(0, 1, 5), np.linspace(0, 1, 5), "float32")
    values, step = ops.linspace(0.0, 2.0, 5, endpoint=False, retstep=True)
    _check(values, np.linspace(0, 2, 5, endpoint=False))
    assert step.numpy() == pytest.approx(0.4)
    _check(ops.logspace(0, 2, 3), np.logspace(0, 2, 3), "float32")
    _check(ops.geomspace(1, 8, 4), np.geomspace(1, 8, 4), "float32")
    for name in ("bartlett", "blackman", "hamming", "hanning"):
        _check(getattr(ops, name)(5), getattr(np, name)(5), "float32")
    _check(ops.kaiser(5, 2.0), np.kaiser(5, 2.0), "float32", rtol=1e-5)


A3 = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
LAYOUT = {
    "reshape": (lambda: ops.reshape(A3, (4, -1)), lambda: A3.reshape(4, -1)),
    "transpose": (lambda: ops.transpose(A3, (2, 0, 1)), lambda: A3.transpose(2, 0, 1)),
    "expand_dims": (lambda: ops.expand_dims(X, 1), lambda: np.expand_dims(X, 1)),
    "squeeze": (lambda: ops.squeeze(np.ones((1, 3, 1)), axis=0), lambda: np.ones((3, 1))),
    "moveaxis": (lambda: ops.moveaxis(A3, 0, -1), lambda: np.moveaxis(A3, 0, -1)),
    "swapaxes": (lambda: ops.swapaxes(A3, 0, 2), lambda: np.swapaxes(A3, 0, 2)),
    "flip": (lambda: ops.flip(X, axis=1), lambda: np.flip(X, 1)),
    "roll": (lambda: ops.roll(X, 1, axis=1), lambda: np.roll(X, 1, axis=1)),
    "rot90": (lambda: ops.rot90(X), lambda: np.rot90(X)),
    "tile": (lambda: ops.tile(Y, (2, 2)), lambda: np.tile(Y, (2, 2))),
    "repeat": (lambda: ops.repeat(X, 2, axis=0), lambda: np.repeat(X, 2, axis=0)),
    "broadcast_to": (lambda: ops.broadcast_to(Y, (2, 3)), lambda: np.broadcast_to(Y, (2, 3))),
    "diag": (lambda: ops.diag(Y, k=1), lambda: np.diag(Y, k=1)),
    "diagflat": (lambda: ops.diagflat(SQ), lambda: np.diagflat(SQ)),
    "diagonal": (lambda: ops.diagonal(A3, axis1=1, axis2=2), lambda: np.diagonal(A3, axis1=1, axis2=2)),
    "trace": (lambda: ops.trace(A3, axis1=1, axis2=2), lambda: np.trace(A3, axis1=1, axis2=2)),
    "tril": (lambda: ops.tril(X, -1), lambda: np.tril(X, -1)),
    "triu": (lambda: ops.triu(X), lambda: np.triu(X)),
    "diff": (lambda: ops.diff(X, n=2), lambda: np.diff(X, n=2)),
    "vander": (lambda: ops.vander(Y, 3), lambda: np.vander(Y, 3)),
    "sort": (lambda: ops.sort(X, axis=0), lambda: np.sort(X, axis=0)),
    "argsort": (lambda: ops.argsort(X), lambda: np.argsort(X)),
    "argpartition": (
        lambda: ops.sort(ops.take_along_axis(X, ops.argpartition(X, 1), axis=1)[:, :2], axis=1),
        lambda: np.sort(X, axis=1)[:, :2],
    ),
    "concatenate": (lambda: ops.concatenate([X, X], axis=1), lambda: np.concatenate([X, X], 1)),
    "stack": (lambda: ops.stack([IV, J], axis=1), lambda: np.stack([IV, J], 1)),
    "hstack": (lambda: ops.hstack([X, X]), lambda: np.hstack([X, X])),
    "vstack": (lambda: ops.vstack([X, X]), lambda: np.vstack([X, X])),
    "dstack": (lambda: ops.dstack([X, X]), lambda: np.dstack([X, X])),
    "take": (lambda: ops.take(X, [2, 0], axis=1), lambda: np.take(X, [2, 0], axis=1)),
    "take_along_axis": (
        lambda: ops.take_along_axis(X, np.array([[1], [0]]), axis=1),
        lambda: np.take_along_axis(X, np.array([[1], [0]]), axis=1),
    ),
    "searchsorted": (
        lambda: ops.searchsorted(np.array([1.0, 3.0, 5.0]), np.array([2.0, 5.0]), side="right"),
        lambda: np.searchsorted([1.0, 3.0, 5.0], [2.0, 5.0], side="right"),
    ),
    "digitize": (lambda: ops.digitize(Y, [0.0, 1.0]), lambda: np.digitize(Y, [0.0, 1.0])),
    "isin": (lambda: ops.isin(IV, [1, 3]), lambda: np.isin(IV, [1, 3])),
    "allclose": (lambda: ops.allclose(X, X + 1e-9), lambda: np.array(True)),
    "cross": (lambda: ops.cross(X, Y), lambda: np.cross(X, Y)),
    "tensordot": (
        lambda: ops.tensordot(A3, A3, axes=([1, 2], [1, 2])),
        lambda: np.tensordot(A3, A3, axes=([1, 2], [1, 2])),
    ),
    "matmul": (lambda: ops.matmul(X, X.T), lambda: X @ X.T),
    "dot": (lambda: ops.dot(X, Y), lambda: X @ Y),
    "correlate": (
        lambda: ops.correlate(Y, np.array([1.0, 2.0]), mode="full"),
        lambda: np.correlate(Y, [1.0, 2.0], mode="full"),
    ),
    "clip": (lambda: ops.clip(X, -1, 1), lambda: np.clip(X, -1, 1)),
    "nan_to_num": (
        lambda: ops.nan_to_num(np.array([np.nan, np.inf, -np.inf, 1.0]), posinf=9.0),
        lambda: np.nan_to_num(np.array([np.nan, np.inf, -np.inf, 1.0]), posinf=9.0),
    ),
    "divide_no_nan": (
        lambda: ops.divide_no_nan(Y, np.array([0.0, 2.0, 0.0])),
        lambda: np.array([0, -1.0, 0]),
    ),
    "ldexp": (lambda: ops.ldexp(Y, np.array([1, 2, 3])), lambda: np.ldexp(Y, [1, 2, 3])),
    "trapezoid": (lambda: ops.trapezoid(X, dx=0.5), lambda: np.trapezoid(X, dx=0.5)),
    "trapezoid_x": (
        lambda: ops.trapezoid(X, x=np.array([0.0, 1.0, 3.0])),
        lambda: np.trapezoid(X, x=[0, 1, 3]),
    ),
    "prod_dtype": (lambda: ops.prod(IV, dtype="float16"), lambda: np.prod(IV).astype(np.float16)),
    "corrcoef": (lambda: ops.corrcoef(A3[0]), lambda: np.corrcoef(A3[0])),
    "cdist": (
        lambda: ops.cdist(X, SQ[:, :1].repeat(3, 1)),
        lambda: np.sqrt(((X[:, None] - SQ[:, :1].repeat(3, 1)[None]) ** 2).sum(-1)),
    ),
    "nonzero": (lambda: ops.nonzero(np.array([[0, 1], [2, 0]])), lambda: np.nonzero([[0, 1], [2, 0]])),
    "unravel_index": (
        lambda: ops.unravel_index(np.array([1, 5]), (2, 3)),
        lambda: np.stack(np.unravel_index([1, 5], (2, 3))),
    ),
    "where": (lambda: ops.where(X > 0, X, -1.0), lambda: np.where(X > 0, X, -1.0)),
    "select": (
        lambda: ops.select([X > 1, X < 0], [X, -X], default=9.0),
        lambda: np.select([X > 1, X < 0], [X, -X], default=9.0),
    ),
    "split": (lambda: ops.split(A3, 2, axis=2), lambda: np.split(A3, 2, axis=2)),
    "array_split": (lambda: ops.array_split(np.arange(5), 3), lambda: np.array_split(np.arange(5), 3)),
    "hsplit": (lambda: ops.hsplit(A3, [1]), lambda: np.hsplit(A3, [1])),
    "vsplit": (lambda: ops.vsplit(A3, 2), lambda: np.vsplit(A3, 2)),
    "dsplit": (lambda: ops.dsplit(A3, 2), lambda: np.dsplit(A3, 2)),
    "pad": (
        lambda: ops.pad(X, ((1, 0), (2, 1)), constant_values=7.0),
        lambda: np.pad(X, ((1, 0), (2, 1)), constant_values=7.0),
    ),
    "einsum": (lambda: ops.einsum("bij,bkj->bik", A3, A3), lambda: np.einsum("bij,bkj->bik", A3, A3)),
    "meshgrid": (lambda: ops.meshgrid(Y, IV, indexing="ij"), lambda: np.meshgrid(Y, IV, indexing="ij")),
    "average": (lambda: ops.average(X, axis=1, weights=J), lambda: np.average(X, axis=1, weights=J)),
    "quantile": (lambda: ops.quantile(X, [0.25, 0.5], axis=1), lambda: np.quantile(X, [0.25, 0.5], axis=1)),
    "nanquantile": (lambda: ops.nanquantile(np.array([1.0, np.nan, 3.0]), 0.5), lambda: np.array(2.0)),
    "percentile": (
        lambda: ops.percentile(X, 30.0, method="lower"),
        lambda: np.percentile(X, 30, method="lower"),
    ),
    "nanpercentile": (lambda: ops.nanpercentile(np.array([1.0, np.nan, 3.0]), 50.0), lambda: np.array(2.0)),
    "histogram": (
        lambda: ops.histogram(Y, bins=2, range=(-2.0, 2.0)),
        lambda: np.histogram(Y, bins=2, range=(-2.0, 2.0)),
    ),
    "bincount": (
        lambda: ops.bincount(np.array([0, 1, 1, 4]), minlength=6),
        lambda: np.bincount([0, 1, 1, 4], minlength=6),
    ),
    "size": (lambda: ops.size(A3), lambda: np.array(24)),
    "unique": (
        lambda: ops.unique(IV[[0, 1, 2, 1]], return_index=True, return_inverse=True, return_counts=True),
        lambda: np.unique(IV[[0, 1, 2, 1]], return_index=True, return_inverse=True, return_counts=True),
    ),
    "view": (lambda: ops.view(Y, "int32"), lambda: Y.view(np.int32)),
    "view_as_real": (lambda: ops.view_as_real(Y + 2j * Y), lambda: np.stack([Y, 2 * Y], -1)),
    "view_as_complex": (lambda: ops.view_as_complex(X[:, :2]), lambda: X[:, 0] + 1j * X[:, 1]),
    "get_item": (lambda: ops.get_item(A3, (1, slice(None), 2)), lambda: A3[1, :, 2]),
}


@pytest.mark.parametrize("name", sorted(LAYOUT))
def test_layout_and_selection_functions_match_numpy(name):
    ours, reference = LAYOUT[name]
    _check(ours(), reference())


def test_unique_in_order_of_appearance_and_padded():
    _check(ops.unique(np.array([2.0, 1.0, 2.0, 5.0]), sorted=False), [2.0, 1.0, 5.0])
    _check(ops.unique(IV, size=4, fill_value=-1), [1, 2, 3, -1], "int32")
    _check(ops.unique(np.array([[1, 2], [1, 2], [0, 1]]), axis=0), [[0, 1], [1, 2]])


def test_bincount_weights_and_rows_and_ndim():
    _check(ops.bincount(np.array([0, 2]), weights=np.array([0.5, 2.0])), [0.5, 0.0, 2.0])
    _check(ops.bincount(np.array([[0, 1], [1, 1]])), [[1, 1], [0, 2]])
    assert ops.ndim(A3) == 3


NAMES_TESTED_HERE = (
    set(UNARY_FLOAT)
    | set(UNARY_KEEP)
    | set(BINARY)
    | set(INT_BINARY)
    | set(REDUCTIONS)
    | set(LAYOUT)
    | {
        "bitwise_not",
        "bitwise_invert",
        "angle",
        "arccosh",
        "erf",
        "erfc",
        "erfinv",
        "rsqrt",
        "logical_and",
        "logical_or",
        "logical_xor",
        "count_nonzero",
        "logsumexp",
        "cumsum",
        "cumprod",
        "nancumsum",
        "nancumprod",
        "zeros",
        "ones",
        "empty",
        "full",
        "full_like",
        "zeros_like",
        "ones_like",
        "empty_like",
        "array",
        "eye",
        "identity",
        "tri",
        "arange",
        "linspace",
        "logspace",
        "geomspace",
        "bartlett",
        "blackman",
        "hamming",
        "hanning",
        "kaiser",
        "ndim",
    }
)
