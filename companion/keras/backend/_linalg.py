"""Backend products: `dot` (Theano-style N-D dot) and `batch_dot` (one product per example)."""

from companion import (
    concat,
    convert_to_tensor,
    expand_dims,
    matmul,
    reshape,
    shape,
    squeeze,
    stack,
    transpose,
    unstack,
)
from companion import sparse as _sparse
from companion.keras.backend._shape import ndim
from companion.keras.backend._tensor_kinds import is_sparse


def _dims(x):
    """The shape of ``x``: static sizes where known, dynamic scalars elsewhere."""
    static = x.shape.as_list()
    if None not in static:
        return tuple(static)
    dynamic = unstack(shape(x))
    return tuple(d if d is not None else s for d, s in zip(static, dynamic))


def dot(x, y):
    """The product of ``x`` and ``y`` summed over the last axis of ``x`` and the second-to-last of ``y``.

    For rank-2 inputs (or a `SparseTensor` ``x``) it is the matrix product; for higher ranks
    the result has shape ``x.shape[:-1] + y.shape[:-2] + y.shape[-1:]`` (Theano's and
    ``np.dot``'s rule).

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.dot(tf.ones([2, 3, 4]), tf.ones([5, 4, 6])).shape
        TensorShape([2, 3, 5, 6])
    """
    if not is_sparse(x):
        x = convert_to_tensor(x)
    y = convert_to_tensor(y)
    if ndim(x) is not None and (ndim(x) > 2 or ndim(y) > 2):
        x_shape, y_shape = _dims(x), _dims(y)
        if len(y_shape) < 2:
            raise ValueError(f"dot() of a rank-{len(x_shape)} x needs y of rank 2 or more (its "
                             f"second-to-last axis is summed over). Received: x.shape={x.shape}, "
                             f"y.shape={y.shape}")
        perm = list(range(ndim(y)))
        perm = [perm.pop(-2)] + perm
        xt = reshape(x, [-1, x_shape[-1]])
        yt = reshape(transpose(y, perm=perm), [y_shape[-2], -1])
        return reshape(matmul(xt, yt), list(x_shape[:-1] + y_shape[:-2] + y_shape[-1:]))
    if is_sparse(x):
        return _sparse.sparse_dense_matmul(x, y)
    return matmul(x, y)


def batch_dot(x, y, axes=None):
    """Per-example dot products: ``x[i]`` and ``y[i]`` summed over ``axes`` (one axis of each).

    ``axes`` is an int (the same axis of both), a pair ``(axis of x, axis of y)``, or None:
    the last axis of ``x`` with the last axis of a rank-2 ``y``, else its second-to-last.
    The result has the remaining axes of ``x``, then those of ``y`` (two rank-2 inputs give
    ``(batch, 1)``).

    Raises:
        ValueError: an input has rank < 2, the batch sizes or the summed sizes differ, an axis
            is 0 (the batch axis) or ``axes`` holds lists.

    Example:
        >>> import companion as tf
        >>> x = tf.ones([32, 20, 1])
        >>> y = tf.ones([32, 30, 20])
        >>> tf.keras.backend.batch_dot(x, y, axes=(1, 2)).shape
        TensorShape([32, 1, 30])
    """
    x = convert_to_tensor(x)
    y = convert_to_tensor(y)
    x_shape, y_shape = tuple(x.shape.as_list()), tuple(y.shape.as_list())
    x_ndim, y_ndim = len(x_shape), len(y_shape)
    if x_ndim < 2 or y_ndim < 2:
        raise ValueError(f"Cannot do batch_dot on inputs with rank < 2. Received inputs with shapes "
                         f"{x_shape} and {y_shape}.")
    if x_shape[0] is not None and y_shape[0] is not None and x_shape[0] != y_shape[0]:
        raise ValueError(f"Cannot do batch_dot on inputs with different batch sizes. Received inputs with "
                         f"shapes {x_shape} and {y_shape}.")
    if isinstance(axes, int):
        axes = [axes, axes]
    if axes is None:
        axes = [x_ndim - 1, y_ndim - 1] if y_ndim == 2 else [x_ndim - 1, y_ndim - 2]
    if any(isinstance(a, (list, tuple)) for a in axes):
        raise ValueError(f"Multiple target dimensions are not supported. Expected: None, int, (int, int), "
                         f"Provided: {axes}")
    axes = list(axes)
    if axes[0] < 0:
        axes[0] += x_ndim
    if axes[1] < 0:
        axes[1] += y_ndim
    if 0 in axes:
        raise ValueError("Cannot perform batch_dot over axis 0. If your inputs are not batched, add a dummy "
                         f"batch dimension to your inputs using K.expand_dims(x, 0). Received: axes={axes}")
    a0, a1 = axes
    d1, d2 = x_shape[a0], y_shape[a1]
    if d1 is not None and d2 is not None and d1 != d2:
        raise ValueError(f"Cannot do batch_dot on inputs with shapes {x_shape} and {y_shape} with "
                         f"axes={axes}. x.shape[{a0}] != y.shape[{a1}] ({d1} != {d2}).")
    orig_x_ndim, orig_y_ndim = x_ndim, y_ndim
    if x_ndim == 2:  # rank 2 becomes rank 3
        x = expand_dims(x, 1)
        a0 += 1
        x_ndim += 1
    if y_ndim == 2:
        y = expand_dims(y, 2)
        y_ndim += 1
    if a0 != x_ndim - 1:  # x's summed axis goes last
        pattern = list(range(x_ndim))
        for i in range(a0, x_ndim - 1):
            pattern[i] = pattern[i + 1]
        pattern[-1] = a0
        x = transpose(x, pattern)
    if a1 != 1:  # y's summed axis goes to axis 1
        pattern = list(range(y_ndim))
        for i in range(a1, 1, -1):
            pattern[i] = pattern[i - 1]
        pattern[1] = a1
        y = transpose(y, pattern)
    x_squashed = x_ndim > 3
    if x_squashed:  # the middle axes of x as one
        x_shape = shape(x)
        x_mid_dims = x_shape[1:-1]
        x = reshape(x, stack([x_shape[0], -1, x_shape[-1]]))
    y_squashed = y_ndim > 3
    if y_squashed:  # the trailing axes of y as one
        y_shape = shape(y)
        y_trail_dims = y_shape[2:]
        y = reshape(y, stack([y_shape[0], y_shape[1], -1]))
    result = matmul(x, y)
    output_shape = shape(result)
    if x_squashed:
        output_shape = concat([output_shape[:1], x_mid_dims, output_shape[-1:]], 0)
    if y_squashed:
        output_shape = concat([output_shape[:-1], y_trail_dims], 0)
    if x_squashed or y_squashed:
        result = reshape(result, output_shape)
    if orig_x_ndim == 2:
        result = squeeze(result, 1)
    elif orig_y_ndim == 2:
        result = squeeze(result, -1)
    return result
