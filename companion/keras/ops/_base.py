"""Shared machinery of `companion.keras.ops`: Keras 3's dtype rules and the table-driven op wrappers.

Keras 3 promotes dtypes as JAX does (``int32 + float32 -> float32``, a Python float is weak), but
Python scalars on their own give ``int32``/``float32`` rather than 64-bit types, and functions such
as ``sin`` or ``mean`` turn integer inputs into ``float32`` (Keras's ``floatx``). Each op here is
a pure JAX function under `op` (so it runs eagerly, in `function` and under `GradientTape` like
any companion op), described by a signature string and an input rule (`define`).
"""

import ast
import inspect

import jax.numpy as jnp
import numpy as np

from companion._core import _dtypes
from companion._core._convert import as_input, convert_to_tensor, is_tensor
from companion._core._errors import InvalidArgumentError, InvalidArgumentTypeError
from companion._core._op import Op
from companion._ops._math import cast as _cast
from companion.keras._functional._keras_tensor import is_symbolic, symbolic_op

FLOATX = np.dtype("float32")
INT32 = np.dtype("int32")
_NARROW = {np.dtype("float64"): FLOATX, np.dtype("int64"): INT32,
           np.dtype("complex128"): np.dtype("complex64")}
_ACCUMULATE = {np.dtype("bool"): INT32, np.dtype("int8"): INT32, np.dtype("int16"): INT32,
               np.dtype("uint8"): np.dtype("uint32"), np.dtype("uint16"): np.dtype("uint32")}


def dtype_of(value):
    """The NumPy dtype of ``value``; None for a Python scalar (a weak type in promotion)."""
    if is_tensor(value):
        return np.dtype(value.dtype.as_numpy_dtype)
    if isinstance(value, (np.ndarray, np.generic)):
        return value.dtype
    if isinstance(value, (bool, int, float, complex)):
        return None
    return np.dtype(convert_to_tensor(value).dtype.as_numpy_dtype)


def result_dtype(*values):
    """Keras's ``result_type``: JAX's promotion lattice, Python scalars weak, 32-bit defaults."""
    parts, strong = [], set()
    for value in values:
        dtype = dtype_of(value)
        parts.append(value if dtype is None else dtype)
        if dtype is not None:
            strong.add(dtype)
    dtype = np.dtype(jnp.result_type(*parts))
    if dtype in _NARROW and dtype not in strong:
        dtype = _NARROW[dtype]
    return dtype


def standardize(dtype):
    """A NumPy dtype from a Keras dtype argument (a string, a NumPy or companion dtype), or None."""
    if dtype is None:
        return None
    if hasattr(dtype, "as_numpy_dtype"):
        return np.dtype(dtype.as_numpy_dtype)
    try:
        return np.dtype(_dtypes.as_dtype(dtype).as_numpy_dtype)
    except (TypeError, ValueError, KeyError):
        raise InvalidArgumentTypeError(
            f"keras.ops: {dtype!r} is not a dtype. Pass a dtype name such as 'float32' or 'int32', "
            "a NumPy dtype or a companion dtype.") from None


def tensor(value, dtype=None):
    """``value`` as a Tensor (Variables are kept, so tapes see the read), cast to ``dtype`` if given."""
    out = as_input(value)
    if dtype is not None and np.dtype(out.dtype.as_numpy_dtype) != np.dtype(dtype):
        out = _cast(out, _dtypes.as_dtype(np.dtype(dtype)))
    return out


def float_dtype(dtype):
    """Keras's rule for float-valued functions: integers and booleans compute in ``floatx``."""
    return FLOATX if dtype.kind in "biu" else dtype


def prepare(values, rule):
    """Tensors for ``values`` under an input rule.

    ``keep``: converted as they are; ``promote``: cast to their common Keras dtype; ``float``:
    promoted, then integers to float32; ``accumulate``: promoted, then small integers and booleans
    to (u)int32 (sums and products); ``bool``: cast to bool.
    """
    if rule == "keep":
        return [tensor(v) for v in values]
    if rule == "bool":
        return [tensor(v, np.dtype("bool")) for v in values]
    dtype = result_dtype(*values)
    if rule == "float":
        dtype = float_dtype(dtype)
    elif rule == "accumulate":
        dtype = _ACCUMULATE.get(dtype, dtype)
    elif rule == "nobool" and dtype == np.dtype("bool"):
        dtype = INT32
    return [tensor(v, dtype) for v in values]


def hashable(value):
    """A static parameter as a hashable value: lists become tuples, concrete Tensors Python values."""
    if is_tensor(value):
        value = np.asarray(value._value)
        return value.item() if value.ndim == 0 else hashable(value.tolist())
    if isinstance(value, np.ndarray):
        return hashable(value.tolist())
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (list, tuple)):
        return tuple(hashable(v) for v in value)
    return value


def _parse(spec):
    """``"x1, x2 | axis=None"`` -> tensor names, static names and an `inspect.Signature`.

    A tensor name in brackets (``[xs]``) is a sequence of tensors.
    """
    tensors, _, statics = spec.partition("|")
    tensor_names = [p.strip().strip("[]") for p in tensors.split(",") if p.strip()]
    arguments = ast.parse(f"def f({statics}): pass").body[0].args
    defaults = [inspect.Parameter.empty] * (len(arguments.args) - len(arguments.defaults)) + [
        ast.literal_eval(d) for d in arguments.defaults]
    static_names = [a.arg for a in arguments.args]
    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    params = [inspect.Parameter(n, kind) for n in tensor_names] + [
        inspect.Parameter(n, kind, default=d) for n, d in zip(static_names, defaults)]
    return tensor_names, static_names, inspect.Signature(params), "[" in tensors


def define(name, fn, spec, rule="promote", doc=None, jit=True):
    """A Keras op ``name`` running the pure ``fn`` (JAX arrays in, arrays out).

    ``spec`` is the Keras signature: tensor parameters, then ``|`` and the static ones with their
    defaults; ``rule`` says how tensor inputs are converted (`prepare`). ``jit=False`` for ops whose
    output shape depends on values (``nonzero``), which then run eagerly only.
    """
    tensor_names, static_names, signature, is_list = _parse(spec)
    pure = Op(name, fn, static=tuple(static_names), jit=jit)

    def apply(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        values = list(bound.arguments[tensor_names[0]]) if is_list else [
            bound.arguments[n] for n in tensor_names]
        try:
            tensors = prepare(values, rule)
        except ValueError:  # checked only here: the eager path pays nothing for the functional API
            if not is_symbolic(values):
                raise
            return symbolic_op(op_class, apply, bound.args, bound.kwargs)
        params = {n: hashable(bound.arguments[n]) for n in static_names}
        return call(pure, tensors, params)

    op_class = "".join(part.capitalize() for part in name.split("_"))  # Keras 3's: expand_dims -> ExpandDims

    apply.__name__ = name
    apply.__qualname__ = name
    apply.__signature__ = signature
    apply.__doc__ = doc or f"Keras's ``keras.ops.{name}{signature}`` (NumPy semantics), as a companion op."
    apply.op = pure
    return apply


def call(pure, tensors, params):
    """Applies ``pure``; JAX's shape and type complaints become `InvalidArgumentError` naming the inputs."""
    try:
        return pure(*tensors, **params)
    except InvalidArgumentError:
        raise
    except (TypeError, ValueError, IndexError) as error:
        shapes = [tuple(t.shape) for t in tensors]
        dtypes = [t.dtype.name for t in tensors]
        raise InvalidArgumentError(
            f"keras.ops.{pure.name} cannot run on inputs of shapes {shapes} and dtypes {dtypes} "
            f"with arguments {params}: {str(error).rstrip('.')}. Check that the shapes broadcast (or match "
            "as the op requires) and that axes are within each input's rank.") from None
