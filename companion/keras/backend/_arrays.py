"""Backend shape manipulation: reshape, flatten, transpose, join, repeat, reverse, gather.

These follow Keras's legacy backend: `concatenate` joins sparse tensors as sparse and ragged
as ragged; `repeat` needs a rank-2 input; `squeeze` removes one axis.
"""

from companion import concat, reduce_prod, shape
from companion import expand_dims as _expand_dims
from companion import gather as _gather
from companion import repeat as _repeat
from companion import reshape as _reshape
from companion import reverse as _reverse
from companion import sparse as _sparse
from companion import squeeze as _squeeze
from companion import stack as _stack
from companion import tile as _tile
from companion import transpose as _transpose
from companion.keras.backend._shape import ndim
from companion.keras.backend._tensor_kinds import is_sparse, to_dense
from companion.ragged import RaggedTensor


def reshape(x, shape):
    """``x`` with the same elements in ``shape`` (one entry may be -1: inferred).

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.reshape(tf.range(6), (2, -1)).numpy()
        array([[0, 1, 2],
               [3, 4, 5]], dtype=int32)
    """
    return _reshape(x, shape)


def flatten(x):
    """``x`` as one axis.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.flatten(tf.constant([[1, 2], [3, 4]])).numpy()
        array([1, 2, 3, 4], dtype=int32)
    """
    return _reshape(x, [-1])


def batch_flatten(x):
    """``x`` as ``(batch, everything else)``: one flat row per example.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.batch_flatten(tf.zeros([2, 3, 4])).shape
        TensorShape([2, 12])
    """
    return _reshape(x, _stack([-1, reduce_prod(shape(x)[1:])]))


def expand_dims(x, axis=-1):
    """``x`` with a new axis of size 1 at ``axis`` (the end by default).

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.expand_dims(tf.zeros([2, 3])).shape
        TensorShape([2, 3, 1])
    """
    return _expand_dims(x, axis)


def squeeze(x, axis):
    """``x`` without its axis ``axis``, which must have size 1.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.squeeze(tf.zeros([2, 1, 3]), 1).shape
        TensorShape([2, 3])
    """
    return _squeeze(x, [axis])


def transpose(x):
    """``x`` with its axes in reverse order (the matrix transpose for rank 2).

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.transpose(tf.constant([[1, 2, 3]])).numpy()
        array([[1],
               [2],
               [3]], dtype=int32)
    """
    return _transpose(x)


def permute_dimensions(x, pattern):
    """``x`` with its axes reordered: output axis ``i`` is input axis ``pattern[i]``.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.permute_dimensions(tf.zeros([2, 3, 4]), (0, 2, 1)).shape
        TensorShape([2, 4, 3])
    """
    return _transpose(x, perm=pattern)


def concatenate(tensors, axis=-1):
    """The tensors joined along ``axis``; all sparse gives a `SparseTensor`, all ragged a ragged one.

    Mixed sparse and dense inputs are joined dense.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.concatenate([tf.zeros([2, 1]), tf.ones([2, 2])]).numpy()
        array([[0., 1., 1.],
               [0., 1., 1.]], dtype=float32)
    """
    tensors = list(tensors)
    if not tensors:
        raise ValueError("concatenate() needs at least one tensor. Received: tensors=[]")
    if axis < 0:
        rank = ndim(tensors[0])
        axis = axis % rank if rank else 0
    if all(is_sparse(x) for x in tensors):
        return _sparse.concat(axis, tensors)
    if all(isinstance(x, RaggedTensor) for x in tensors):
        return concat(tensors, axis)
    return concat([to_dense(x) for x in tensors], axis)


def stack(x, axis=0):
    """The tensors in list ``x`` stacked along a new axis ``axis``.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.stack([tf.constant([1, 2]), tf.constant([3, 4])], axis=1).numpy()
        array([[1, 3],
               [2, 4]], dtype=int32)
    """
    return _stack(x, axis=axis)


def tile(x, n):
    """``x`` repeated ``n[i]`` times along each axis ``i`` (an int ``n`` for a 1-D ``x``).

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.tile(tf.constant([1, 2]), 2).numpy()
        array([1, 2, 1, 2], dtype=int32)
    """
    if isinstance(n, int):
        n = [n]
    return _tile(x, n)


def repeat(x, n):
    """A rank-2 ``(batch, features)`` ``x`` repeated ``n`` times on a new axis 1: ``(batch, n, features)``.

    Raises:
        ValueError: ``x`` does not have rank 2.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.repeat(tf.constant([[1, 2]]), 3).numpy()
        array([[[1, 2],
                [1, 2],
                [1, 2]]], dtype=int32)
    """
    rank = ndim(x)
    if rank != 2:
        raise ValueError(f"Expected input `x` to have rank 2. Received: rank(x)={rank}")
    return _tile(_expand_dims(x, 1), _stack([1, n, 1]))


def repeat_elements(x, rep, axis):
    """Each slice of ``x`` along ``axis`` repeated ``rep`` times in place (like ``np.repeat``).

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.repeat_elements(tf.constant([[1, 2]]), 2, axis=1).numpy()
        array([[1, 1, 2, 2]], dtype=int32)
    """
    return _repeat(x, rep, axis=axis)


def reverse(x, axes):
    """``x`` reversed along ``axes`` (an int or a list of ints).

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.reverse(tf.constant([[1, 2], [3, 4]]), 1).numpy()
        array([[2, 1],
               [4, 3]], dtype=int32)
    """
    if isinstance(axes, int):
        axes = [axes]
    return _reverse(x, axes)


def gather(reference, indices):
    """The slices ``reference[indices]`` along the first axis.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.gather(tf.constant([[1, 2], [3, 4], [5, 6]]), [2, 0]).numpy()
        array([[5, 6],
               [1, 2]], dtype=int32)
    """
    return _gather(reference, indices)
