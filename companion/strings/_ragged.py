"""TF's ragged dispatch of the ``tf.strings`` ops: on a RaggedTensor they work on its flat values."""

import functools

from companion.ragged._map_flat_values import elementwise, map_flat_values
from companion.ragged._ragged_tensor import RaggedTensor


def elementwise_on_rows(fn):
    """``fn`` (a string op whose first argument is the input), applied to a RaggedTensor's flat values
    when that input is ragged; the result keeps its rows."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        given = args[0] if args else kwargs.get("input")
        if isinstance(given, RaggedTensor):
            return elementwise(fn, *args, **kwargs)
        return fn(*args, **kwargs)

    return wrapper


def joined_rows(fn):
    """``fn`` (``join``, taking a list of inputs), on flat values when any input is ragged."""

    @functools.wraps(fn)
    def wrapper(inputs, *args, **kwargs):
        if isinstance(inputs, (list, tuple)) and any(isinstance(v, RaggedTensor) for v in inputs):
            return map_flat_values(fn, list(inputs), *args, **kwargs)
        return fn(inputs, *args, **kwargs)

    return wrapper
