"""A concrete function's signature as TF 2.21 writes it (``print(concrete)``,
``pretty_printed_concrete_signatures()``)::

    Input Parameters:
      x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(None,), dtype=tf.float32, name=None)
      training (POSITIONAL_OR_KEYWORD): Literal[False]
    Output Type:
      List[TensorSpec(shape=(None,), dtype=tf.float32, name=None)]
    Captures:
      140080212607632: TensorSpec(shape=(), dtype=tf.resource, name=None)

Tensors are their `TensorSpec` (unnamed), Python values ``Literal[value]``, and structures
``Tuple[...]``, ``List[...]``, ``Dict[['key', type], ...]``; each Variable the program reads is a
captured resource, named by its id (TF's too are run-dependent).
"""

import inspect
import numbers

from companion._core._convert import infer_dtype
from companion._core._tensor_spec import TensorSpec
from companion._core._variable_spec import VariableSpec


def type_text(value):
    """One value's type as TF writes it in a signature."""
    if isinstance(value, TensorSpec):
        return repr(TensorSpec(value.shape, value.dtype))
    if isinstance(value, VariableSpec) or type(value).__name__ == "DatasetSpec":
        return repr(value)
    shape, dtype = getattr(value, "shape", None), getattr(value, "dtype", None)
    if shape is not None and dtype is not None and not isinstance(value, (list, tuple, dict)):
        return repr(TensorSpec(shape, dtype))  # an output's symbolic tensor
    if isinstance(value, tuple):
        return f"Tuple[{', '.join(type_text(v) for v in value)}]"
    if isinstance(value, list):
        return f"List[{', '.join(type_text(v) for v in value)}]"
    if isinstance(value, dict):
        return "Dict[" + ", ".join(f"[{k!r}, {type_text(v)}]" for k, v in value.items()) + "]"
    return f"Literal[{value!r}]"


def output_text(value):
    """An output's type: Python numbers a function returns become tensors, as TF's do."""
    if isinstance(value, numbers.Number) and not isinstance(value, bool):
        return repr(TensorSpec((), infer_dtype(value)))
    if isinstance(value, (list, tuple)):
        parts = ", ".join(output_text(v) for v in value)
        return f"{'Tuple' if isinstance(value, tuple) else 'List'}[{parts}]"
    if isinstance(value, dict):
        return "Dict[" + ", ".join(f"[{k!r}, {output_text(v)}]" for k, v in value.items()) + "]"
    return type_text(value)


def parameters(concrete):
    """``[(name, kind, value)]``: each parameter of the traced function with what it was bound to."""
    args, kwargs = concrete.structured_input_signature
    signature = getattr(concrete, "_python_signature", None)
    listed = [p for p in signature.parameters.values()] if signature is not None else []
    positional = [p for p in listed if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    star = next((p for p in listed if p.kind == p.VAR_POSITIONAL), None)
    rows = []
    for index, value in enumerate(args):
        if index < len(positional):
            # before a *args, TF's function type takes the parameters by position only
            kind = inspect.Parameter.POSITIONAL_ONLY if star is not None else positional[index].kind
            rows.append((positional[index].name, kind.name, value))
        else:
            name = f"{star.name}_{index - len(positional)}" if star is not None else f"args_{index}"
            rows.append((name, inspect.Parameter.POSITIONAL_ONLY.name, value))
    kinds = {p.name: p.kind.name for p in listed}
    for name, value in kwargs.items():
        rows.append((name, kinds.get(name, inspect.Parameter.KEYWORD_ONLY.name), value))
    return rows


def signature_block(concrete):
    """The multi-line text of ``print(concrete)`` after its ``ConcreteFunction `` prefix."""
    lines = ["Input Parameters:"]
    lines += [f"  {name} ({kind}): {type_text(value)}" for name, kind, value in parameters(concrete)]
    lines += ["Output Type:", f"  {output_text(concrete.structured_outputs)}", "Captures:"]
    captured = [f"  {id(v)}: TensorSpec(shape=(), dtype=tf.resource, name=None)"
                for v in concrete.captured_inputs]
    lines += captured or ["  None"]
    return "\n".join(lines)


def signature_line(concrete):
    """The one line of ``repr(concrete)``: ``(x: TensorSpec(...), training: Literal[False]) -> ...``."""
    rows = parameters(concrete)
    outputs = output_text(concrete.structured_outputs)
    kinds = type(inspect.Parameter.POSITIONAL_ONLY)
    try:  # Python's form, as TF's: ``/`` after positional-only parameters, ``*`` before keyword-only
        listed = [inspect.Parameter(name, kinds[kind], annotation=_Shown(type_text(value)))
                  for name, kind, value in rows]
        return str(inspect.Signature(listed, return_annotation=_Shown(outputs)))
    except ValueError:  # keyword arguments bound out of Python's parameter order
        return f"({', '.join(f'{name}: {type_text(value)}' for name, _, value in rows)}) -> {outputs}"


class _Shown:
    """An annotation that `inspect.Signature` writes as the given text."""

    def __init__(self, text):
        self._text = text

    def __repr__(self):
        return self._text
