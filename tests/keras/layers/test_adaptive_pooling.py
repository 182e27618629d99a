"""Adaptive pooling against a NumPy oracle of PyTorch's windows, 1-D to 3-D, both data formats."""

import itertools

import numpy as np
import pytest

import companion as tf
from companion.keras import layers

RNG = np.random.default_rng(0)


def windows(n, m):
    return [((i * n) // m, -((-(i + 1) * n) // m)) for i in range(m)]


def np_adaptive(x, output_size, reduce):
    """``x`` channels-last; each output cell reduces its window (floor(i*n/m) to ceil((i+1)*n/m))."""
    spatial = x.shape[1:-1]
    out = np.zeros((x.shape[0], *output_size, x.shape[-1]), np.float64)
    per_axis = [windows(n, m) for n, m in zip(spatial, output_size)]
    for cell in itertools.product(*(range(m) for m in output_size)):
        index = (slice(None),) + tuple(slice(*per_axis[a][i]) for a, i in enumerate(cell)) + (slice(None),)
        axes = tuple(range(1, len(spatial) + 1))
        out[(slice(None), *cell, slice(None))] = reduce(x[index].astype(np.float64), axis=axes)
    return out


CASES = [(layers.AdaptiveAveragePooling1D, np.mean, (2, 7, 3), [(1,), (2,), (3,), (5,), (9,)]),
         (layers.AdaptiveMaxPooling1D, np.max, (2, 7, 3), [(1,), (3,), (7,), (9,)]),
         (layers.AdaptiveAveragePooling2D, np.mean, (2, 5, 6, 3), [(1, 1), (2, 3), (4, 4), (7, 8)]),
         (layers.AdaptiveMaxPooling2D, np.max, (2, 5, 6, 3), [(1, 1), (2, 3), (4, 4), (7, 8)]),
         (layers.AdaptiveAveragePooling3D, np.mean, (1, 5, 4, 6, 2), [(1, 1, 1), (2, 3, 4), (3, 3, 3)]),
         (layers.AdaptiveMaxPooling3D, np.max, (1, 5, 4, 6, 2), [(2, 3, 4), (3, 3, 3)])]


@pytest.mark.parametrize("cls, reduce, shape, sizes", CASES, ids=[c[0].__name__ for c in CASES])
def test_matches_the_numpy_windows_in_both_data_formats(cls, reduce, shape, sizes):
    x = RNG.random(shape).astype(np.float32)
    rank = len(shape) - 2
    to_first = [0, rank + 1, *range(1, rank + 1)]
    for size in sizes:
        expected = np_adaptive(x, size, reduce)
        layer = cls(size if len(set(size)) > 1 else size[0])
        np.testing.assert_allclose(layer(x).numpy(), expected, rtol=1e-6, atol=1e-6)
        first = cls(size, data_format="channels_first")
        np.testing.assert_allclose(first(np.transpose(x, to_first)).numpy(), np.transpose(expected, to_first),
                                   rtol=1e-6, atol=1e-6)
        assert first.compute_output_shape((None, shape[-1], *shape[1:-1])) == (None, shape[-1], *size)


def test_config_round_trip_symbolic_model_and_tracing():
    layer = layers.AdaptiveAveragePooling2D([3, 2], name="p")
    config = layer.get_config()
    assert config["output_size"] == (3, 2) and config["data_format"] == "channels_last"
    assert layers.AdaptiveAveragePooling2D.from_config(config).get_config() == config
    inputs = tf.keras.Input((5, 6, 3))
    model = tf.keras.Sequential([inputs, layers.AdaptiveMaxPooling2D(2), layers.Flatten(), layers.Dense(1)])
    assert model.output_shape == (None, 1)
    model.compile("sgd", "mse")
    model.fit(RNG.random((4, 5, 6, 3)), np.ones((4, 1)), verbose=0)
    x = RNG.random((2, 5, 6, 3)).astype(np.float32)
    traced = tf.function(lambda t: layers.AdaptiveAveragePooling2D(2)(t))
    np.testing.assert_allclose(traced(x).numpy(), np_adaptive(x, (2, 2), np.mean), rtol=1e-6)


def test_gradients_flow_to_the_window_maximum():
    x = tf.constant(np.arange(6.0, dtype=np.float32).reshape(1, 6, 1))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(layers.AdaptiveMaxPooling1D(2)(x))
    np.testing.assert_array_equal(tape.gradient(y, x).numpy().ravel(), [0, 0, 1, 0, 0, 1])


def test_bad_arguments_raise_keras_errors():
    with pytest.raises(ValueError, match="tuple must have length 1"):
        layers.AdaptiveAveragePooling1D((1, 2))
    with pytest.raises(TypeError, match="integer or tuple of 1 integer"):
        layers.AdaptiveAveragePooling1D("a")
    with pytest.raises(TypeError, match=r"\(height, width\) tuple"):
        layers.AdaptiveAveragePooling2D((1, 2, 3))
    with pytest.raises(TypeError, match=r"\(depth, height, width\) tuple"):
        layers.AdaptiveMaxPooling3D(1.5)
    with pytest.raises(ValueError, match="Invalid data_format"):
        layers.AdaptiveMaxPooling2D(2, data_format="nhwc")
    with pytest.raises(ValueError, match="positive"):
        layers.AdaptiveMaxPooling2D((0, 2))
