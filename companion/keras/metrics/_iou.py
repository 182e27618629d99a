"""`MeanIoU`, `IoU`, `BinaryIoU`, `OneHotIoU`, `OneHotMeanIoU`: intersection over union per class, from an
accumulated confusion matrix."""

import jax.numpy as jnp

from companion._core._convert import as_input
from companion._core._op import op
from companion._ops._math import cast
from companion._ops._reduce import argmax
from companion.keras.metrics._metric import Metric


@op("keras_confusion_matrix", static=("num_classes", "ignore_class"))
def _confusion(y_true, y_pred, weights, num_classes, ignore_class):
    y_true, y_pred = y_true.reshape(-1).astype(jnp.int32), y_pred.reshape(-1).astype(jnp.int32)
    weights = jnp.broadcast_to(weights.reshape(-1) if weights.ndim else weights, y_true.shape)
    if ignore_class is not None:
        weights = jnp.where(y_true == ignore_class, 0, weights)
    index = y_true * num_classes + y_pred
    # Keras counts in int64, so a fractional sample weight is truncated first (0.3 counts 0): its numbers
    weights = weights.astype(jnp.int64)
    counts = jnp.zeros(num_classes * num_classes, jnp.int64).at[index].add(weights, mode="drop")
    return counts.reshape(num_classes, num_classes)


@op("keras_mean_iou", static=("dtype",))
def _mean_iou(matrix, dtype):
    matrix = matrix.astype(dtype)
    true_positives = jnp.diagonal(matrix)
    union = jnp.sum(matrix, 0) + jnp.sum(matrix, 1) - true_positives
    present = union > 0
    iou = jnp.where(present, true_positives / jnp.where(present, union, 1), 0)
    count = jnp.sum(present)
    return jnp.where(count > 0, jnp.sum(iou) / jnp.maximum(count, 1), 0).astype(matrix.dtype)


class MeanIoU(Metric):
    """The mean Intersection-over-Union of class predictions, TF's ``tf.keras.metrics.MeanIoU``:
    ``TP / (TP + FP + FN)`` per class, averaged over the classes that occur (in labels or predictions).

    Labels and predictions are class ids (``sparse_y_true``/``sparse_y_pred``; False takes the
    argmax along ``axis``); ``ignore_class`` leaves that label out.

    Example:
        >>> import companion as tf
        >>> print(tf.keras.metrics.MeanIoU(num_classes=2)([0, 0, 1, 1], [0, 1, 0, 1]))
        companion.Tensor(0.33333334, shape=(), dtype=float32)
    """

    _direction = "up"  # larger values are better (what callbacks' mode="auto" reads)

    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None, sparse_y_true=True,
                 sparse_y_pred=True, axis=-1):
        super().__init__(name=name, dtype=dtype)
        self._config_dtype = dtype or "int64"  # Keras 3 keeps the counts' dtype here (results are float32)
        self.num_classes = int(num_classes)
        self.ignore_class, self.sparse_y_true, self.sparse_y_pred, self.axis = (
            ignore_class, sparse_y_true, sparse_y_pred, axis)
        self.total_cm = self.add_weight(name="total_confusion_matrix", dtype="int64",
                                        shape=(self.num_classes, self.num_classes))

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true, y_pred = as_input(y_true), as_input(y_pred)
        if not self.sparse_y_true:
            y_true = argmax(y_true, axis=self.axis)
        if not self.sparse_y_pred:
            y_pred = argmax(y_pred, axis=self.axis)
        weights = as_input(1.0 if sample_weight is None else sample_weight, self._dtype)
        self.total_cm.assign_add(_confusion(y_true, y_pred, weights, num_classes=self.num_classes,
                                            ignore_class=self.ignore_class))

    def result(self):
        return _mean_iou(self.total_cm.value(), dtype=self._dtype._np)

    def get_config(self):
        return {"num_classes": self.num_classes, "name": self.name, "dtype": str(self._config_dtype),
                "ignore_class": self.ignore_class, "sparse_y_true": self.sparse_y_true,
                "sparse_y_pred": self.sparse_y_pred, "axis": self.axis}



@op("keras_iou", static=("targets", "dtype"))
def _target_iou(matrix, targets, dtype):
    matrix = matrix.astype(dtype)
    true_positives = jnp.diagonal(matrix)
    denominator = jnp.sum(matrix, 0) + jnp.sum(matrix, 1) - true_positives
    index = jnp.asarray(targets)
    true_positives, denominator = true_positives[index], denominator[index]
    valid = jnp.sum((denominator > 1e-9).astype(dtype))
    iou = true_positives / (denominator + 1e-7)
    return jnp.sum(iou) / (valid + 1e-7)


class IoU(MeanIoU):
    """Intersection-over-Union averaged over ``target_class_ids`` only (Keras 3's formula:
    ``TP / (TP + FP + FN + 1e-7)`` per class, over the classes with a non-empty union).

    Example:
        >>> import companion as tf
        >>> m = tf.keras.metrics.IoU(num_classes=2, target_class_ids=[0])
        >>> round(float(m([0, 0, 1, 1], [0, 1, 0, 1])), 4)
        0.3333
    """

    def __init__(self, num_classes, target_class_ids, name=None, dtype=None, ignore_class=None,
                 sparse_y_true=True, sparse_y_pred=True, axis=-1):
        super().__init__(num_classes, name=name, dtype=dtype, ignore_class=ignore_class,
                         sparse_y_true=sparse_y_true, sparse_y_pred=sparse_y_pred, axis=axis)
        if max(target_class_ids) >= num_classes:
            raise ValueError(f"Target class id {max(target_class_ids)} is out of range, which is [0, "
                             f"{num_classes}).")
        self.target_class_ids = list(target_class_ids)

    def result(self):
        return _target_iou(self.total_cm.value(), targets=tuple(self.target_class_ids), dtype=self._dtype._np)

    def get_config(self):
        config = super().get_config()
        return {"name": config.pop("name"), "dtype": config.pop("dtype"),
                "num_classes": config.pop("num_classes"), "target_class_ids": self.target_class_ids,
                **config}  # Keras 3's order


class BinaryIoU(IoU):
    """`IoU` of binary labels against predictions thresholded at ``threshold`` (>= counts as 1)."""

    def __init__(self, target_class_ids=(0, 1), threshold=0.5, name=None, dtype=None):
        super().__init__(num_classes=2, target_class_ids=target_class_ids, name=name, dtype=dtype)
        self.threshold = threshold

    def update_state(self, y_true, y_pred, sample_weight=None):
        predicted = cast(as_input(y_pred, "float32") >= self.threshold, "int32")
        return super().update_state(y_true, predicted, sample_weight)

    def get_config(self):
        return {"target_class_ids": self.target_class_ids, "threshold": self.threshold, "name": self.name,
                "dtype": str(self._config_dtype)}


class OneHotIoU(IoU):
    """`IoU` for one-hot labels (and, by default, class-probability predictions): argmax first."""

    def __init__(self, num_classes, target_class_ids, name=None, dtype=None, ignore_class=None,
                 sparse_y_pred=False, axis=-1):
        super().__init__(num_classes, target_class_ids, name=name, dtype=dtype, ignore_class=ignore_class,
                         sparse_y_true=False, sparse_y_pred=sparse_y_pred, axis=axis)


class OneHotMeanIoU(MeanIoU):
    """`MeanIoU` for one-hot labels (and, by default, class-probability predictions): argmax first."""

    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None, sparse_y_pred=False, axis=-1):
        super().__init__(num_classes, name=name, dtype=dtype, ignore_class=ignore_class, sparse_y_true=False,
                         sparse_y_pred=sparse_y_pred, axis=axis)
