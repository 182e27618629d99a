"""The ``training`` argument of a layer call: a Python bool, or a boolean tensor read at run time."""

from companion._core._convert import as_input, is_tensor
from companion._ops._select import where


def training_value(training):
    """``training`` as a Python bool, or as a scalar bool tensor when only the running program knows it.

    ``None`` means inference (False). A Python value or an eager tensor is read now, so the
    layer picks its behaviour while tracing; a tensor traced inside `companion.function`
    stays a tensor and the layer computes both behaviours and selects one at run time (as
    tf.keras 2 did with ``smart_cond``).
    """
    if training is None:
        return False
    if not is_tensor(training):
        return bool(training)
    training = as_input(training)
    if training.ndim != 0 or not training.dtype.is_bool:
        raise ValueError("`training` must be a Python bool or a scalar bool tensor. Received a tensor of "
                         f"shape {training.shape} and dtype {training.dtype.name}: {training!s}")
    return training if training.is_traced else bool(training.numpy())


def select(training, when_training, otherwise):
    """``when_training()`` or ``otherwise()`` for a bool ``training``; for a tensor, both, then `where`."""
    if training is True:
        return when_training()
    if training is False:
        return otherwise()
    return where(training, when_training(), otherwise())
