"""Keras 3's NumPy-style ops (``keras.ops.numpy``): element-wise math, reductions, comparisons and
array manipulation, each defined from a table row (name, pure JAX function, signature, input rule).
"""

import jax
import jax.numpy as jnp

from companion._ops import _gradient_kernels
from companion.keras.ops._base import FLOATX, define

_INT = jnp.int32


def _index(fn):
    """``fn`` with its integer output as int32 (Keras's index dtype; JAX gives int64 under x64)."""
    def run(*args, **kwargs):
        out = fn(*args, **kwargs)
        return tuple(o.astype(_INT) for o in out) if isinstance(out, (tuple, list)) else out.astype(_INT)
    return run


def _keeping(fn):
    """``fn`` with its output in its first input's dtype (JAX widens integer sums to int64)."""
    return lambda x, *args, **kwargs: fn(x, *args, **kwargs).astype(x.dtype)


def _reduction(fn):
    """A reduction whose ``axis`` may be a list (made a tuple) and whose output keeps the input dtype."""
    return _keeping(lambda x, axis=None, **kwargs: fn(x, axis=axis, **kwargs))


def _accumulation(fn):
    """A sum or product whose output has the input dtype, or ``dtype`` when given (a name or dtype)."""
    def run(x, axis=None, dtype=None, **kwargs):
        out = fn(x, axis=axis, **kwargs)
        return out.astype(x.dtype if dtype is None else jnp.dtype(getattr(dtype, "name", dtype)))
    return run


_UNARY_FLOAT = {
    "arccos": jnp.arccos, "arccosh": jnp.arccosh, "arcsin": jnp.arcsin, "arcsinh": jnp.arcsinh,
    "arctan": jnp.arctan, "arctanh": jnp.arctanh, "cos": jnp.cos, "cosh": jnp.cosh, "sin": jnp.sin,
    "sinh": jnp.sinh, "tan": jnp.tan, "tanh": _gradient_kernels.tanh, "exp": jnp.exp, "exp2": jnp.exp2,
    "expm1": jnp.expm1, "log": jnp.log, "log10": jnp.log10, "log1p": jnp.log1p, "log2": jnp.log2,
    "sqrt": _gradient_kernels.sqrt, "cbrt": jnp.cbrt, "deg2rad": jnp.deg2rad, "rad2deg": jnp.rad2deg,
    "sinc": jnp.sinc, "i0": jnp.i0, "floor": jnp.floor, "ceil": jnp.ceil, "fabs": jnp.fabs,
    "reciprocal": _gradient_kernels.reciprocal,
    "angle": jnp.angle,
}
_UNARY_KEEP = {
    "abs": jnp.abs, "absolute": jnp.abs, "conj": jnp.conj, "conjugate": jnp.conj, "real": jnp.real,
    "imag": jnp.imag, "copy": jnp.copy, "trunc": jnp.trunc, "ravel": jnp.ravel, "fliplr": jnp.fliplr,
    "flipud": jnp.flipud, "bitwise_invert": jnp.invert, "bitwise_not": jnp.invert,
}
_UNARY_NOBOOL = {"negative": jnp.negative, "sign": jnp.sign, "square": jnp.square}
_PREDICATES = {
    "isfinite": jnp.isfinite, "isinf": jnp.isinf, "isnan": jnp.isnan, "isneginf": jnp.isneginf,
    "isposinf": jnp.isposinf, "isreal": jnp.isreal, "signbit": jnp.signbit,
}
_BINARY = {
    "add": jnp.add, "subtract": jnp.subtract, "multiply": jnp.multiply, "maximum": jnp.maximum,
    "minimum": jnp.minimum, "mod": jnp.mod, "floor_divide": jnp.floor_divide, "power": jnp.power,
    "fmod": jnp.fmod, "gcd": jnp.gcd, "lcm": jnp.lcm, "matmul": jnp.matmul, "dot": jnp.dot,
    "inner": jnp.inner, "outer": jnp.outer, "vdot": jnp.vdot, "kron": jnp.kron,
    "bitwise_and": jnp.bitwise_and, "bitwise_or": jnp.bitwise_or, "bitwise_xor": jnp.bitwise_xor,
    "bitwise_left_shift": jnp.left_shift, "bitwise_right_shift": jnp.right_shift,
    "left_shift": jnp.left_shift, "right_shift": jnp.right_shift,
}
_BINARY_FLOAT = {
    "divide": jnp.true_divide, "true_divide": jnp.true_divide, "arctan2": jnp.arctan2, "hypot": jnp.hypot,
    "logaddexp": jnp.logaddexp, "logaddexp2": jnp.logaddexp2, "heaviside": jnp.heaviside,
    "nextafter": jnp.nextafter, "fmax": jnp.fmax, "fmin": jnp.fmin,
}
_COMPARISONS = {
    "equal": jnp.equal, "not_equal": jnp.not_equal, "greater": jnp.greater,
    "greater_equal": jnp.greater_equal, "less": jnp.less, "less_equal": jnp.less_equal,
}
_LOGICAL = {"logical_and": jnp.logical_and, "logical_or": jnp.logical_or, "logical_xor": jnp.logical_xor}
_REDUCE = "x | axis=None, keepdims=False"
# name: (pure function, signature, input rule)
_TABLE = {
    "logical_not": (jnp.logical_not, "x", "bool"),
    "round": (lambda x, decimals: jnp.round(x, decimals), "x | decimals=0", "keep"),
    "nan_to_num": (lambda x, **kw: jnp.nan_to_num(x, **kw), "x | nan=0.0, posinf=None, neginf=None", "keep"),
    "ldexp": (lambda x1, x2: jnp.ldexp(x1, x2.astype(_INT)), "x1, x2", "keep"),
    "divide_no_nan": (lambda x1, x2: jnp.where(x2 == 0, 0, x1 / jnp.where(x2 == 0, 1, x2)).astype(x1.dtype),
                      "x1, x2", "float"),
    "isclose": (lambda x1, x2, **kw: jnp.isclose(x1, x2, **kw),
                "x1, x2 | rtol=1e-05, atol=1e-08, equal_nan=False", "promote"),
    "allclose": (lambda x1, x2, **kw: jnp.allclose(x1, x2, **kw),
                 "x1, x2 | rtol=1e-05, atol=1e-08, equal_nan=False", "promote"),
    "cross": (lambda x1, x2, **kw: jnp.cross(x1, x2, **kw),
              "x1, x2 | axisa=-1, axisb=-1, axisc=-1, axis=None", "promote"),
    "tensordot": (lambda x1, x2, axes: jnp.tensordot(x1, x2, axes), "x1, x2 | axes=2", "promote"),
    "correlate": (lambda x1, x2, mode: jnp.correlate(x1, x2, mode), "x1, x2 | mode='valid'", "float"),
    "clip": (lambda x, lo, hi: jnp.clip(x, lo, hi), "x, x_min, x_max", "nobool"),
    # reductions
    "sum": (_reduction(jnp.sum), _REDUCE, "accumulate"),
    "prod": (_accumulation(jnp.prod), "x | axis=None, keepdims=False, dtype=None", "accumulate"),
    "mean": (_reduction(jnp.mean), _REDUCE, "float"),
    "var": (_reduction(jnp.var), _REDUCE, "float"),
    "std": (_reduction(jnp.std), _REDUCE, "float"),
    "median": (_reduction(jnp.median), _REDUCE, "float"),
    "max": (_reduction(jnp.max), "x | axis=None, keepdims=False, initial=None", "keep"),
    "min": (_reduction(jnp.min), "x | axis=None, keepdims=False, initial=None", "keep"),
    "amax": (_reduction(jnp.max), _REDUCE, "keep"),
    "amin": (_reduction(jnp.min), _REDUCE, "keep"),
    "ptp": (_reduction(jnp.ptp), _REDUCE, "nobool"),
    "all": (lambda x, **kw: jnp.all(x, **kw), _REDUCE, "bool"),
    "any": (lambda x, **kw: jnp.any(x, **kw), _REDUCE, "bool"),
    "argmax": (_index(jnp.argmax), _REDUCE, "keep"),
    "argmin": (_index(jnp.argmin), _REDUCE, "keep"),
    "nanargmax": (_index(jnp.nanargmax), _REDUCE, "keep"),
    "nanargmin": (_index(jnp.nanargmin), _REDUCE, "keep"),
    "nansum": (_reduction(jnp.nansum), _REDUCE, "accumulate"),
    "nanprod": (_reduction(jnp.nanprod), _REDUCE, "accumulate"),
    "nanmean": (_reduction(jnp.nanmean), _REDUCE, "float"),
    "nanvar": (_reduction(jnp.nanvar), _REDUCE, "float"),
    "nanstd": (_reduction(jnp.nanstd), _REDUCE, "float"),
    "nanmedian": (_reduction(jnp.nanmedian), _REDUCE, "float"),
    "nanmax": (_reduction(jnp.nanmax), _REDUCE, "keep"),
    "nanmin": (_reduction(jnp.nanmin), _REDUCE, "keep"),
    "count_nonzero": (_index(lambda x, axis: jnp.count_nonzero(x, axis=axis)), "x | axis=None", "keep"),
    "cumsum": (_accumulation(jnp.cumsum), "x | axis=None, dtype=None", "accumulate"),
    "cumprod": (_accumulation(jnp.cumprod), "x | axis=None, dtype=None", "accumulate"),
    "nancumsum": (_accumulation(jnp.nancumsum), "x | axis=None, dtype=None", "accumulate"),
    "nancumprod": (_accumulation(jnp.nancumprod), "x | axis=None, dtype=None", "accumulate"),
    "logsumexp": (lambda x, **kw: jax.scipy.special.logsumexp(x, **kw), _REDUCE, "float"),  # keras.ops.math
    # shape and layout
    "reshape": (lambda x, newshape: jnp.reshape(x, newshape), "x | newshape", "keep"),
    "transpose": (lambda x, axes: jnp.transpose(x, axes), "x | axes=None", "keep"),
    "expand_dims": (lambda x, axis: jnp.expand_dims(x, axis), "x | axis", "keep"),
    "squeeze": (lambda x, axis: jnp.squeeze(x, axis), "x | axis=None", "keep"),
    "moveaxis": (lambda x, source, destination: jnp.moveaxis(x, source, destination),
                 "x | source, destination", "keep"),
    "swapaxes": (lambda x, axis1, axis2: jnp.swapaxes(x, axis1, axis2), "x | axis1, axis2", "keep"),
    "flip": (lambda x, axis: jnp.flip(x, axis), "x | axis=None", "keep"),
    "roll": (lambda x, shift, axis: jnp.roll(x, shift, axis), "x | shift, axis=None", "keep"),
    "rot90": (lambda array, k, axes: jnp.rot90(array, k, axes), "array | k=1, axes=(0, 1)", "keep"),
    "tile": (lambda x, repeats: jnp.tile(x, repeats), "x | repeats", "keep"),
    "repeat": (lambda x, repeats, axis: jnp.repeat(x, repeats, axis), "x | repeats, axis=None", "keep"),
    "broadcast_to": (lambda x, shape: jnp.broadcast_to(x, shape), "x | shape", "keep"),
    "diag": (lambda x, k: jnp.diag(x, k), "x | k=0", "keep"),
    "diagflat": (lambda x, k: jnp.diagflat(x, k), "x | k=0", "keep"),
    "diagonal": (lambda x, **kw: jnp.diagonal(x, **kw), "x | offset=0, axis1=0, axis2=1", "keep"),
    "trace": (_keeping(lambda x, **kw: jnp.trace(x, **kw)), "x | offset=0, axis1=0, axis2=1", "accumulate"),
    "tril": (lambda x, k: jnp.tril(x, k), "x | k=0", "keep"),
    "triu": (lambda x, k: jnp.triu(x, k), "x | k=0", "keep"),
    "diff": (lambda a, n, axis: jnp.diff(a, n, axis), "a | n=1, axis=-1", "keep"),
    "vander": (lambda x, N, increasing: jnp.vander(x, N, increasing), "x | N=None, increasing=False", "keep"),
    "sort": (lambda x, axis: jnp.sort(x, axis=axis), "x | axis=-1", "keep"),
    "argsort": (_index(lambda x, axis: jnp.argsort(x, axis=axis)), "x | axis=-1", "keep"),
    "argpartition": (_index(lambda x, kth, axis: jnp.argpartition(x, kth, axis)), "x | kth, axis=-1", "keep"),
    "concatenate": (lambda *xs, axis: jnp.concatenate(xs, axis), "[xs] | axis=0", "promote"),
    "stack": (lambda *xs, axis: jnp.stack(xs, axis), "[x] | axis=0", "promote"),
    "hstack": (lambda *xs: jnp.hstack(xs), "[xs]", "promote"),
    "vstack": (lambda *xs: jnp.concatenate(xs, 0), "[xs]", "promote"),  # Keras on TF: 1-D inputs concatenate
    "dstack": (lambda *xs: jnp.dstack(xs), "[xs]", "promote"),
    "append": (lambda x1, x2, axis: jnp.append(x1, x2, axis), "x1, x2 | axis=None", "promote"),
    "take": (lambda x, indices, axis: jnp.take(x, indices, axis, mode="clip"), "x, indices | axis=None",
             "keep"),
    "take_along_axis": (lambda x, indices, axis: jnp.take_along_axis(x, indices, axis, mode="clip"),
                        "x, indices | axis=None", "keep"),
    "searchsorted": (_index(lambda a, v, side: jnp.searchsorted(a, v, side)),
                     "sorted_sequence, values | side='left'", "promote"),
    "digitize": (_index(lambda x, bins: jnp.digitize(x, bins)), "x, bins", "keep"),
    "isin": (lambda x1, x2, **kw: jnp.isin(x1, x2, **kw), "x1, x2 | assume_unique=False, invert=False",
             "promote"),
    "cdist": (lambda x, y: jnp.sqrt(jnp.sum(jnp.square(x[..., :, None, :] - y[..., None, :, :]), -1)),
              "x, y", "float"),
    "corrcoef": (jnp.corrcoef, "x", "float"),
    "bartlett": (lambda x: jnp.bartlett(x).astype(FLOATX), "| x", "keep"),
    "blackman": (lambda x: jnp.blackman(x).astype(FLOATX), "| x", "keep"),
    "hamming": (lambda x: jnp.hamming(x).astype(FLOATX), "| x", "keep"),
    "hanning": (lambda x: jnp.hanning(x).astype(FLOATX), "| x", "keep"),
    "kaiser": (lambda x, beta: jnp.kaiser(x, beta).astype(FLOATX), "| x, beta", "keep"),
    "nonzero": (_index(jnp.nonzero), "x", "keep", False),
    "view_as_real": (lambda x: jnp.stack([jnp.real(x), jnp.imag(x)], -1), "x", "keep"),
    "view_as_complex": (lambda x: jax.lax.complex(x[..., 0], x[..., 1]), "x", "keep"),
    "view": (lambda x, dtype: x if dtype is None else x.view(dtype), "x | dtype=None", "keep"),
    "unravel_index": (_index(lambda indices, shape: jnp.stack(jnp.unravel_index(indices, shape))),
                      "indices | shape", "keep"),
}


def _define_all():
    ops = {}
    for table, spec, rule in ((_UNARY_FLOAT, "x", "float"), (_UNARY_KEEP, "x", "keep"),
                              (_UNARY_NOBOOL, "x", "nobool"), (_PREDICATES, "x", "keep"),
                              (_BINARY, "x1, x2", "promote"), (_BINARY_FLOAT, "x1, x2", "float"),
                              (_COMPARISONS, "x1, x2", "promote"), (_LOGICAL, "x1, x2", "bool")):
        for name, fn in table.items():
            ops[name] = define(name, fn, spec.replace("x1, x2", "x, y") if "shift" in name or name.startswith(
                "bitwise") else spec, rule)
    for name, (fn, spec, rule, *jit) in _TABLE.items():
        ops[name] = define(name, fn, spec, rule, jit=jit[0] if jit else True)
    return ops


OPS = _define_all()
