"""Backend layer helpers: bias_add, batch_normalization, dropout, l2_normalize, one_hot, in_top_k."""

import numpy as np

from companion import convert_to_tensor, reshape
from companion import nn as _nn
from companion import one_hot as _one_hot
from companion.keras.backend._config import checked_data_format
from companion.keras.backend._shape import int_shape, ndim


def bias_add(x, bias, data_format=None):
    """``x`` plus ``bias`` along the channel axis (last, or second for ``'channels_first'``).

    ``bias`` is 1-D (one value per channel), or has rank ``ndim(x) - 1`` (one value per
    position and channel, laid out as ``x`` without its batch axis).

    Raises:
        ValueError: ``data_format`` is unknown, or ``bias`` has another rank.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.bias_add(tf.zeros([1, 2, 3]), tf.constant([1.0, 2.0, 3.0])).numpy()
        array([[[1., 2., 3.],
                [1., 2., 3.]]], dtype=float32)
    """
    data_format = checked_data_format(data_format)
    x = convert_to_tensor(x)
    if not hasattr(bias, "shape"):  # a list: converted as TF's bias_add converts it
        bias = convert_to_tensor(bias, dtype=x.dtype)
    bias_shape = int_shape(bias)
    rank = ndim(x)
    if len(bias_shape) != 1 and len(bias_shape) != rank - 1:
        raise ValueError(f"Unexpected bias dimensions {len(bias_shape)}. Expected it to be 1 or {rank - 1} "
                         f"dimensions (x has rank {rank}). Received: bias.shape={bias_shape}")
    if len(bias_shape) == 1:
        return _nn.bias_add(x, bias, data_format="NCHW" if data_format == "channels_first" else "NHWC")
    if rank in (3, 4, 5):
        if data_format == "channels_first":
            return x + reshape(bias, (1, bias_shape[-1]) + bias_shape[:-1])
        return x + reshape(bias, (1,) + bias_shape)
    return _nn.bias_add(x, bias)


def batch_normalization(x, mean, var, beta, gamma, axis=-1, epsilon=1e-3):
    """``(x - mean) / sqrt(var + epsilon) * gamma + beta``, broadcasting (``axis`` is unused).

    Example:
        >>> import companion as tf
        >>> x = tf.constant([[1.0, 3.0]])
        >>> tf.keras.backend.batch_normalization(x, 2.0, 1.0, 0.0, 1.0, epsilon=0.0).numpy()
        array([[-1.,  1.]], dtype=float32)
    """
    return _nn.batch_normalization(x, mean, var, beta, gamma, epsilon)


def dropout(x, level, noise_shape=None, seed=None):
    """Zeroes each element with probability ``level`` and scales the rest by ``1 / (1 - level)``.

    Without a ``seed``, one is drawn from NumPy's global generator (as Keras does), so
    ``np.random.seed`` makes the mask repeatable.

    Example:
        >>> import companion as tf
        >>> out = tf.keras.backend.dropout(tf.ones([1000]), 0.5, seed=1).numpy()
        >>> sorted(set(out.tolist()))
        [0.0, 2.0]
    """
    if seed is None:
        seed = np.random.randint(10e6)
    return _nn.dropout(x, rate=level, noise_shape=noise_shape, seed=seed)


def l2_normalize(x, axis=None):
    """``x`` divided by its L2 norm over ``axis`` (all axes when None).

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.l2_normalize(tf.constant([3.0, 4.0])).numpy()
        array([0.6, 0.8], dtype=float32)
    """
    return _nn.l2_normalize(x, axis=axis)


def one_hot(indices, num_classes):
    """One-hot vectors (float32) of length ``num_classes`` for integer ``indices``, on a new last axis.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.one_hot(tf.constant([0, 2]), 3).numpy()
        array([[1., 0., 0.],
               [0., 0., 1.]], dtype=float32)
    """
    return _one_hot(indices, depth=num_classes, axis=-1)


def in_top_k(predictions, targets, k):
    """Whether each example's target class is among its ``k`` highest ``predictions``.

    Args:
        predictions: ``(batch, classes)`` float scores.
        targets: ``(batch,)`` integer class indices.
        k: how many top classes count.

    Example:
        >>> import companion as tf
        >>> preds = tf.constant([[0.1, 0.7, 0.2], [0.5, 0.1, 0.4]])
        >>> tf.keras.backend.in_top_k(preds, tf.constant([2, 2]), 2).numpy()
        array([ True,  True])
    """
    return _nn.in_top_k(targets=targets, predictions=predictions, k=k)
