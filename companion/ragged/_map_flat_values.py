"""`ragged.map_flat_values` and the elementwise ops on RaggedTensors (TF's ragged dispatch).

An elementwise op applies to the `flat_values` of its ragged operands; all ragged operands must
share one row partition, and the others must be scalars (or broadcast against one value).
"""

import numpy as np

from companion._core._errors import InvalidArgumentError
from companion.ragged._broadcast import broadcast_to_flat
from companion.ragged._ragged_tensor import RaggedTensor


def map_flat_values(op, *args, **kwargs):
    """``op`` applied to the flat values of the RaggedTensors in ``args``/``kwargs``; the result
    has their rows.

    Example:
        >>> import companion as tf
        >>> r = tf.ragged.constant([[1, 2], [3]])
        >>> print(tf.ragged.map_flat_values(tf.multiply, r, 10))
        <companion.RaggedTensor [[10, 20], [30]]>
    """
    template = None

    def unwrap(value):
        nonlocal template
        if isinstance(value, RaggedTensor):
            if template is None:
                template = value
            elif template._splits_dtype != value._splits_dtype:
                raise ValueError("Input RaggedTensors have mismatched row_splits dtypes; use "
                                 "RaggedTensor.with_row_splits_dtype() to convert them to compatible dtypes. "
                                 f"Received {template._splits_dtype.name} and {value._splits_dtype.name}.")
            elif not _same_rows(template, value):
                raise InvalidArgumentError("map_flat_values: the RaggedTensors have different row partitions "
                                 f"({_splits_text(template)} vs {_splits_text(value)}); every ragged "
                                 "argument must have the same rows.")
            return value.flat_values
        if isinstance(value, (list, tuple)):
            return type(value)(unwrap(v) for v in value)
        if isinstance(value, dict):
            return {k: unwrap(v) for k, v in value.items()}
        return value

    args = unwrap(list(args))
    kwargs = unwrap(kwargs)
    if template is None:
        raise ValueError("map_flat_values needs at least one RaggedTensor argument.")
    out = op(*args, **kwargs)
    if out.shape[0] is not None and out.shape[0] != template.flat_values.shape[0]:
        raise ValueError(f"map_flat_values: the op returned {out.shape[0]} values for "
                         f"{template.flat_values.shape[0]} inputs; it must keep the number of values.")
    return template.with_flat_values(out)


def elementwise(op, *args, **kwargs):
    """An elementwise op on operands some of which are ragged (the ops' ragged dispatch): dense
    operands broadcast against the ragged one (`broadcast_to_flat`)."""
    flat = []
    for value in list(args) + list(kwargs.values()):
        flat.extend(value if isinstance(value, (list, tuple)) else [value])
    template = next(v for v in flat if isinstance(v, RaggedTensor))

    def aligned(value):
        if isinstance(value, RaggedTensor) or value is None:
            return value
        if isinstance(value, (list, tuple)) and any(isinstance(v, RaggedTensor) for v in value):
            return value  # add_n's list of RaggedTensors: map_flat_values unwraps it
        return broadcast_to_flat(template, value)

    args = [aligned(v) for v in args]
    kwargs = {k: aligned(v) for k, v in kwargs.items()}
    return map_flat_values(op, *args, **kwargs)


def _same_rows(a, b):
    if a is b:
        return True
    return [np.asarray(s._value).tolist() for s in a.nested_row_splits] == \
        [np.asarray(s._value).tolist() for s in b.nested_row_splits]


def _splits_text(r):
    return [np.asarray(s._value).tolist() for s in r.nested_row_splits]
