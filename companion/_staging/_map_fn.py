"""`map_fn` and `vectorized_map`: apply a function to every element along the first axis.

Built as TensorFlow builds them: the elements are unstacked into `TensorArray`s and a
`while_loop` of known length (their first dimension) writes each result into output
TensorArrays, stacked at the end. Eagerly the loop is Python, so ``fn`` runs once per
element and a `GradientTape` records each step; inside `companion.function` ``fn`` is
traced once and the loop compiles to a bounded ``lax.scan``, which reverse-mode
differentiation (a tape around the function) goes through.
"""

from companion._core import _nest
from companion._core._convert import convert_to_tensor
from companion._core._dtypes import DType, as_dtype
from companion._core._tensor_spec import TensorSpec
from companion._ops._array import stack
from companion._staging._control_flow import while_loop
from companion._staging._tensor_array import TensorArray

__all__ = ["map_fn", "vectorized_map"]


def map_fn(fn, elems, dtype=None, parallel_iterations=None, back_prop=True, swap_memory=False,
           infer_shape=True, name=None, fn_output_signature=None):
    """Stacks ``fn(x)`` for every ``x`` along the first axis of ``elems`` (a tensor or nest of them).

    ``fn`` gets one element (the nest of ``elems`` with the first axis indexed) and must
    return the structure and dtypes of ``fn_output_signature`` (a DType, a `TensorSpec` or a
    nest of them); by default that of ``elems``. ``dtype`` is the older name of
    ``fn_output_signature``. ``parallel_iterations``, ``back_prop`` and ``swap_memory`` are
    accepted for compatibility.

    Example:
        >>> import companion as tf
        >>> print(tf.map_fn(lambda x: x * x, tf.constant([1.0, 2.0, 3.0])))
        companion.Tensor([1. 4. 9.], shape=(3,), dtype=float32)
    """
    _check_callable(fn, "map_fn")
    signature = fn_output_signature if fn_output_signature is not None else dtype
    if getattr(type(elems), "_is_ragged", False):
        return _map_rows(fn, elems, signature)
    flat, n = elements(elems, "map_fn")
    if signature is None:
        out_structure, out_specs = elems, [TensorSpec(None, x.dtype) for x in flat]
    else:
        out_structure, out_specs = signature, [_as_spec(s) for s in _nest.flatten(signature)]
    inputs = [TensorArray(x.dtype, size=n, clear_after_read=False).unstack(x) for x in flat]
    outputs = [TensorArray(s.dtype, size=n, infer_shape=infer_shape, element_shape=s.shape)
               for s in out_specs]

    def body(i, outs):
        result = fn(read_element(elems, inputs, i))
        flat_result = flatten_like(out_structure, result, "fn_output_signature")
        return i + 1, [ta.write(i, value) for ta, value in zip(outs, flat_result)]

    _, outputs = while_loop(lambda i, _: i < n, body, (0, outputs), maximum_iterations=n)
    return _nest.pack_sequence_as(out_structure, [ta.stack() for ta in outputs])


def _map_rows(fn, elems, signature):
    """`map_fn` over the rows of a RaggedTensor (TF's ragged dispatch): its row partition is known on
    the host, so the loop is Python (unrolled inside a function). The results stack into a
    RaggedTensor unless ``signature`` asks for dense tensors (a DType or a `TensorSpec`)."""
    results = [fn(row) for row in elems]
    if signature is None or getattr(signature, "_is_ragged_spec", False):
        if not results:
            raise ValueError("map_fn over a RaggedTensor with no rows needs a dense fn_output_signature "
                             "(a DType or TensorSpec) to know the result's shape.")
        return elems._dispatch_api("stack", results, 0)
    dtype = _as_spec(signature).dtype
    return stack([convert_to_tensor(r, dtype) for r in results]) if results else \
        convert_to_tensor([], dtype)


def vectorized_map(fn, elems, fallback_to_while_loop=True, warn=True):
    """``fn`` applied to every element of ``elems`` along the first axis, results stacked.

    TensorFlow vectorizes ``fn`` (pfor); companion runs it as `map_fn` with the output
    structure ``fn`` returns, which gives the same values.

    Example:
        >>> import companion as tf
        >>> print(tf.vectorized_map(lambda r: tf.reduce_sum(r), tf.constant([[1, 2], [3, 4]])))
        companion.Tensor([3 7], shape=(2,), dtype=int32)
    """
    _check_callable(fn, "vectorized_map")
    flat, _ = elements(elems, "vectorized_map")
    first = _nest.pack_sequence_as(elems, [x[0] for x in flat])
    sample = fn(first)  # finds the output structure, as pfor's trace does
    signature = _nest.map_structure(_spec_of,
                                    sample)
    return map_fn(fn, elems, fn_output_signature=signature)


def elements(elems, what):
    """The flat list of tensors in ``elems`` and their common first dimension."""
    flat = [convert_to_tensor(x) for x in _nest.flatten(elems)]
    if not flat:
        raise ValueError(f"{what}: elems must contain at least one tensor. Received: {elems!r}")
    for x in flat:
        if x._v.ndim == 0:
            raise ValueError(f"{what}: Elements in elems must be 1+ dimensional Tensors, not scalars. "
                             f"Received: {x}")
    sizes = [int(x._v.shape[0]) for x in flat]
    if len(set(sizes)) > 1:
        raise ValueError(f"{what}: Dimensions {sizes[0]} and {next(s for s in sizes if s != sizes[0])} are "
                         "not compatible: every tensor in elems needs the same first dimension.")
    return flat, sizes[0]


def read_element(structure, arrays, index):
    """Element ``index`` of the TensorArrays ``arrays``, nested like ``structure``."""
    return _nest.pack_sequence_as(structure, [ta.read(index) for ta in arrays])


def flatten_like(structure, value, what):
    """``value`` flattened, after checking it has the nesting of ``structure``."""
    try:
        _nest.assert_same_structure(structure, value, check_types=False)
    except (TypeError, ValueError) as error:
        raise ValueError(f"The two structures don't have the same nested structure: the function returned "
                         f"{value!r} but {what} expects the structure of {structure!r}. {error}") from None
    return [convert_to_tensor(v) for v in _nest.flatten(value)]


def _spec_of(value):
    tensor = convert_to_tensor(value)
    return TensorSpec(tensor.shape, tensor.dtype)


def _as_spec(signature):
    if isinstance(signature, TensorSpec):
        return signature
    if isinstance(signature, (DType, str)) or hasattr(signature, "as_numpy_dtype"):
        return TensorSpec(None, as_dtype(signature))
    raise TypeError(f"fn_output_signature must hold DTypes or TensorSpecs. Received: {signature!r}")


def _check_callable(fn, what):
    if not callable(fn):
        raise TypeError(f"{what}: fn must be callable. Received: {fn!r}")
