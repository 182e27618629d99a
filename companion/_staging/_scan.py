"""`scan`, `foldl` and `foldr`: carry an accumulator along the first axis of tensors.

Like `map_fn` (and TensorFlow), a `while_loop` of known length over `TensorArray`s:
Python eagerly, one compiled bounded loop inside `companion.function`, differentiable.
"""

from companion._core import _nest
from companion._core._convert import convert_to_tensor
from companion._core._errors import OutOfRangeError
from companion._staging._control_flow import while_loop
from companion._staging._map_fn import _check_callable, elements, flatten_like, read_element
from companion._staging._tensor_array import TensorArray

__all__ = ["foldl", "foldr", "scan"]


def scan(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False,
         infer_shape=True, reverse=False, name=None):
    """Every accumulator ``a = fn(a, x)`` for ``x`` along the first axis of ``elems``, stacked.

    Without an ``initializer`` the first element (the last with ``reverse=True``) is the
    first accumulator and the first output. ``initializer`` may be a nest; ``fn`` returns
    that nest.

    Example:
        >>> import companion as tf
        >>> print(tf.scan(lambda a, x: a + x, tf.constant([1, 2, 3, 4])))
        companion.Tensor([ 1  3  6 10], shape=(4,), dtype=int32)
    """
    _check_callable(fn, "scan")
    flat, n = elements(elems, "scan")
    inputs = [TensorArray(x.dtype, size=n, clear_after_read=False).unstack(x) for x in flat]
    acc, structure, start = _first_accumulator(elems, flat, n, initializer, reverse)
    outputs = [TensorArray(a.dtype, size=n, infer_shape=infer_shape, element_shape=a.shape) for a in acc]
    if start:
        outputs = [ta.write(n - 1 if reverse else 0, a) for ta, a in zip(outputs, acc)]

    def body(i, acc, outs):
        index = n - 1 - i if reverse else i
        new = flatten_like(structure, fn(_nest.pack_sequence_as(structure, acc),
                                         read_element(elems, inputs, index)), "the accumulator")
        return i + 1, new, [ta.write(index, a) for ta, a in zip(outs, new)]

    _, _, outputs = while_loop(lambda i, *_: i < n, body, (start, acc, outputs), maximum_iterations=n - start)
    return _nest.pack_sequence_as(structure, [ta.stack() for ta in outputs])


def foldl(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False, name=None):
    """The last accumulator of ``a = fn(a, x)`` over ``elems`` from first to last.

    Example:
        >>> import companion as tf
        >>> print(tf.foldl(lambda a, x: a - x, tf.constant([1, 2, 3, 4]), initializer=0))
        companion.Tensor(-10, shape=(), dtype=int32)
    """
    return _fold(fn, elems, initializer, False, "foldl")


def foldr(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False, name=None):
    """The last accumulator of ``a = fn(a, x)`` over ``elems`` from last to first.

    Example:
        >>> import companion as tf
        >>> print(tf.foldr(lambda a, x: a * 10 + x, tf.constant([1, 2, 3, 4])))
        companion.Tensor(4321, shape=(), dtype=int32)
    """
    return _fold(fn, elems, initializer, True, "foldr")


def _fold(fn, elems, initializer, reverse, what):
    _check_callable(fn, what)
    flat, n = elements(elems, what)
    inputs = [TensorArray(x.dtype, size=n, clear_after_read=False).unstack(x) for x in flat]
    acc, structure, start = _first_accumulator(elems, flat, n, initializer, reverse)

    def body(i, acc):
        index = n - 1 - i if reverse else i
        return i + 1, flatten_like(structure, fn(_nest.pack_sequence_as(structure, acc),
                                                 read_element(elems, inputs, index)), "the accumulator")

    _, acc = while_loop(lambda i, _: i < n, body, (start, acc), maximum_iterations=n - start)
    return _nest.pack_sequence_as(structure, acc)


def _first_accumulator(elems, flat, n, initializer, reverse):
    """(flat accumulator, its structure, the first index the loop visits)."""
    if initializer is not None:
        return [convert_to_tensor(a) for a in _nest.flatten(initializer)], initializer, 0
    if n == 0:
        raise OutOfRangeError("Tried to read from index 0 but array size is: 0. Without an initializer, "
                              "the first element is the first accumulator: pass initializer= for empty "
                              "elems.")
    first = n - 1 if reverse else 0
    return [x[first] for x in flat], elems, 1
