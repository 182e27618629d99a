"""`to_categorical`: integer class labels to one-hot arrays (tensors for tensor labels), Keras 3's rules."""

import numpy as np

from companion._core._convert import convert_to_tensor


def to_categorical(y, num_classes=None, dtype=None):
    """Converts a class vector (integers) to a one-hot class matrix.

    As in Keras 3, a trailing dimension of size 1 is dropped first (labels of shape
    ``(n, 1)`` give ``(n, num_classes)``), and ``num_classes`` defaults to
    ``max(y) + 1``. Labels given as a list or NumPy array give a float64 NumPy array;
    labels given as a tensor give a float32 tensor (Keras 3's ``one_hot`` of it).

    Args:
        y: integer class labels in ``[0, num_classes)``: an array-like or a tensor.
        num_classes: the number of classes; None to infer it from ``y``.
        dtype: companion's addition (Keras 3 has no such argument): the result's dtype
            instead of float64 / float32.

    Returns:
        An array (or tensor) of shape ``y.shape + (num_classes,)`` (after the squeeze above).

    Raises:
        ValueError: a label is negative or not below ``num_classes``.

    Example:
        >>> import companion as tf
        >>> tf.keras.utils.to_categorical([0, 2, 1], num_classes=3)
        array([[1., 0., 0.],
               [0., 0., 1.],
               [0., 1., 0.]])
    """
    is_tensor = hasattr(y, "numpy") and not isinstance(y, np.ndarray)
    y = np.array(_as_numpy(y), dtype="int64")
    shape = y.shape
    if len(shape) > 1 and shape[-1] == 1:
        shape = shape[:-1]
    y = y.reshape(-1)
    num_classes = _checked_num_classes(y, num_classes)
    categorical = np.zeros((y.shape[0], num_classes), dtype=dtype or ("float32" if is_tensor else "float64"))
    categorical[np.arange(y.shape[0]), y] = 1
    categorical = categorical.reshape(shape + (num_classes,))
    if is_tensor:
        return convert_to_tensor(categorical)
    return categorical


def _as_numpy(y):
    return y.numpy() if hasattr(y, "numpy") else y


def _checked_num_classes(y, num_classes):
    if num_classes is None:
        if y.size == 0:
            raise ValueError("to_categorical cannot infer `num_classes` from empty labels; pass "
                             "num_classes. Received: y with 0 elements, num_classes=None")
        num_classes = int(y.max()) + 1
    if y.size and y.min() < 0:
        raise ValueError("to_categorical expects labels in [0, num_classes); found a negative "
                         f"label. Received: min(y)={int(y.min())}")
    if y.size and y.max() >= num_classes:
        raise ValueError(f"to_categorical expects labels in [0, num_classes={num_classes}); found "
                         f"a label that is too large. Received: max(y)={int(y.max())}")
    return int(num_classes)
