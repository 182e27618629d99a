"""Backend cross-entropies: binary, categorical and sparse categorical, and their focal variants.

Each returns the per-example loss (no reduction), with Keras's legacy formulas: probabilities
are clipped to ``[epsilon, 1 - epsilon]`` (`epsilon` read at the call), categorical outputs are
renormalized to sum to 1 along ``axis``.
"""

import itertools

from companion import boolean_mask, convert_to_tensor, reshape, scatter_nd, shape, transpose, where
from companion import math as _math
from companion import nn as _nn
from companion.keras.backend._config import epsilon


def _clipped(output):
    eps = convert_to_tensor(epsilon(), dtype=output.dtype)
    return _math.clip_by_value(output, eps, 1.0 - eps)


def _check_compatible(target, output):
    if not target.shape.is_compatible_with(output.shape):
        raise ValueError(f"`target` and `output` must have the same shape. Received: target.shape="
                         f"{target.shape}, output.shape={output.shape}")


def binary_crossentropy(target, output, from_logits=False):
    """Element-wise binary cross-entropy of ``target`` (0..1) against ``output``.

    Probabilities are clipped to ``[epsilon, 1 - epsilon]``, and ``epsilon`` is added again
    inside each log, as Keras's legacy backend does.

    Example:
        >>> import companion as tf
        >>> loss = tf.keras.backend.binary_crossentropy(tf.constant([1.0, 0.0]), tf.constant([0.9, 0.2]))
        >>> loss.numpy().round(4)
        array([0.1054, 0.2231], dtype=float32)
    """
    target = convert_to_tensor(target)
    output = convert_to_tensor(output)
    if from_logits:
        return _nn.sigmoid_cross_entropy_with_logits(labels=target, logits=output)
    output = _clipped(output)
    bce = target * _math.log(output + epsilon())
    bce += (1 - target) * _math.log(1 - output + epsilon())
    return -bce


def binary_focal_crossentropy(target, output, apply_class_balancing=False, alpha=0.25, gamma=2.0,
                              from_logits=False):
    """`binary_crossentropy` scaled by the focal factor ``(1 - p_t) ** gamma``.

    ``p_t`` is the probability given to the true class; with ``apply_class_balancing`` the
    positives are weighted by ``alpha`` and the negatives by ``1 - alpha``.

    Example:
        >>> import companion as tf
        >>> target, output = tf.constant([1.0, 0.0]), tf.constant([0.9, 0.2])
        >>> tf.keras.backend.binary_focal_crossentropy(target, output).numpy().round(4)
        array([0.0011, 0.0089], dtype=float32)
    """
    target = convert_to_tensor(target)
    output = convert_to_tensor(output)
    sigmoidal = _math.sigmoid(output) if from_logits else output
    p_t = target * sigmoidal + (1 - target) * (1 - sigmoidal)
    focal_factor = _math.pow(1.0 - p_t, gamma)
    focal_bce = focal_factor * binary_crossentropy(target, output, from_logits=from_logits)
    if apply_class_balancing:
        focal_bce = (target * alpha + (1 - target) * (1 - alpha)) * focal_bce
    return focal_bce


def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """Cross-entropy of one-hot (or soft) ``target`` against ``output`` along ``axis``.

    Raises:
        ValueError: ``target`` and ``output`` have incompatible shapes.

    Example:
        >>> import companion as tf
        >>> target, output = tf.constant([[0.0, 1.0]]), tf.constant([[0.2, 0.6]])
        >>> tf.keras.backend.categorical_crossentropy(target, output).numpy().round(4)
        array([0.2877], dtype=float32)
    """
    target = convert_to_tensor(target)
    output = convert_to_tensor(output)
    _check_compatible(target, output)
    if from_logits:
        return _nn.softmax_cross_entropy_with_logits(labels=target, logits=output, axis=axis)
    output = output / _math.reduce_sum(output, axis, True)
    return -_math.reduce_sum(target * _math.log(_clipped(output)), axis)


def categorical_focal_crossentropy(target, output, alpha=0.25, gamma=2.0, from_logits=False, axis=-1):
    """`categorical_crossentropy` with each class's term scaled by ``alpha * (1 - p) ** gamma``.

    Raises:
        ValueError: ``target`` and ``output`` have incompatible shapes.

    Example:
        >>> import companion as tf
        >>> loss = tf.keras.backend.categorical_focal_crossentropy(
        ...     tf.constant([[0.0, 1.0]]), tf.constant([[0.2, 0.8]]))
        >>> loss.numpy().round(6)
        array([0.002231], dtype=float32)
    """
    target = convert_to_tensor(target)
    output = convert_to_tensor(output)
    _check_compatible(target, output)
    if from_logits:
        output = _nn.softmax(output, axis=axis)
    output = _clipped(output / _math.reduce_sum(output, axis=axis, keepdims=True))
    cce = -target * _math.log(output)
    weighting = _math.multiply(_math.pow(1.0 - output, gamma), alpha)
    return _math.reduce_sum(_math.multiply(weighting, cce), axis=axis)


def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1, ignore_class=None):
    """Cross-entropy of integer class labels ``target`` against ``output`` (classes along ``axis``).

    With ``ignore_class``, the examples labelled with it get loss 0 (and the result carries a
    Keras mask leaving them out).

    Example:
        >>> import companion as tf
        >>> loss = tf.keras.backend.sparse_categorical_crossentropy(
        ...     tf.constant([1, 0]), tf.constant([[0.5, 0.5], [0.9, 0.1]]))
        >>> loss.numpy().round(4)
        array([0.6931, 0.1054], dtype=float32)
    """
    target = _math.cast(convert_to_tensor(target), "int64")
    output = convert_to_tensor(output)
    if not from_logits:
        output = _math.log(_clipped(output))
    output_rank = output.shape.rank
    if output_rank is not None:
        axis %= output_rank
        if axis != output_rank - 1:
            permutation = list(itertools.chain(range(axis), range(axis + 1, output_rank), [axis]))
            output = transpose(output, perm=permutation)
    elif axis != -1:
        raise ValueError(f"Cannot compute sparse categorical crossentropy with `axis={axis}` on an output "
                         "tensor with unknown rank")
    output_shape = shape(output)
    target_rank = target.shape.rank
    update_shape = target_rank is not None and output_rank is not None and target_rank != output_rank - 1
    if update_shape:
        target = reshape(target, [-1])
        output = reshape(output, [-1, output_shape[-1]])
    if ignore_class is not None:
        valid_mask = _math.not_equal(target, _math.cast(ignore_class, target.dtype))
        target = boolean_mask(target, valid_mask)
        output = boolean_mask(output, valid_mask)
    res = _nn.sparse_softmax_cross_entropy_with_logits(labels=target, logits=output)
    if ignore_class is not None:
        # deferred: companion.keras.layers imports the backend at its top (layers._layer)
        from companion.keras.layers._keras_mask import set_keras_mask

        res_shape = _math.cast(output_shape[:-1], "int64")
        valid_mask = reshape(valid_mask, res_shape)
        res = scatter_nd(where(valid_mask), res, res_shape)
        set_keras_mask(res, valid_mask)
        return res
    if update_shape and output_rank >= 3:  # timesteps or spatial axes: back to their shape
        res = reshape(res, output_shape[:-1])
    return res
