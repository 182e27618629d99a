"""Calling a `ConcreteFunction` directly: its arguments bound as TF 2.21 binds them.

TF tries two signatures in turn:

1. the *structured* one, the Python function's parameters with the values it was traced with
   (``structured_input_signature``): every parameter must be passed, defaults included (``cf(x, y,
   scale=2.0)``); tensors must fit their `TensorSpec` (Python values convert), Variables their
   `VariableSpec` (any Variable of that spec: the program then reads and writes it), other Python
   values must equal the traced ones;
2. the *flat* one, its graph's inputs by their placeholder names (``cf(x=..., yy=...)``, ``yy`` a
   `TensorSpec`'s own name; ``d``, ``d_1`` for the leaves of a dict ``d``), positionally or by name.

If neither binds, a TypeError says why each failed.
"""

import inspect

import numpy as np

from companion._core import _nest
from companion._core._convert import convert_to_tensor
from companion._core._errors import InvalidArgumentError
from companion._core._tensor import Tensor
from companion._core._tensor_spec import TensorSpec
from companion._core._variable_spec import VariableSpec
from companion._staging._dataset_specs import covers as dataset_covers
from companion._staging._dataset_specs import dataset_spec, is_dataset, is_dataset_spec, is_string_tensor
from companion._staging._signature_text import signature_line


def bind_call(concrete, args, kwargs, check_flat):
    """``(flat tensors, Variable arguments or None, datasets or None)`` of ``concrete(*args, **kwargs)``.

    ``check_flat(name, specs, values)`` converts and checks the flat path's tensors (its dtypes).
    """
    structured = _bind_structured(concrete, args, kwargs)
    if not isinstance(structured, str):
        return structured
    flat = _bind_flat(concrete, args, kwargs, check_flat)
    if not isinstance(flat, str):
        return flat
    raise TypeError(f"Binding inputs to tf.function failed due to `{structured}`. Received args: {args!r} "
                    f"and kwargs: {kwargs!r} for signature: {signature_line(concrete)}.\nFallback to flat "
                    f"signature also failed due to: {flat}")


def flat_inputs(concrete):
    """``[(leaf index, spec, name)]``: the graph's inputs (tensors, Variable arguments) in flat order."""
    _, specs, _ = concrete._signature
    graph_names = concrete._graph_names
    return [(i, spec, graph_names.get(i, "Placeholder:0").rsplit(":", 1)[0]) for i, spec in enumerate(specs)
            if isinstance(spec, (TensorSpec, VariableSpec))]


def _bind_structured(concrete, args, kwargs):
    """The bound arguments, or the reason they do not bind (a str)."""
    signature = getattr(concrete, "_python_signature", None)
    if signature is None:
        return "the traced function has no readable Python signature"
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError as error:
        return str(error)
    for parameter in signature.parameters.values():
        if parameter.name not in bound.arguments and parameter.kind not in (
                inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD):
            return f"missing a required argument: {parameter.name!r}"
    named = bound.kwargs
    call = (bound.args, dict(sorted(named.items())) if len(named) > 1 else named)
    treedef, specs, _ = concrete._signature
    try:  # a value where a tensor was traced is taken whole (a list converts to a tensor)
        leaves = treedef.flatten_up_to(call)
    except (ValueError, TypeError) as error:
        return f"the arguments' structure is not the traced one: {error}"
    tensors, aliases, staged_with = [], {}, []
    by_value = getattr(concrete, "stages_by_value", False)  # strings: any value, staged again for it
    for index, (leaf, spec) in enumerate(zip(leaves, specs)):
        if by_value and is_string_tensor(spec):
            string_spec = TensorSpec(concrete.string_shapes.get(index, spec.shape), spec.dtype)
            string = _as_tensor(leaf, string_spec)
            if string is None and isinstance(leaf, Tensor) and leaf.dtype != spec.dtype:
                raise InvalidArgumentError(  # TF: the string placeholder is fed another dtype
                    f"cannot compute {concrete.name} as input #{index}(zero-based) was expected to be a "
                    f"string tensor but is a {leaf.dtype.name} tensor. Pass a string tensor, or trace the "
                    "function for this dtype by calling it.")
            if string is None:
                return f"{leaf!r} does not fit {string_spec!r}"
            staged_with.append(string)
        elif isinstance(spec, TensorSpec):
            tensor = _as_tensor(leaf, spec)
            if tensor is None:
                return f"{leaf!r} does not fit {spec!r}"
            tensors.append(tensor)
        elif is_dataset_spec(spec):
            if is_dataset(leaf) and not dataset_covers(spec, dataset_spec(leaf)):
                # TF: the dataset (a variant tensor) binds by the flat signature, then fails to run
                raise InvalidArgumentError(f"{concrete.name} was traced for datasets of "
                                           f"{spec.element_spec!r}; this one's elements are "
                                           f"{leaf.element_spec!r}. Call the function to trace it for them.")
            if not is_dataset(leaf):
                return f"{leaf!r} does not fit {spec!r}"
            staged_with.append(leaf)
        elif isinstance(spec, VariableSpec):
            alias = spec.alias_id
            if not spec.is_compatible_with(leaf) or aliases.setdefault(id(leaf), alias) != alias \
                    or list(aliases.values()).count(alias) > 1:
                return f"{leaf!r} does not fit {spec!r}"
        elif not _same_value(leaf, spec):
            return f"Can not cast {leaf!r} to Literal[{spec!r}]"  # (TF's words for a Python value)
    return tensors, _distinct_variables(leaves, specs), staged_with or None


def _bind_flat(concrete, args, kwargs, check_flat):
    inputs = flat_inputs(concrete)
    names = [name for _, _, name in inputs]
    summary = f"{concrete.name}({', '.join(names)})"
    if len(args) > len(inputs):
        return f"{summary} takes {len(inputs)} positional arguments, got {len(args)}."
    values, remaining, missing = list(args), dict(kwargs), []
    for name in names[len(args):]:
        if name in remaining:
            values.append(remaining.pop(name))
        else:
            missing.append(name)
    if missing:
        return f"{summary} missing required arguments: {', '.join(sorted(missing))}."
    if remaining:
        return f"{summary} got unexpected keyword arguments: {', '.join(sorted(remaining))}."
    for index, value in enumerate(values):
        if _nest.is_nested(value):
            return f"{summary}: expected argument #{index}(zero-based) to be a Tensor; got " \
                   f"{type(value).__name__} ({value!r})."
    tensor_specs, tensor_values, variables = [], [], []
    for index, ((_, spec, _), value) in enumerate(zip(inputs, values)):
        if isinstance(spec, VariableSpec):
            if not getattr(value, "_is_variable", False) or value.dtype != spec.dtype:
                got = getattr(value, "dtype", None)
                raise InvalidArgumentError(
                    f"cannot compute {concrete.name} as input #{index}(zero-based) was expected to be a "
                    f"resource tensor (a {spec.dtype.name} Variable) but is a "
                    f"{got.name if got is not None else type(value).__name__} tensor. Pass a Variable.")
            variables.append(value)
        else:
            tensor_specs.append(spec)
            tensor_values.append(value)
    tensors = check_flat(concrete.name, tensor_specs, tensor_values)
    distinct = list({id(v): v for v in variables}.values())
    return tensors, distinct or None, None


def _as_tensor(value, spec):
    """``value`` as a tensor fitting ``spec`` (dtype, compatible shape), or None."""
    if getattr(value, "_is_variable", False):
        value = value.value()
    if not isinstance(value, Tensor):
        try:
            value = convert_to_tensor(value, dtype=spec.dtype)
        except (TypeError, ValueError):
            return None
    if value.dtype != spec.dtype or not spec.shape.is_compatible_with(value.shape):
        return None
    return value


def _same_value(value, traced):
    if value is traced:
        return True
    if isinstance(traced, Tensor) or isinstance(value, Tensor):  # a string tensor, traced by value
        try:
            a, b = np.asarray(getattr(value, "_value", value)), np.asarray(getattr(traced, "_value", traced))
        except Exception:  # noqa: BLE001 - not an array: not the value
            return False
        return a.shape == b.shape and bool(np.all(a == b))
    try:
        hash(traced)
    except TypeError:
        return False  # an unhashable object is its identity
    try:
        return type(value) is type(traced) and bool(value == traced) or (
            _is_number(value) and _is_number(traced) and value == traced)
    except Exception:  # noqa: BLE001 - an object whose == does not give a truth value
        return False


def _is_number(x):
    return isinstance(x, (int, float, complex, np.number))


def _distinct_variables(leaves, specs):
    distinct = {}
    for leaf, spec in zip(leaves, specs):
        if isinstance(spec, VariableSpec):
            distinct.setdefault(id(leaf), leaf)
    return list(distinct.values()) or None
