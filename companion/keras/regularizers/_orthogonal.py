"""`OrthogonalRegularizer`: a penalty on the cosine similarity between a kernel's rows or columns."""

import math

import numpy as np

from companion._core._convert import as_input
from companion._ops import _array, _creation, _linalg, _math, _reduce
from companion.keras.regularizers._regularizers import Regularizer

_EPSILON = 1e-7  # Keras's backend.epsilon(): norms below it count as it


class OrthogonalRegularizer(Regularizer):
    """``factor * 0.5 * sum(|cos(v_i, v_j)|, i != j) / (n * (n - 1) / 2)`` over the ``n`` rows
    (``mode="rows"``) or columns (``"columns"``) of a rank-2 weight: zero when they are orthogonal.

    As in Keras 3 the factor is kept as a float32 scalar (its config shows the float32 value) and
    the weight must be rank 2.

    Example:
        >>> import companion as tf
        >>> reg = tf.keras.regularizers.OrthogonalRegularizer(factor=0.5)
        >>> round(float(reg(tf.constant([[1.0, 0.0], [1.0, 1.0]]))), 5)
        0.35355
    """

    def __init__(self, factor=0.01, mode="rows"):
        if isinstance(factor, bool) or not isinstance(factor, (int, float)) or math.isinf(factor) \
                or math.isnan(factor) or factor < 0:
            raise ValueError("Invalid value for argument factor: expected a non-negative float."
                             f"Received: factor={factor}")
        if mode not in ("rows", "columns"):
            raise ValueError('Invalid value for argument `mode`. Expected one of {"rows", "columns"}. '
                             f"Received: mode={mode}")
        self.factor = float(np.float32(factor))
        self.mode = mode

    def __call__(self, x):
        x = as_input(x)
        if x.shape.rank != 2:
            raise ValueError(f"Inputs to OrthogonalRegularizer must have rank 2. Received: "
                             f"inputs.shape={tuple(x.shape.as_list()) if x.shape.rank is not None else None}")
        axis = 1 if self.mode == "rows" else 0
        # min(1/norm, 1/epsilon), written so a zero row's gradient is 0 as in TF (not 0 * inf)
        inverse_norm = _math.rsqrt(_math.maximum(
            _reduce.reduce_sum(_math.square(x), axis=axis, keepdims=True), _EPSILON * _EPSILON))
        unit = x * inverse_norm
        if self.mode == "columns":
            unit = _array.transpose(unit)
        cosines = _linalg.matmul(unit, unit, transpose_b=True)
        size = x.shape[1 - axis]
        off_diagonal = cosines * (1.0 - _creation.eye(size, dtype=x.dtype))
        pairs = size * (size - 1.0) / 2.0
        factor = as_input(self.factor, "float32")  # float32, so a float64 weight is an error as in Keras 3
        return factor * 0.5 * _reduce.reduce_sum(_math.abs(off_diagonal)) / pairs

    def get_config(self):
        return {"factor": self.factor, "mode": self.mode}
