"""`Reshape`: Keras 3's checks of the target shape and its error texts (recorded from TF 2.21)."""

import numpy as np
import pytest

import companion as tf

layers = tf.keras.layers
A = np.arange(6, dtype=np.float32).reshape(2, 3)


def test_sizes_resolve_like_numpy():
    np.testing.assert_array_equal(layers.Reshape((3, -1))(A).numpy(), A.reshape(2, 3, 1))
    assert layers.Reshape((-1, 2)).compute_output_shape((None, None, 4)) == (None, None, 2)


@pytest.mark.parametrize(("target", "message"), [
    ((4,), "The total size of the tensor must be unchanged. Received: input_shape=(3,), target_shape=(4,)"),
    ((-1, 2), "The total size of the tensor must be unchanged, however, the input size cannot by divided "
              "by the specified dimensions in target_shape. Received: input_shape=(3,), "
              "target_shape=(-1, 2)"),
])
def test_incompatible_target_is_reported_by_the_call(target, message):
    with pytest.raises(ValueError) as info:
        layers.Reshape(target)(A)
    lines = str(info.value).replace("\x1b[1m", "").replace("\x1b[0m", "").splitlines()
    assert lines[:3] == ["Exception encountered when calling Reshape.call().", "", message]
    with pytest.raises(ValueError) as info:
        layers.Reshape(target)(tf.keras.Input((3,)))
    assert message in str(info.value) and "  • args=(" in str(info.value)


@pytest.mark.parametrize(("target", "message"), [
    ((-1, -1), r"There must be at most one unknown dimension \(-1\) in `target_shape`\. "
               r"Received: target_shape=\(-1, -1\)\.$"),
    ((-2, 3), r"Each dimension in `target_shape` must be a non-negative integer, or `-1` for a single "
              r"unknown dimension\. Received: target_shape=\(-2, 3\)\.$"),
])
def test_bad_target_shapes_are_refused_at_construction(target, message):
    with pytest.raises(ValueError, match=message):
        layers.Reshape(target)
