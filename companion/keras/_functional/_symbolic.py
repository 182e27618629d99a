"""Calling a layer on `KerasTensor`s: shapes by abstract evaluation, the call kept as a `Node`.

The layer is built from the symbolic shapes, then its call is staged once on abstract
tensors (`companion._staging.stage`), so Variables are only read (writes such as moving
averages are undone) and nothing is computed. Unknown axes
(``None``) are given two different sizes in two evaluations; the output axes whose sizes
differ are unknown too.
"""

import jax

from companion._core._tensor import Tensor
from companion._staging import Trace, stage
from companion.keras._functional._keras_tensor import KerasTensor
from companion.keras._functional._node import Node
from companion.keras.layers._tracking import map_structure

_PROBE_SIZES = (2, 3)


def symbolic_call(layer, call, inputs, args, kwargs):
    """Records ``layer(inputs, *args, **kwargs)`` on symbolic values and returns KerasTensors.

    ``call(inputs, args, kwargs)`` performs the real call (the layer's ``__call__`` body).
    """
    structure, shapes = abstract_outputs(lambda i, a, k: call(i, a, k), (inputs, list(args), kwargs),
                                         owner=layer)
    node = Node(layer, inputs, args, kwargs, None)
    leaves = iter(range(len(shapes)))

    def symbolic(spec):
        index = next(leaves)
        return KerasTensor(shapes[index][0], shapes[index][1], node=node, index=index)

    node.outputs = map_structure(symbolic, structure)
    layer.__dict__.setdefault("_inbound_nodes", []).append(node)
    return node.outputs


def abstract_outputs(fn, arguments, owner):
    """The output structure of ``fn(*arguments)`` and each output leaf's (shape, dtype).

    ``arguments`` may hold KerasTensors; everything else is passed through unchanged.
    """
    flat = []
    map_structure(lambda v: flat.append(v) if getattr(v, "_is_keras_tensor", False) else None,
                  arguments)
    runs = [_evaluate(fn, arguments, flat, size, owner) for size in _PROBE_SIZES]
    structure = runs[0][0]
    shapes = []
    for first, second in zip(runs[0][1], runs[1][1]):
        dims = [a if a == b else None for a, b in zip(first.shape, second.shape)]
        shapes.append((tuple(dims), first.dtype))
    return structure, shapes


def _evaluate(fn, arguments, flat, size, owner):
    specs = [jax.ShapeDtypeStruct(tuple(size if d is None else d for d in kt.shape.as_list()),
                                  kt._dtype.as_numpy_dtype) for kt in flat]
    holder = {}

    def traced(*arrays):
        substitutes = {id(kt): Tensor(a) for kt, a in zip(flat, arrays)}

        def real(v):
            return substitutes[id(v)] if getattr(v, "_is_keras_tensor", False) else v

        out = fn(*map_structure(real, arguments))
        leaves = []
        holder["structure"] = map_structure(lambda t: leaves.append(_array_of(t, owner)), out)
        return leaves

    staged = stage(traced, specs, Trace(allow_create=True, owner=owner))
    return holder["structure"], staged.out_avals[:staged.n_out]


def _array_of(value, owner):
    if isinstance(value, Tensor) or getattr(value, "_is_variable", False):
        return value._value
    raise TypeError(f"Layer {getattr(owner, 'name', owner)!r} returned {value!r} when called on "
                    "symbolic inputs; a layer's call must return tensors (or lists/dicts of them).")
