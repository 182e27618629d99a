"""Keras regularizers against NumPy formulas."""

import numpy as np
import pytest

import companion as tf
from companion.keras import regularizers

W = np.array([[1.0, -2.0], [0.5, 3.0]], np.float32)


@pytest.mark.parametrize("reg, expected", [
    (regularizers.L1(0.1), 0.1 * np.abs(W).sum()),
    (regularizers.L2(0.2), 0.2 * np.square(W).sum()),
    (regularizers.L1L2(l1=0.1, l2=0.2), 0.1 * np.abs(W).sum() + 0.2 * np.square(W).sum()),
    (regularizers.get("l2"), 0.01 * np.square(W).sum()),
    (regularizers.get("l1_l2"), 0.01 * (np.abs(W).sum() + np.square(W).sum())),
])
def test_penalty_matches_numpy(reg, expected):
    assert float(reg(tf.constant(W))) == pytest.approx(expected, rel=1e-6)


def test_config_round_trip_and_errors():
    reg = regularizers.L1L2(l1=0.3, l2=0.4)
    again = regularizers.deserialize(regularizers.serialize(reg))
    assert (again.l1, again.l2) == (0.3, 0.4)
    assert regularizers.get(None) is None
    with pytest.raises(ValueError, match="Unknown regularizer"):
        regularizers.get("l3")
    with pytest.raises(ValueError, match="non-negative"):
        regularizers.L2(-1.0)
