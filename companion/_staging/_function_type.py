"""``ConcreteFunction.function_type``: the traced signature as an ``inspect.Signature``.

TF 2.21 prints it as ``(x: TensorSpec(shape=(2,), dtype=tf.float32, name=None), scale: Literal[2.0])
-> Dict[['sum', TensorSpec(...)]]``: each parameter annotated with the type it was traced with (a
`TensorSpec` keeps a name the caller gave it), no defaults, the output type as the return annotation.
"""

import inspect

from companion._core._tensor_spec import TensorSpec
from companion._staging._signature_text import output_text, parameters, type_text


class TraceType:
    """A parameter's or the output's type, shown as TF writes it (``Literal[3]``, ``TensorSpec(...)``)."""

    __slots__ = ("text", "value")

    def __init__(self, value, text):
        self.value = value
        self.text = text

    def __repr__(self):
        return self.text

    def __eq__(self, other):
        return isinstance(other, TraceType) and self.text == other.text

    def __hash__(self):
        return hash(self.text)


def function_type(concrete):
    named = getattr(concrete, "_given_names", None) or {}
    rows = []
    for name, kind, value in parameters(concrete):
        rows.append(inspect.Parameter(name, getattr(inspect.Parameter, kind),
                                      annotation=TraceType(value, _with_names(value, named))))
    output = concrete.structured_outputs
    return inspect.Signature(rows, return_annotation=TraceType(output, output_text(output)),
                             __validate_parameters__=False)


def _with_names(value, named):
    """``type_text`` keeping the names callers gave their TensorSpecs (``named``: the names kept)."""
    if isinstance(value, TensorSpec):
        name = value.name if value.name in named else None
        return repr(TensorSpec(value.shape, value.dtype, name))
    if isinstance(value, (list, tuple)) and not hasattr(value, "_fields"):
        parts = ", ".join(_with_names(v, named) for v in value)
        return f"{'Tuple' if isinstance(value, tuple) else 'List'}[{parts}]"
    if isinstance(value, dict):
        return "Dict[" + ", ".join(f"[{k!r}, {_with_names(v, named)}]" for k, v in value.items()) + "]"
    return type_text(value)
