"""One saved program: a `function` with an input signature, staged once with symbolic ``None``
dimensions and serialized with ``jax.export``, so that loading needs none of the Python source.

The exported program takes ``(variable_values, *inputs)`` and returns the flat output tensors
followed by the final values of the Variables it assigns. Its output structure (dicts, lists,
tuples of tensors, and Python constants) is kept as JSON beside it (`encode_tree`).
"""

import inspect

import jax
from jax import export

from companion import _staging
from companion._core._tensor import Tensor
from companion._core._tensor_spec import TensorSpec
from companion._staging._concrete_function import SignatureInput


class SavedProgram:
    """What `save` writes for one function: the serialized program and how to call it."""

    def __init__(self, serialized, inputs, outputs, variables, written):
        self.serialized = serialized  # bytes from jax.export
        self.inputs = inputs  # [TensorSpec] with names, in call order
        self.outputs = outputs  # the output structure, encoded (see encode_tree)
        self.variables = variables  # the Variables the program reads, in argument order
        self.written = written  # the Variables it assigns, in output order


def export_function(function):
    """Stages ``function`` (a `companion.function` with an ``input_signature``) for saving."""
    specs = list(function.input_signature)
    names = _parameter_names(function, len(specs))
    scope = export.SymbolicScope()
    avals, counter = [], 0
    for spec in specs:
        dims = spec.shape.as_list() if spec.shape.rank is not None else None
        if dims is None:
            raise ValueError(f"saved_model.save: the input signature of {function.__name__!r} has a spec of "
                             f"unknown rank ({spec}); give each TensorSpec a shape (None for unknown sizes).")
        text = []
        for d in dims:
            text.append(f"d{counter}" if d is None else str(d))
            counter += d is None
        shape = export.symbolic_shape(",".join(text), scope=scope) if text else ()
        avals.append(jax.ShapeDtypeStruct(shape, spec.dtype._np))
    info = {}
    python = function._callable()

    def flat_fn(*arrays):
        # inputs report the signature's shape (None dims), as while tracing a function
        out = python(*[SignatureInput(a, spec.shape) for a, spec in zip(arrays, specs)])
        leaves = []
        info["outputs"] = encode_tree(out, leaves)
        return [leaf._value for leaf in leaves]

    trace = _staging.Trace(allow_create=False, owner=function.__name__)
    staged = _staging.stage(flat_fn, avals, trace)

    def program(variable_values, *args):
        return staged.evaluate(args, variable_values)

    variable_avals = [jax.ShapeDtypeStruct(tuple(v._v.shape), v._v.dtype) for v in staged.variables]
    exported = export.export(jax.jit(program))(variable_avals, *avals)
    inputs = [TensorSpec(spec.shape, spec.dtype, spec.name or name) for spec, name in zip(specs, names)]
    return SavedProgram(bytes(exported.serialize()), inputs, info["outputs"], list(staged.variables),
                        list(staged.written))


def _parameter_names(function, count):
    try:
        params = [p.name for p in inspect.signature(function.python_function).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        params = []
    params += [f"arg_{i}" for i in range(len(params), count)]
    return params[:count]


def encode_tree(value, leaves):
    """A JSON description of ``value``'s structure; its tensors are appended to ``leaves``."""
    if isinstance(value, Tensor) or getattr(value, "_is_variable", False):
        leaves.append(value if isinstance(value, Tensor) else value.value())
        return {"tensor": len(leaves) - 1}
    if isinstance(value, dict):
        return {"dict": [[str(k), encode_tree(v, leaves)] for k, v in value.items()]}
    if isinstance(value, (list, tuple)):
        return {"list" if isinstance(value, list) else "tuple": [encode_tree(v, leaves) for v in value]}
    if value is None or isinstance(value, (bool, int, float, str)):
        return {"value": value}
    raise TypeError(f"saved_model.save: a saved function must return tensors, or dicts, lists and tuples "
                    f"of them. Received a {type(value).__name__}: {value!r}")


def decode_tree(code, tensors):
    """The structure `encode_tree` described, filled with ``tensors``."""
    if "tensor" in code:
        return tensors[code["tensor"]]
    if "dict" in code:
        return {k: decode_tree(v, tensors) for k, v in code["dict"]}
    if "list" in code:
        return [decode_tree(v, tensors) for v in code["list"]]
    if "tuple" in code:
        return tuple(decode_tree(v, tensors) for v in code["tuple"])
    return code["value"]
