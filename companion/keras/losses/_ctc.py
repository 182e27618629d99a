"""CTC loss as a Keras loss: integer label sequences against per-step logits (blank class 0)."""

from companion._core._convert import as_input
from companion._ops._array import shape
from companion._ops._creation import fill
from companion._ops._math import cast, not_equal
from companion._ops._reduce import reduce_sum
from companion.keras.losses._loss import LossFunctionWrapper
from companion.keras.losses._reduction import Reduction


def ctc(y_true, y_pred):
    """The CTC loss (``-log p(labels | logits)``) of each sample, as Keras 3's ``keras.losses.ctc``.

    ``y_true`` is ``(batch, max_label_length)`` integer labels where 0 is the blank and pads the
    end of each row (a row's length is its count of non-zero labels); ``y_pred`` is
    ``(batch, steps, classes)`` unnormalized logits, every step of which counts.

    Raises:
        ValueError: ``y_true`` is not rank 2 or ``y_pred`` not rank 3.

    Example:
        >>> import companion as tf
        >>> logits = tf.zeros((1, 2, 3))  # two steps, uniform over blank and classes 1, 2
        >>> round(float(tf.keras.losses.ctc(tf.constant([[1]]), logits)[0]), 4)  # paths 1b, b1, 11
        1.0986
    """
    # deferred: keras.ops imports the Keras activations and backend, which are loaded on first use
    from companion.keras.ops import _nn

    y_true, y_pred = as_input(y_true), as_input(y_pred)
    if y_true.shape.rank != 2:
        raise ValueError("Targets `y_true` are expected to be a tensor of shape `(batch_size, max_length)` "
                         f"in integer format. Received: y_true.shape={_shape(y_true)}")
    if y_pred.shape.rank != 3:
        raise ValueError("Logits `y_pred` are expected to be a tensor of shape `(batch_size, max_length, "
                         f"num_classes)`. Received: y_pred.shape={_shape(y_pred)}")
    labels = cast(y_true, "int32")
    label_length = reduce_sum(cast(not_equal(labels, 0), "int32"), axis=-1)
    batch, steps = y_pred.shape.as_list()[:2]
    if batch is None or steps is None:  # traced with unknown sizes: read them from the tensor
        sizes = shape(y_pred)
        batch, steps = sizes[0], sizes[1]
    input_length = fill([batch], cast(as_input(steps), "int32"))  # every step counts
    return _nn.ctc_loss(labels, y_pred, label_length, input_length, mask_index=0)


def _shape(x):
    return tuple(x.shape.as_list()) if x.shape.rank is not None else None


class CTC(LossFunctionWrapper):
    """`ctc` as a loss, TensorFlow's ``tf.keras.losses.CTC``."""

    def __init__(self, reduction=Reduction.SUM_OVER_BATCH_SIZE, name="ctc"):
        super().__init__(ctc, reduction=reduction, name=name)

    def call(self, y_true, y_pred):
        return ctc(y_true, y_pred)  # no squeeze of the labels against the logits' rank
