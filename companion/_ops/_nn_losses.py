"""Loss ops of `companion.nn`: cross-entropies, ``l2_loss`` and loss averaging across replicas."""

import contextlib
import numbers

import jax
import jax.numpy as jnp
import numpy as np

from companion._core._context import current_strategy, replica_example_mask, state
from companion._core._convert import as_input, is_tensor
from companion._core._errors import InvalidArgumentError, RuntimeCheckError
from companion._core._op import op
from companion._core._scopes import name_scope
from companion._core._tensor_names import fused_nodes
from companion._ops._math import cast, true_divide
from companion._ops._nn import check_axis, float_input, shape_of

# -- pure ops --------------------------------------------------------------------------------

@op("sigmoid_cross_entropy_with_logits")
def _sigmoid_cross_entropy(labels, logits):
    positive = logits >= 0
    relu_logits = jnp.where(positive, logits, 0)
    neg_abs_logits = jnp.where(positive, -logits, logits)
    return relu_logits - logits * labels + jnp.log1p(jnp.exp(neg_abs_logits))


@op("weighted_cross_entropy_with_logits")
def _weighted_cross_entropy(labels, logits, pos_weight):
    log_weight = 1 + (pos_weight - 1) * labels
    softplus_neg = jnp.log1p(jnp.exp(-jnp.abs(logits))) + jnp.maximum(-logits, 0)  # -log(sigmoid(x))
    return (1 - labels) * logits + log_weight * softplus_neg


@op("softmax_cross_entropy_with_logits", static=("axis",))
def _softmax_cross_entropy(labels, logits, axis):
    return -jnp.sum(labels * jax.nn.log_softmax(logits, axis=axis), axis=axis)


@op("sparse_softmax_cross_entropy_with_logits")
def _sparse_softmax_cross_entropy(labels, logits):
    n_classes = logits.shape[-1]
    valid = (labels >= 0) & (labels < n_classes)
    index = jnp.clip(labels, 0, n_classes - 1)[..., None]
    picked = jnp.take_along_axis(logits, index.astype(jnp.int32), axis=-1)[..., 0]
    loss = jax.nn.logsumexp(logits, axis=-1) - picked
    return jnp.where(valid, loss, jnp.nan)


@op("l2_loss")
def _l2_loss(t):
    return jnp.sum(jnp.square(t)) / 2


# -- public functions ----------------------------------------------------------------------

def sigmoid_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """Element-wise logistic loss of ``logits`` against probabilities ``labels``.

    Computed as TensorFlow does, without overflow for large ``|logits|``:
    ``max(x, 0) - x * z + log(1 + exp(-abs(x)))`` with ``x = logits``, ``z = labels``.

    Args:
        labels: a tensor of the same shape and dtype as ``logits``, values in [0, 1].
        logits: a float tensor of unscaled log-odds.

    Returns:
        The per-element losses, shaped like ``logits``.

    Raises:
        ValueError: the shapes or dtypes of ``labels`` and ``logits`` differ.

    Example:
        >>> import companion as tf
        >>> print(tf.nn.sigmoid_cross_entropy_with_logits(labels=[1.0, 0.0], logits=[0.0, 0.0]))
        companion.Tensor([0.6931472 0.6931472], shape=(2,), dtype=float32)
    """
    op_name = "sigmoid_cross_entropy_with_logits"
    labels, logits = _labels_and_logits(labels, logits, op_name)
    return _sigmoid_cross_entropy(labels, logits)


def weighted_cross_entropy_with_logits(labels, logits, pos_weight, name=None):
    """`sigmoid_cross_entropy_with_logits` with the positive term weighted by ``pos_weight``.

    ``pos_weight * z * -log(sigmoid(x)) + (1 - z) * -log(1 - sigmoid(x))`` for ``x = logits``,
    ``z = labels``, computed without overflow; ``pos_weight > 1`` favours recall.

    Example:
        >>> import companion as tf
        >>> print(tf.nn.weighted_cross_entropy_with_logits(labels=[1.0], logits=[0.0], pos_weight=2.0))
        companion.Tensor([1.3862944], shape=(1,), dtype=float32)
    """
    op_name = "weighted_cross_entropy_with_logits"
    labels, logits = _labels_and_logits(labels, logits, op_name)
    weight = pos_weight if is_tensor(pos_weight) else as_input(pos_weight, logits.dtype)
    return _weighted_cross_entropy(labels, logits, cast(weight, logits.dtype))


def softmax_cross_entropy_with_logits(labels, logits, axis=-1, name=None):
    """Cross-entropy between the distributions ``labels`` and ``softmax(logits)`` along ``axis``.

    ``-reduce_sum(labels * log_softmax(logits, axis), axis)``; gradients flow to both
    ``labels`` and ``logits`` (TensorFlow 2's behaviour).

    Args:
        labels: a tensor of the shape and dtype of ``logits``; each slice along ``axis``
            a probability distribution (e.g. one-hot rows).
        logits: a float tensor of unscaled log-probabilities, rank 1 or more.
        axis: the class dimension.

    Returns:
        The losses, shaped like ``logits`` without ``axis``.

    Example:
        >>> import companion as tf
        >>> loss = tf.nn.softmax_cross_entropy_with_logits([[0.0, 1.0]], [[0.0, 0.0]])
        >>> print(loss)
        companion.Tensor([0.6931472], shape=(1,), dtype=float32)
    """
    op_name = "softmax_cross_entropy_with_logits"
    labels, logits = _labels_and_logits(labels, logits, op_name)
    if logits.ndim == 0:
        raise ValueError(f"{op_name} needs logits of rank 1 or more. Received a scalar: {logits!s}")
    axis = check_axis(axis, logits.ndim, op_name)
    if not state.staging:
        return _softmax_cross_entropy(labels, logits, axis=axis)
    with softmax_cross_entropy_scope(name):
        return _softmax_cross_entropy(labels, logits, axis=axis)


@contextlib.contextmanager
def softmax_cross_entropy_scope(name=None):
    """While a function traces: the scope TF's graph computes `softmax_cross_entropy_with_logits` in
    (``name``, else the function's name; ``_1``... when taken), where the next op, the losses, is
    named ``Reshape_2`` (TF reshapes them back to the logits' shape last)."""
    with name_scope(name or "softmax_cross_entropy_with_logits"):
        fused_nodes((), "Reshape_2")
        yield


def sparse_softmax_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """Per-example cross-entropy of ``softmax(logits)`` against integer class ``labels``.

    Args:
        labels: an int32/int64 tensor of shape ``logits.shape[:-1]``, values in
            ``[0, num_classes)``.
        logits: a float tensor of shape ``[..., num_classes]``.

    Returns:
        The losses, shaped like ``labels`` and of the dtype of ``logits``.

    Raises:
        ValueError: ``labels`` does not have the shape ``logits.shape[:-1]``.
        InvalidArgumentError: (eager only) a label is outside ``[0, num_classes)``. Inside a
            staged function such a label gives a NaN loss instead (TF on GPU does the same).

    Example:
        >>> import companion as tf
        >>> loss = tf.nn.sparse_softmax_cross_entropy_with_logits([1], [[0.0, 0.0]])
        >>> print(loss)
        companion.Tensor([0.6931472], shape=(1,), dtype=float32)
    """
    op_name = "sparse_softmax_cross_entropy_with_logits"
    logits = float_input(logits, op_name, "logits")
    labels = as_input(labels)
    _check_sparse_labels(labels, logits, op_name)
    if not state.staging:
        return _sparse_softmax_cross_entropy(labels, logits)
    with name_scope(name or "SparseSoftmaxCrossEntropyWithLogits"):  # TF's graph: scope/op
        return _sparse_softmax_cross_entropy(labels, logits)


def l2_loss(t, name=None):
    """Half the squared L2 norm of ``t``: ``reduce_sum(t ** 2) / 2`` (a scalar).

    Example:
        >>> import companion as tf
        >>> print(tf.nn.l2_loss([1.0, 2.0]))
        companion.Tensor(2.5, shape=(), dtype=float32)
    """
    return _l2_loss(float_input(t, "l2_loss", "t"))


# -- checks -------------------------------------------------------------------------------------

def _labels_and_logits(labels, logits, op_name):
    if labels is None or logits is None:
        raise ValueError(f"{op_name} needs both `labels` and `logits`. Received: labels={labels!r}, "
                         f"logits={logits!r}")
    logits = float_input(logits, op_name, "logits")
    labels = labels if is_tensor(labels) else as_input(labels, logits.dtype)
    if labels.dtype != logits.dtype:
        raise ValueError(f"{op_name}: labels and logits must have the same dtype. Received labels "
                         f"of dtype {labels.dtype.name} and logits of dtype {logits.dtype.name}. "
                         f"Cast the labels, e.g. companion.cast(labels, companion.{logits.dtype.name}).")
    if shape_of(labels) != shape_of(logits):
        raise ValueError(f"{op_name}: labels and logits must have the same shape. Received labels of "
                         f"shape {shape_of(labels)} and logits of shape {shape_of(logits)}.")
    return labels, logits


def _check_sparse_labels(labels, logits, op_name):
    if not labels.dtype.is_integer:
        raise TypeError(f"{op_name}: labels must be an int32 or int64 tensor of class indices. "
                        f"Received dtype {labels.dtype.name}: {labels!s}. For one-hot or probability "
                        "labels use softmax_cross_entropy_with_logits.")
    if logits.ndim == 0 or shape_of(labels) != shape_of(logits)[:-1]:
        raise ValueError(f"{op_name}: labels must have the shape of logits without its last (class) "
                         f"dimension, {shape_of(logits)[:-1]}. Received labels of shape "
                         f"{shape_of(labels)} and logits of shape {shape_of(logits)}.")
    if not labels.is_traced:
        _check_label_range(np.asarray(labels), shape_of(logits)[-1], op_name)


def _check_label_range(values, n_classes, op_name):
    bad = values[(values < 0) | (values >= n_classes)]
    if bad.size:
        raise RuntimeCheckError(f"{op_name}: received a label value of {bad.flat[0]} which is outside "
                                f"the valid range of [0, {n_classes}). Labels must be class indices.")


# -- averaging across replicas (distributed training) ------------------------------------------

@op("compute_average_loss")
def _average_loss(losses, weights, divisor):
    total = jnp.sum(losses * weights)
    # TF divides with div_no_nan (a global batch of 0, an empty batch, averages to 0), correctly rounded
    safe = jnp.where(divisor == 0, 1, divisor)
    return jnp.where(divisor == 0, jnp.zeros_like(total), true_divide(total, safe))


def compute_average_loss(per_example_loss, sample_weight=None, global_batch_size=None, name=None):
    """The sum of (weighted) per-example losses divided by the *global* batch size.

    In a custom training loop under a distribution strategy, each replica sees
    ``global_batch_size / num_replicas`` examples; dividing its loss sum by the global
    batch size makes the sum of the replicas' gradients the gradient of the global mean.

    Args:
        per_example_loss: a float tensor of rank 1 or more (one loss per example first).
        sample_weight: optional weights that broadcast to ``per_example_loss``.
        global_batch_size: a positive int; by default ``per_example_loss.shape[0]`` times
            the current strategy's ``num_replicas_in_sync`` (1 without a strategy).

    Example:
        >>> import companion as tf
        >>> print(tf.nn.compute_average_loss([1.0, 2.0, 3.0], global_batch_size=6))
        companion.Tensor(1.0, shape=(), dtype=float32)
    """
    op_name = "compute_average_loss"
    losses = float_input(per_example_loss, op_name, "per_example_loss")
    if losses.ndim == 0:
        shown = losses if losses.is_traced else np.asarray(losses._value)
        raise ValueError("Invalid value passed for `per_example_loss`. Expected a tensor with at least "
                         f"rank 1. Received per_example_loss={shown} with rank 0")
    weights = _sample_weight(sample_weight, losses, op_name)
    mask = replica_example_mask(losses)  # padding of an uneven final batch counts for nothing
    if mask is not None:
        weights = weights * cast(mask, losses.dtype)
    if global_batch_size is None:
        global_batch_size = shape_of(losses)[0] * _num_replicas_in_sync()
    return _average_loss(losses, weights, _batch_size(global_batch_size, losses.dtype, op_name))


def scale_regularization_loss(regularization_loss, name=None):
    """``reduce_sum(regularization_loss) / num_replicas_in_sync``: add it once per replica.

    Example:
        >>> import companion as tf
        >>> print(tf.nn.scale_regularization_loss([0.5, 1.5]))
        companion.Tensor(2.0, shape=(), dtype=float32)
    """
    losses = float_input(regularization_loss, "scale_regularization_loss", "regularization_loss")
    divisor = as_input(float(_num_replicas_in_sync()), losses.dtype)
    return _average_loss(losses, as_input(1.0, losses.dtype), divisor)


def _sample_weight(sample_weight, losses, op_name):
    if sample_weight is None:
        return as_input(1.0, losses.dtype)
    weights = as_input(sample_weight) if is_tensor(sample_weight) else as_input(sample_weight, losses.dtype)
    if weights.dtype != losses.dtype:
        weights = cast(weights, losses.dtype)
    try:
        np.broadcast_shapes(shape_of(weights), shape_of(losses))
    except ValueError:
        raise ValueError(f"{op_name}: sample_weight of shape {shape_of(weights)} does not broadcast to "
                         f"per_example_loss of shape {shape_of(losses)}.") from None
    return weights


def _batch_size(global_batch_size, dtype, op_name):
    if is_tensor(global_batch_size):
        if not global_batch_size.dtype.is_integer:
            raise TypeError(f"global_batch_size must be an integer..  Expected \"x\" to be integer type.  "
                            f"Found: tensor of dtype {global_batch_size.dtype!s}")
        if global_batch_size.ndim != 0:
            raise ValueError(f"{op_name}: global_batch_size must be a scalar integer. Received: "
                             f"{global_batch_size!s}")
        if global_batch_size.is_traced:
                return cast(global_batch_size, dtype)
        global_batch_size = int(global_batch_size)
    if isinstance(global_batch_size, bool) or not isinstance(global_batch_size, numbers.Integral):
        found = as_input(global_batch_size).dtype
        raise TypeError(f"global_batch_size must be an integer..  Expected \"x\" to be integer type.  "
                        f"Found: tensor of dtype {found!s}")
    if global_batch_size < 0:  # TF's assert_non_negative message; 0 averages to 0
        raise InvalidArgumentError(f"global_batch_size must be non-negative..  \nCondition x >= 0 did not "
                                   f"hold element-wise:\nx (shape=() dtype=int32) = \n{global_batch_size}")
    return as_input(float(global_batch_size), dtype)


def _num_replicas_in_sync():
    """The replicas of the current distribution strategy (1 for the default strategy)."""
    strategy = current_strategy()
    return 1 if strategy is None else strategy.num_replicas_in_sync


@op("log_poisson_loss", static=("full",))
def _log_poisson_loss(targets, log_input, full):
    loss = jnp.exp(log_input) - log_input * targets
    if full:  # Stirling's approximation of log(targets!), 0 where 0 <= targets <= 1
        stirling = targets * jnp.log(targets) - targets + 0.5 * jnp.log(2 * np.pi * targets)
        loss = loss + jnp.where((targets >= 0) & (targets <= 1), jnp.zeros_like(targets), stirling)
    return loss


def log_poisson_loss(targets, log_input, compute_full_loss=False, name=None):
    """The Poisson negative log-likelihood of ``targets`` given log-rates ``log_input``, elementwise:
    ``exp(log_input) - log_input * targets`` (plus Stirling's term with ``compute_full_loss``).

    Example:
        >>> import companion as tf
        >>> print(tf.nn.log_poisson_loss([1.0, 2.0], [0.0, 0.5]))
        companion.Tensor([1.        0.6487212], shape=(2,), dtype=float32)
    """
    log_input = float_input(log_input, "log_poisson_loss", "log_input")
    targets = as_input(targets, log_input.dtype)
    if shape_of(targets) != shape_of(log_input):
        raise ValueError(f"log_poisson_loss: log_input and targets must have the same shape. Received "
                         f"{shape_of(log_input)} and {shape_of(targets)}.")
    return _log_poisson_loss(targets, log_input, full=bool(compute_full_loss))
