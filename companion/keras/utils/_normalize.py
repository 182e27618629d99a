"""`normalize`: rows scaled to unit norm (NumPy arrays stay NumPy, tensors stay tensors)."""

import numpy as np

from companion._core._convert import as_input, is_tensor
from companion._ops._creation import ones_like
from companion._ops._linalg import norm as _norm
from companion._ops._select import where


def normalize(x, axis=-1, order=2):
    """``x`` divided by its ``order``-norm along ``axis`` (a zero norm leaves the values as they are).

    Example:
        >>> import numpy as np
        >>> import companion as tf
        >>> tf.keras.utils.normalize(np.array([[3.0, 4.0]]))
        array([[0.6, 0.8]])
    """
    if is_tensor(x):
        x = as_input(x)
        norms = _norm(x, ord="euclidean" if order == 2 else order, axis=axis, keepdims=True)
        return x / where(norms == 0, ones_like(norms), norms)
    x = np.asarray(x)
    norms = np.atleast_1d(np.linalg.norm(x, order, axis))
    norms[norms == 0] = 1
    # Keras 3 expands the norms back along `axis or -1`: for axis=0 that is the last axis (its
    # quirk, kept so the numbers are TensorFlow's)
    return x / np.expand_dims(norms, axis or -1)
