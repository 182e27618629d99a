"""Keras weight constraints against NumPy formulas, and optimizers applying them after each update."""

import numpy as np
import pytest

import companion as tf
from companion.keras import constraints

W = np.array([[3.0, -1.0], [4.0, 0.5]], np.float32)
EPS = 1e-7


def _norms(w, axis):
    return np.sqrt(np.sum(w * w, axis=axis, keepdims=True))


@pytest.mark.parametrize("constraint, expected", [
    (constraints.MaxNorm(2.0), W * np.clip(_norms(W, 0), 0, 2.0) / (EPS + _norms(W, 0))),
    (constraints.MaxNorm(1.0, axis=1), W * np.clip(_norms(W, 1), 0, 1.0) / (EPS + _norms(W, 1))),
    (constraints.MinMaxNorm(1.0, 2.0, rate=0.5),
     W * (0.5 * np.clip(_norms(W, 0), 1.0, 2.0) + 0.5 * _norms(W, 0)) / (EPS + _norms(W, 0))),
    (constraints.NonNeg(), np.maximum(W, 0)),
    (constraints.UnitNorm(), W / (EPS + _norms(W, 0))),
    (constraints.Constraint(), W),
])
def test_projection_matches_numpy(constraint, expected):
    np.testing.assert_allclose(constraint(tf.constant(W)).numpy(), expected, rtol=1e-6)


def test_get_serialize_and_errors():
    assert constraints.get(None) is None
    assert isinstance(constraints.get("max_norm"), constraints.MaxNorm)
    assert isinstance(constraints.get("NonNeg"), constraints.NonNeg)
    assert isinstance(constraints.get(constraints.UnitNorm), constraints.UnitNorm)  # a class: instantiated
    again = constraints.get(constraints.serialize(constraints.MinMaxNorm(0.5, 3.0, rate=0.2, axis=1)))
    assert again.get_config() == {"min_value": 0.5, "max_value": 3.0, "rate": 0.2, "axis": 1}
    projection = lambda w: w  # noqa: E731
    assert constraints.get(projection) is projection
    with pytest.raises(ValueError, match="Unknown constraint"):
        constraints.get("max_nrm")
    with pytest.raises(ValueError, match="Could not interpret constraint identifier"):
        constraints.get(3)


def test_optimizer_projects_after_the_update_eagerly_and_in_functions():
    init = tf.keras.initializers.Constant(W)
    layer = tf.keras.layers.Dense(2, kernel_initializer=init, kernel_constraint="non_neg",
                                  bias_constraint=constraints.MaxNorm(0.01))
    x, y = tf.constant([[1.0, 2.0]]), tf.constant([[0.0, 5.0]])
    opt = tf.keras.optimizers.SGD(0.1)

    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((layer(x) - y) ** 2)
        opt.apply_gradients(zip(tape.gradient(loss, layer.trainable_variables), layer.trainable_variables))

    kernel, bias, acted = W.copy(), np.zeros(2, np.float32), []
    for run in (step, tf.function(step)):
        out = x.numpy() @ kernel + bias
        grad_out = 2 * (out - y.numpy()) / 2
        stepped = kernel - 0.1 * x.numpy().T @ grad_out
        acted.append((stepped < 0).any())
        kernel = np.maximum(stepped, 0)  # SGD, then the projections
        bias = bias - 0.1 * grad_out.sum(0)
        bias = bias * np.clip(np.linalg.norm(bias), 0, 0.01) / (EPS + np.linalg.norm(bias))  # axis 0: all
        run()
        np.testing.assert_allclose(layer.kernel.numpy(), kernel, rtol=1e-5)
        np.testing.assert_allclose(layer.bias.numpy(), bias, rtol=1e-5)
    assert acted[0]  # the first step made a weight negative: the constraint did act


def test_a_variable_constraint_is_applied_and_fit_keeps_unit_norms():
    v = tf.Variable([1.0, -2.0], constraint=lambda t: tf.clip_by_value(t, 0.0, 1.5))
    tf.keras.optimizers.SGD(1.0).apply_gradients([(tf.constant([-1.0, -1.0]), v)])
    np.testing.assert_array_equal(v.numpy(), [1.5, 0.0])
    model = tf.keras.Sequential([tf.keras.layers.Input((2,)),
                                 tf.keras.layers.Dense(3, kernel_constraint="unit_norm",
                                                       kernel_initializer="ones")])
    model.compile("adam", "mse")
    model.fit(np.ones((8, 2), np.float32), np.zeros((8, 3), np.float32), epochs=2, verbose=0)
    np.testing.assert_allclose(np.linalg.norm(model.layers[0].kernel.numpy(), axis=0), 1.0, rtol=1e-5)


@pytest.mark.parametrize("make, attribute", [
    (lambda: tf.keras.layers.Conv2D(2, 3, kernel_constraint="max_norm"), "kernel_constraint"),
    (lambda: tf.keras.layers.Conv2DTranspose(2, 3, bias_constraint="non_neg"), "bias_constraint"),
    (lambda: tf.keras.layers.LSTM(2, recurrent_constraint="unit_norm"), "recurrent_constraint"),
    (lambda: tf.keras.layers.Embedding(3, 2, embeddings_constraint="non_neg"), "embeddings_constraint"),
    (lambda: tf.keras.layers.BatchNormalization(gamma_constraint="non_neg"), "gamma_constraint"),
    (lambda: tf.keras.layers.LayerNormalization(beta_constraint="non_neg"), "beta_constraint"),
    (lambda: tf.keras.layers.PReLU(alpha_constraint="non_neg"), "alpha_constraint"),
])
def test_layers_take_constraints_into_their_weights_and_config(make, attribute):
    layer = make()
    assert isinstance(getattr(layer, attribute), constraints.Constraint)
    config = layer.get_config()
    assert config[attribute]["class_name"] == type(getattr(layer, attribute)).__name__
    again = type(layer).from_config(config)
    assert type(getattr(again, attribute)) is type(getattr(layer, attribute))
