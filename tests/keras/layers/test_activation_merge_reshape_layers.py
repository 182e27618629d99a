"""Activation layers (ReLU, LeakyReLU, ELU, PReLU, Softmax), element-wise merges and the layers that
rearrange examples (Permute, RepeatVector, UpSampling, ZeroPadding, Cropping) against NumPy."""

import numpy as np
import pytest

import companion as tf

L = tf.keras.layers
X = np.linspace(-3, 3, 48).reshape(2, 2, 3, 4).astype(np.float32)


def _close(got, expected):
    np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-5, atol=1e-6)


def test_activation_layers_match_numpy():
    _close(L.ReLU(max_value=2.0)(X), np.clip(X, 0, 2))
    _close(L.ReLU(negative_slope=0.1)(X), np.where(X > 0, X, 0.1 * X))
    _close(L.LeakyReLU()(X), np.where(X > 0, X, 0.3 * X))
    _close(L.LeakyReLU(negative_slope=0.2)(X), np.where(X > 0, X, 0.2 * X))
    _close(L.ELU(0.5)(X), np.where(X > 0, X, 0.5 * (np.exp(X) - 1)))
    exp = np.exp(X - X.max(axis=-1, keepdims=True))
    _close(L.Softmax()(X), exp / exp.sum(-1, keepdims=True))
    both = np.exp(X - X.max(axis=(1, 2), keepdims=True))
    _close(L.Softmax(axis=[1, 2])(X), both / both.sum((1, 2), keepdims=True))
    mask = np.array([True, False, True, True])
    masked = L.Softmax()(X[0, 0], mask=np.broadcast_to(mask, (3, 4))).numpy()
    assert np.all(masked[:, 1] == 0) and np.allclose(masked.sum(-1), 1)
    with pytest.raises(ValueError, match="max_value"):
        L.ReLU(max_value=-1.0)


def test_prelu_learns_its_slopes_with_the_right_gradient():
    layer = L.PReLU(alpha_initializer=tf.keras.initializers.Constant(0.25), shared_axes=[1, 2])
    v = tf.Variable(X)
    with tf.GradientTape() as tape:
        y = layer(v)
        total = tf.reduce_sum(y ** 2)
    assert layer.alpha.shape == (1, 1, 4)
    prelu = np.where(X > 0, X, 0.25 * X)
    _close(y, prelu)
    grad_x, grad_alpha = tape.gradient(total, [v, layer.alpha])
    _close(grad_x, 2 * prelu * np.where(X > 0, 1, 0.25))
    _close(grad_alpha, np.sum(2 * prelu * np.minimum(X, 0), axis=(0, 1, 2)).reshape(1, 1, 4))


@pytest.mark.parametrize("cls, fn, combine", [
    (L.Subtract, tf.keras.layers.subtract, lambda a, b: a - b),
    (L.Multiply, tf.keras.layers.multiply, lambda a, b: a * b),
    (L.Average, tf.keras.layers.average, lambda a, b: (a + b) / 2),
    (L.Maximum, tf.keras.layers.maximum, np.maximum),
    (L.Minimum, tf.keras.layers.minimum, np.minimum)])
def test_elementwise_merges_match_numpy(cls, fn, combine):
    other = X[..., ::-1] * 2
    _close(cls()([X, other]), combine(X, other))
    _close(fn([X, other]), combine(X, other))
    inputs = [tf.keras.Input((3,)), tf.keras.Input((3,))]
    model = tf.keras.Model(inputs, cls()(inputs))
    assert tuple(model.output.shape) == (None, 3)


def test_subtract_takes_exactly_two_inputs():
    with pytest.raises(ValueError, match="exactly 2"):
        L.Subtract()([X, X, X])


def test_rearranging_layers_match_numpy():
    _close(L.Permute((3, 1, 2))(X), X.transpose(0, 3, 1, 2))
    _close(L.RepeatVector(3)(X[0, 0]), np.repeat(X[0, 0][:, None, :], 3, axis=1))
    _close(L.UpSampling1D(3)(X[0]), np.repeat(X[0], 3, axis=1))
    _close(L.UpSampling2D((2, 1))(X), np.repeat(X, 2, axis=1))
    _close(L.UpSampling2D(2, data_format="channels_first")(X), np.repeat(np.repeat(X, 2, 2), 2, 3))
    _close(L.ZeroPadding1D((1, 2))(X[0]), np.pad(X[0], ((0, 0), (1, 2), (0, 0))))
    _close(L.ZeroPadding2D(((1, 0), (2, 1)))(X), np.pad(X, ((0, 0), (1, 0), (2, 1), (0, 0))))
    _close(L.ZeroPadding2D(1, data_format="channels_first")(X), np.pad(X, ((0, 0), (0, 0), (1, 1), (1, 1))))
    _close(L.Cropping1D((1, 0))(X[0]), X[0][:, 1:])
    _close(L.Cropping2D(((1, 0), (0, 1)))(X), X[:, 1:, :-1])
    with pytest.raises(ValueError, match="leaves nothing"):
        L.Cropping1D((2, 1))(X[0])


def test_bilinear_upsampling_keeps_constant_images_and_the_mean():
    ones = np.full((1, 3, 3, 2), 5.0, np.float32)
    _close(L.UpSampling2D(2, interpolation="bilinear")(ones), np.full((1, 6, 6, 2), 5.0))
    ramp = np.arange(4, dtype=np.float32).reshape(1, 1, 4, 1)
    up = L.UpSampling2D((1, 2), interpolation="bilinear")(ramp).numpy()[0, 0, :, 0]
    assert np.all(np.diff(up) >= 0) and up[0] == 0 and up[-1] == 3  # half-pixel centres, clamped


def test_the_new_layers_in_a_model_with_shapes_and_configs():
    model = tf.keras.Sequential([
        tf.keras.Input((4, 4, 2)), L.ZeroPadding2D(1), L.Cropping2D(((0, 1), (1, 0))), L.UpSampling2D(),
        L.Permute((3, 1, 2)), L.Reshape((-1,)), L.RepeatVector(2), L.Flatten(), L.Dense(3), L.LeakyReLU(),
        L.PReLU(), L.Softmax()])
    assert [tuple(layer.output.shape) for layer in model.layers] == [
        (None, 6, 6, 2), (None, 5, 5, 2), (None, 10, 10, 2), (None, 2, 10, 10), (None, 200),
        (None, 2, 200), (None, 400), (None, 3), (None, 3), (None, 3), (None, 3)]
    assert model.count_params() == 400 * 3 + 3 + 3
    for layer in model.layers[:6] + model.layers[8:]:
        clone = type(layer).from_config(layer.get_config())
        assert clone.get_config() == layer.get_config()
    x = np.random.default_rng(0).normal(size=(8, 4, 4, 2)).astype(np.float32)
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    history = model.fit(x, np.arange(8) % 3, epochs=3, verbose=0).history["loss"]
    assert np.isfinite(history).all()
