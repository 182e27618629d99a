"""`TensorSpec`: the shape (``None`` for unknown dimensions) and dtype a tensor must have."""

import inspect

import jax

from companion._core import _dtypes
from companion._core._convert import convert_to_tensor
from companion._core._shape import TensorShape


class TensorSpec:
    """Describes a tensor: ``shape`` (``None`` dims match any size) and ``dtype``.

    Example:
        >>> import companion as tf
        >>> spec = tf.TensorSpec(shape=[None, 3], dtype=tf.float32)
        >>> spec
        TensorSpec(shape=(None, 3), dtype=companion.float32, name=None)
        >>> spec.is_compatible_with(tf.zeros([5, 3]))
        True
    """

    __slots__ = ("_shape", "_dtype", "_name")

    def __init__(self, shape, dtype=_dtypes.float32, name=None):
        self._shape = TensorShape(shape)
        self._dtype = _dtypes.as_dtype(dtype)
        self._name = name

    @classmethod
    def from_tensor(cls, tensor, name=None):
        return cls(tensor.shape, tensor.dtype, name)

    @property
    def shape(self):
        return self._shape

    @property
    def dtype(self):
        return self._dtype

    @property
    def name(self):
        return self._name

    def is_compatible_with(self, other):
        """True if ``other`` (a tensor or spec) has this dtype and a compatible shape."""
        return other.dtype == self._dtype and self._shape.is_compatible_with(other.shape)

    def __eq__(self, other):
        return (isinstance(other, TensorSpec) and self._shape == other._shape
                and self._dtype == other._dtype and self._name == other._name)

    def __hash__(self):
        return hash((self._shape, self._dtype, self._name))

    def __repr__(self):
        return f"TensorSpec(shape={self._shape}, dtype={self._dtype!r}, name={self._name!r})"

    def _abstract(self):
        """A ``jax.ShapeDtypeStruct``; needs every dimension known."""
        if not self._shape.is_fully_defined():
            raise ValueError(f"Cannot trace with {self!r}: its shape has unknown dimensions. JAX "
                             "compiles for concrete shapes; call the function with a tensor instead.")
        return jax.ShapeDtypeStruct(tuple(self._shape), self._dtype._np)


def check_signature(name, signature, bindable, args, kwargs):
    """Converts the call's ``args``/``kwargs`` to tensors matching ``signature``, or explains the mismatch.

    ``bindable`` is ``bindable_signature(signature, parameters)``, made once per function: through
    it arguments can come by name, and the parameters after the signature's keep their defaults,
    as TF's (a different value for one is refused). Errors start with TF's sentence ("Binding
    inputs to tf.function failed due to ...").

    Raises:
        TypeError: missing, extra or repeated arguments, or a value incompatible with its spec.
    """
    try:
        bound = bindable.bind(*args, **kwargs)
    except TypeError as error:
        raise _binding_error(error, args, kwargs, bindable, "Pass one value for each parameter of the "
                             f"signature of {name}.") from None
    converted = []
    for spec, parameter in zip(signature, bindable.parameters.values()):
        arg = bound.arguments[parameter.name]
        tensor = arg if isinstance(arg, TensorSpec) else _convert(arg, spec, convert_to_tensor)
        if tensor is None or not spec.is_compatible_with(tensor):
            got = repr(arg) if tensor is None else repr(TensorSpec(tensor.shape, tensor.dtype))
            raise _binding_error(f"Can not cast {got} to {spec!r}", args, kwargs, bindable,
                                 f"{name}'s argument {parameter.name!r} needs a value of that dtype and a "
                                 "shape that matches (None dimensions match any size).")
        converted.append(tensor)
    for parameter in list(bindable.parameters.values())[len(signature):]:
        passed = bound.arguments.get(parameter.name, parameter.default)
        if not _same(passed, parameter.default):
            raise _binding_error(f"Can not cast {passed!r} to "
                                 f"Literal[{parameter.default!r}]", args, kwargs, bindable,
                                 f"{parameter.name!r} is not in the input_signature of {name}, so it keeps "
                                 "its default; add a TensorSpec for it to pass other values.")
    return tuple(converted)


def has_per_replica_spec(signature):
    """Whether an input signature holds a per-replica spec (a distributed dataset's element_spec)."""
    if isinstance(signature, (list, tuple)):
        return any(has_per_replica_spec(x) for x in signature)
    if isinstance(signature, dict):
        return any(has_per_replica_spec(x) for x in signature.values())
    return getattr(signature, "_is_per_replica_spec", False)


def check_per_replica_signature(name, signature, args, kwargs):
    """Checks a call against a signature holding per-replica specs: positional arguments, each of
    the structure of its spec, every value compatible with its spec.

    Raises:
        TypeError: TF's "Binding inputs to tf.function failed" error for the first mismatch.
    """
    def mismatch(value, spec):
        if isinstance(spec, (list, tuple)):
            if not isinstance(value, (list, tuple)) or len(value) != len(spec):
                return value, spec
            return next((m for m in map(mismatch, value, spec) if m), None)
        if isinstance(spec, dict):
            if not isinstance(value, dict) or set(value) != set(spec):
                return value, spec
            return next((m for m in (mismatch(value[k], spec[k]) for k in spec) if m), None)
        if getattr(spec, "_is_per_replica_spec", False):
            return None if spec.is_compatible_with(value) else (value, spec)
        tensor = value if isinstance(value, TensorSpec) else _convert(value, spec, convert_to_tensor)
        return None if tensor is not None and spec.is_compatible_with(tensor) else (value, spec)

    positional = not kwargs and len(args) == len(signature)
    found = mismatch(tuple(args), tuple(signature)) if positional else (args, signature)
    if found is not None:
        raise TypeError(f"Binding inputs to tf.function failed due to `Can not cast {found[0]!r} to "
                        f"{found[1]!r}`. {name}'s arguments must match its input_signature "
                        f"{list(signature)!r} (pass them positionally).")


def bindable_signature(signature, parameters):
    """An ``inspect.Signature`` to bind calls with: the function's first parameters (from
    ``parameters``, its ``inspect.Signature`` or None) annotated with their specs (no defaults), the
    later ones with their defaults; positional ``arg0, arg1, ...`` for a function whose parameters
    cannot be read or that takes ``*args``."""
    specs = list(signature)
    listed = list(parameters.parameters.values()) if parameters is not None else []
    plain = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    if len(listed) < len(specs) or any(p.kind not in plain for p in listed[:len(specs)]):
        only = inspect.Parameter.POSITIONAL_ONLY
        return inspect.Signature([inspect.Parameter(f"arg{i}", only, annotation=spec)
                                  for i, spec in enumerate(specs)])
    covered = [p.replace(annotation=spec, default=inspect.Parameter.empty) for p, spec in zip(listed, specs)]
    later = [p.replace(annotation=inspect.Parameter.empty) for p in listed[len(specs):]
             if p.kind not in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)]
    return inspect.Signature(covered + later)


def _binding_error(reason, args, kwargs, bindable, hint):
    shown = []
    for parameter in bindable.parameters.values():
        if parameter.annotation is not inspect.Parameter.empty:
            shown.append(f"{parameter.name}: {parameter.annotation!r}")
        elif parameter.default is not inspect.Parameter.empty:
            shown.append(f"{parameter.name}: Literal[{parameter.default!r}] = <captured_default_value>")
        else:
            shown.append(parameter.name)
    return TypeError(f"Binding inputs to tf.function failed due to `{reason}`. Received args: "
                     f"{tuple(args)!r} and kwargs: {dict(kwargs)!r} for signature: ({', '.join(shown)}). "
                     f"{hint}")


def _same(value, default):
    try:
        return value is default or bool(value == default)
    except Exception:  # noqa: BLE001 - an object whose == is not a plain bool is not the default
        return False


def _convert(arg, spec, convert_to_tensor):
    try:
        return convert_to_tensor(arg, dtype=spec.dtype)
    except (TypeError, ValueError):
        try:
            return convert_to_tensor(arg)
        except (TypeError, ValueError):
            return None
