"""BatchNormalization and LayerNormalization against NumPy, incl. moving statistics and tracing."""

import numpy as np
import pytest

import companion as tf
from companion.keras import layers
from tests.keras.layers.layer_checks import check_layer

RNG = np.random.default_rng(0)
X = RNG.normal(loc=2.0, scale=3.0, size=(6, 3)).astype(np.float32)
X4 = RNG.normal(size=(3, 2, 4, 5)).astype(np.float32)


def np_normalize(x, mean, variance, beta, gamma, epsilon):
    return gamma * (x - mean) / np.sqrt(variance + epsilon) + beta


def np_batch_norm_steps(batches, momentum, axes):
    """Training outputs and the moving (mean, variance) after each batch, Keras's update rule."""
    moving_mean, moving_var, outputs = 0.0, 1.0, []
    for x in batches:
        x = x.astype(np.float64)
        mean, var = x.mean(axis=axes, keepdims=True), x.var(axis=axes, keepdims=True)
        outputs.append(np_normalize(x, mean, var, 0.0, 1.0, 1e-3))
        moving_mean = moving_mean * momentum + mean * (1 - momentum)
        moving_var = moving_var * momentum + var * (1 - momentum)
    return outputs, np.squeeze(moving_mean), np.squeeze(moving_var)


def _random_weights(layer):
    layer.set_weights([RNG.uniform(0.5, 1.5, size=w.shape).astype(np.float32) for w in layer.weights])
    return [w.numpy() for w in layer.weights]


# -- BatchNormalization --------------------------------------------------------------------------

def test_batch_norm_inference_uses_moving_stats():
    layer = layers.BatchNormalization()
    layer(X)
    assert [w.name for w in layer.weights] == [  # TF 2.21 (Keras 3)
        "gamma", "beta", "moving_mean", "moving_variance"]
    assert [w.trainable for w in layer.weights] == [True, True, False, False]
    gamma, beta, mean, var = _random_weights(layer)
    expected = np_normalize(X, mean, var, beta, gamma, 1e-3)
    check_layer(layer, X, (6, 3), 4, expected=expected, rtol=1e-5)
    check_layer(layer, X, (6, 3), 4, expected=expected, call_kwargs={"training": False}, rtol=1e-5)


def test_batch_norm_training_uses_batch_stats_and_gradients():
    layer = layers.BatchNormalization(axis=1)
    layer(X4)
    gamma, beta, _, _ = _random_weights(layer)
    axes = (0, 2, 3)
    shape = (1, 2, 1, 1)
    expected = np_normalize(X4, X4.mean(axis=axes, keepdims=True), X4.var(axis=axes, keepdims=True),
                            beta.reshape(shape), gamma.reshape(shape), 1e-3)
    check_layer(layer, X4, X4.shape, 4, expected=expected, call_kwargs={"training": True}, rtol=1e-5)


def test_batch_norm_moving_stats_follow_momentum():
    batches = [RNG.normal(loc=i, scale=i + 1, size=(8, 3)).astype(np.float32) for i in range(3)]
    layer = layers.BatchNormalization(momentum=0.8)
    outputs, mean, var = np_batch_norm_steps(batches, 0.8, axes=0)
    for x, expected in zip(batches, outputs):
        np.testing.assert_allclose(layer(x, training=True).numpy(), expected, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(layer.moving_mean.numpy(), mean, rtol=1e-5)
    np.testing.assert_allclose(layer.moving_variance.numpy(), var, rtol=1e-5)


def test_batch_norm_several_axes():
    layer = layers.BatchNormalization(axis=[1, 3], momentum=0.5, center=False)
    out = check_layer(layer, X4, X4.shape, 3, call_kwargs={"training": True})
    outputs, mean, var = np_batch_norm_steps([X4], 0.5, axes=(0, 2))
    np.testing.assert_allclose(out, outputs[0], rtol=1e-4, atol=1e-5)
    assert layer.gamma.shape == (1, 2, 1, 5)
    assert layer.get_config()["axis"] == [1, 3]


def test_batch_norm_updates_inside_function_match_eager():
    eager, staged = layers.BatchNormalization(momentum=0.7), layers.BatchNormalization(momentum=0.7)

    @tf.function
    def step(x):
        return staged(x, training=True)

    for i in range(3):
        x = X + i
        np.testing.assert_allclose(step(x).numpy(), eager(x, training=True).numpy(), rtol=1e-5, atol=1e-6)
    for name in ("moving_mean", "moving_variance"):
        np.testing.assert_allclose(getattr(staged, name).numpy(), getattr(eager, name).numpy(), rtol=1e-6)
    _, mean, var = np_batch_norm_steps([X + i for i in range(3)], 0.7, axes=0)
    np.testing.assert_allclose(staged.moving_mean.numpy(), mean, rtol=1e-5)
    np.testing.assert_allclose(staged.moving_variance.numpy(), var, rtol=1e-5)


def test_batch_norm_update_under_gradient_tape():
    layer = layers.BatchNormalization(momentum=0.0)
    x = tf.constant(X)
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(layer(x, training=True) * X)
    grads = tape.gradient(loss, [x] + layer.trainable_weights)
    assert all(g is not None for g in grads)
    np.testing.assert_allclose(layer.moving_mean.numpy(), X.mean(axis=0), rtol=1e-5)
    np.testing.assert_allclose(layer.moving_variance.numpy(), X.var(axis=0), rtol=1e-5)


def test_frozen_batch_norm_runs_in_inference_mode():
    layer = layers.BatchNormalization(trainable=False)
    layer(X)
    gamma, beta, mean, var = _random_weights(layer)
    assert layer.trainable_weights == [] and len(layer.non_trainable_weights) == 4
    expected = np_normalize(X, mean, var, beta, gamma, 1e-3)
    check_layer(layer, X, (6, 3), 4, expected=expected, call_kwargs={"training": True}, rtol=1e-5)
    np.testing.assert_array_equal(layer.moving_mean.numpy(), mean)
    np.testing.assert_array_equal(layer.moving_variance.numpy(), var)


def test_batch_norm_errors():
    with pytest.raises(ValueError, match="momentum=1.5"):
        layers.BatchNormalization(momentum=1.5)
    with pytest.raises(TypeError, match="axis='last'"):
        layers.BatchNormalization(axis="last")
    with pytest.raises(ValueError, match="axis=2"):
        layers.BatchNormalization(axis=2)(X)
    with pytest.raises(ValueError, match="Duplicate"):
        layers.BatchNormalization(axis=[1, -1])(X)
    layer = layers.BatchNormalization(name="bn")
    layer(X)
    with pytest.raises(ValueError, match="'bn'.*axis 1"):
        layer(X[:, :2])


# -- LayerNormalization --------------------------------------------------------------------------

def test_layer_norm_matches_numpy():
    layer = layers.LayerNormalization()
    layer(X)
    gamma, beta = _random_weights(layer)
    mean, var = X.mean(axis=-1, keepdims=True), X.var(axis=-1, keepdims=True)
    check_layer(layer, X, (6, 3), 2, expected=np_normalize(X, mean, var, beta, gamma, 1e-3), rtol=1e-5)


def test_layer_norm_several_axes_and_no_affine():
    layer = layers.LayerNormalization(axis=[1, 2], epsilon=0.01)
    layer(X4)
    gamma, beta = _random_weights(layer)
    assert gamma.shape == (2, 4)
    axes = (1, 2)
    expected = np_normalize(X4, X4.mean(axis=axes, keepdims=True), X4.var(axis=axes, keepdims=True),
                            beta[..., None], gamma[..., None], 0.01)
    check_layer(layer, X4, X4.shape, 2, expected=expected, rtol=1e-5)
    plain = layers.LayerNormalization(axis=(2,), center=False, scale=False)
    expected = np_normalize(X4, X4.mean(axis=2, keepdims=True), X4.var(axis=2, keepdims=True), 0, 1, 1e-3)
    check_layer(plain, X4, X4.shape, 0, expected=expected, rtol=1e-5)


def test_layer_norm_errors():
    with pytest.raises(ValueError, match="epsilon=-1"):
        layers.LayerNormalization(epsilon=-1)
    with pytest.raises(ValueError, match="axis=3"):
        layers.LayerNormalization(axis=3)(X)


def test_batch_norm_matches_keras_3_numbers():
    # TF 2.21 / Keras 3.15, default BatchNormalization (momentum 0.99, epsilon 1e-3) on this input:
    x = np.array([[1., 2., -1.], [3., 0., 5.], [-2., 4., 1.], [0.5, 1.5, 2.5]], np.float32)
    layer = layers.BatchNormalization()
    np.testing.assert_allclose(layer(x, training=True).numpy()[0],
                               [0.2105255424976349, 0.0873490571975708, -1.3125425577163696], rtol=1e-5)
    for _ in range(2):
        layer(x, training=True)
    np.testing.assert_allclose(layer.moving_mean.numpy(),
                               [0.018563123419880867, 0.05568937212228775, 0.05568937212228775], rtol=1e-5)
    np.testing.assert_allclose(layer.moving_variance.numpy(),
                               [1.0645067691802979, 1.0310931205749512, 1.1127710342407227], rtol=1e-5)
    np.testing.assert_allclose(layer(x).numpy()[1],  # inference: the moving statistics
                               [2.8883345127105713, -0.054816700518131256, 4.684980392456055], rtol=1e-5)
    assert layer.count_params() == 12 and len(layer.trainable_weights) == 2


def test_batch_norm_moving_stats_after_fit_match_keras_3():
    # TF 2.21 / Keras 3.15: fit(x, ones, batch_size=2, epochs=1, shuffle=False) with SGD and MSE
    x = np.array([[1., 2., -1.], [3., 0., 5.], [-2., 4., 1.], [0.5, 1.5, 2.5]], np.float32)
    model = tf.keras.Sequential([tf.keras.Input((3,)), layers.BatchNormalization(),
                                 layers.Dense(1, kernel_initializer="ones")])
    model.compile("sgd", "mse")
    model.fit(x, np.ones((4, 1), np.float32), batch_size=2, epochs=1, shuffle=False, verbose=0)
    bn = model.layers[0]
    np.testing.assert_allclose(bn.moving_mean.numpy(), [0.0123, 0.0374, 0.0373], rtol=1e-5)
    np.testing.assert_allclose(bn.moving_variance.numpy(), [1.005625, 1.005625, 1.074825], rtol=1e-5)


def test_group_normalization_matches_numpy_per_group():
    x = np.random.default_rng(10).normal(size=(2, 3, 4, 6)).astype(np.float32) * 3 + 1
    out = tf.keras.layers.GroupNormalization(groups=2, epsilon=1e-3)(x).numpy()
    grouped = x.reshape(2, 3, 4, 2, 3)
    mean = grouped.mean(axis=(1, 2, 4), keepdims=True)
    var = grouped.var(axis=(1, 2, 4), keepdims=True)
    expected = ((grouped - mean) / np.sqrt(var + 1e-3)).reshape(x.shape)
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-5)
    instance = tf.keras.layers.GroupNormalization(groups=-1)(x).numpy()
    per_channel = (x - x.mean((1, 2), keepdims=True)) / np.sqrt(x.var((1, 2), keepdims=True) + 1e-3)
    np.testing.assert_allclose(instance, per_channel, rtol=1e-4, atol=1e-5)
    with pytest.raises(ValueError, match="multiple"):
        tf.keras.layers.GroupNormalization(groups=4)(x)
