"""`Reduction`: how a `Loss` turns per-example losses into the value it returns."""

import jax.numpy as jnp
import numpy as np

from companion._core._convert import as_input
from companion._core._op import op
from companion._core._tensor_names import given_name
from companion._ops._math import cast, true_divide
from companion._ops._nn import shape_of
from companion.keras.losses._loss_inputs import match_weight_rank


class Reduction:
    """The names of the loss reductions, TensorFlow's ``tf.keras.losses.Reduction``.

    ``AUTO`` and ``SUM_OVER_BATCH_SIZE`` divide the sum of the (weighted) per-example
    losses by their number of elements; ``SUM`` returns the sum; ``NONE`` returns the
    weighted per-example losses unreduced.

    Example:
        >>> import companion as tf
        >>> tf.keras.losses.Reduction.SUM
        'sum'
    """

    AUTO = "auto"
    NONE = "none"
    SUM = "sum"
    SUM_OVER_BATCH_SIZE = "sum_over_batch_size"
    MEAN = "mean"  # Keras 3: the sum over the number of elements, as sum_over_batch_size
    MEAN_WITH_SAMPLE_WEIGHT = "mean_with_sample_weight"  # Keras 3: the sum over the sample weights' sum

    @classmethod
    def all(cls):
        return (cls.AUTO, cls.NONE, cls.SUM, cls.SUM_OVER_BATCH_SIZE, cls.MEAN, cls.MEAN_WITH_SAMPLE_WEIGHT)

    @classmethod
    def validate(cls, key):
        """Returns ``key`` if it names a reduction (None is Keras 3's ``'none'``); raises ValueError
        otherwise."""
        if key is None:
            return cls.NONE
        if key not in cls.all():
            raise ValueError(f"Invalid loss reduction {key!r}. Expected one of {cls.all()}, e.g. "
                             "reduction='sum_over_batch_size'.")
        return key


@op("keras_loss_reduction", static=("reduction",))
def _reduce(losses, weights, reduction):
    weighted = losses * weights
    if reduction == Reduction.NONE:
        return weighted
    total = jnp.sum(weighted)
    if reduction == Reduction.SUM or weighted.size == 0:  # Keras's divide_no_nan: 0 for no elements
        return total if weighted.size else jnp.zeros((), weighted.dtype)
    if reduction == Reduction.MEAN_WITH_SAMPLE_WEIGHT:  # divide_no_nan by the weights' own sum
        divisor = jnp.sum(weights)
        return jnp.where(divisor == 0, jnp.zeros((), weighted.dtype), total / divisor)
    return true_divide(total, jnp.asarray(weighted.size, total.dtype))  # TF's divide: correctly rounded


def reduce_weighted_loss(losses, sample_weight, reduction, loss_name, mask=None):
    """Weights ``losses`` by ``sample_weight`` (broadcast like Keras) and applies ``reduction``.

    A Keras ``mask`` (of the predictions) zeroes the masked losses; under
    ``sum_over_batch_size`` the others are scaled by ``size / unmasked`` so the result is
    the mean over unmasked entries (Keras 3's ``apply_mask``).
    """
    losses = as_input(losses)
    reduction = Reduction.validate(reduction)  # set on the loss after construction: None is 'none'
    unweighted = sample_weight is None and mask is None
    if reduction == Reduction.MEAN or (reduction == Reduction.MEAN_WITH_SAMPLE_WEIGHT and unweighted):
        reduction = Reduction.SUM_OVER_BATCH_SIZE  # the same division, as Keras 3 computes it
    if mask is not None:
        mask_weights = _mask_weights(as_input(mask), dtype=losses.dtype.name, reduction=reduction)
        sample_weight = mask_weights if sample_weight is None else _times(sample_weight, mask_weights)
    if reduction == Reduction.NONE and sample_weight is None:
        return losses  # nothing to weigh or reduce: the per-example losses themselves, as Keras 3
    weights = _weights(sample_weight, losses, loss_name)
    given_name(_REDUCTION_NODES.get(reduction, "div_no_nan"))
    return _reduce(losses, weights, reduction=reduction)


# the last op of each reduction in Keras 3's graph: a function prints it as ``mse/div_no_nan:0``
_REDUCTION_NODES = {Reduction.NONE: "mul", Reduction.SUM: "Sum"}


@op("keras_loss_mask_weights", static=("dtype", "reduction"))
def _mask_weights(mask, dtype, reduction):
    keep, dtype = mask.astype(bool), jnp.dtype(dtype)
    if reduction in (Reduction.SUM_OVER_BATCH_SIZE, Reduction.AUTO):
        valid = jnp.sum(keep).astype(dtype)
        scale = jnp.where(valid == 0, jnp.zeros((), dtype), keep.size / jnp.where(valid == 0, 1, valid))
        return jnp.where(keep, scale, jnp.zeros((), dtype)).astype(dtype)
    return keep.astype(dtype)


def _times(sample_weight, mask_weights):
    weights = as_input(sample_weight)
    if weights.dtype != mask_weights.dtype:
        weights = cast(weights, mask_weights.dtype)
    return match_weight_rank(weights, mask_weights) * mask_weights


def _weights(sample_weight, losses, loss_name):
    if sample_weight is None:
        return as_input(1.0, losses.dtype)
    weights = as_input(sample_weight)
    if weights.dtype != losses.dtype:
        weights = cast(weights, losses.dtype)
    weights = match_weight_rank(weights, losses)
    try:
        np.broadcast_shapes(shape_of(weights), shape_of(losses))
    except ValueError:
        raise ValueError(f"{loss_name}: sample_weight of shape {shape_of(weights)} does not broadcast to "
                         f"the per-example losses of shape {shape_of(losses)}. Pass one weight per "
                         f"example, shape {shape_of(losses)[:1]}.") from None
    return weights
