"""`training` as a bool tensor inside `function` (chosen at run time) for Dropout and BatchNormalization.

TF 2.21's Keras 3 refuses a traced ``training`` tensor (OperatorNotAllowedInGraphError); tf.keras 2
selected the behaviour at run time with ``smart_cond``, which is what companion does. The values
are checked against NumPy and against the same layers called with Python bools.
"""

import numpy as np
import pytest

import companion as tf
from companion.keras import layers

X = np.array([[1.0, 2.0, -1.0], [3.0, 0.0, 5.0], [-2.0, 4.0, 1.0], [0.5, 1.5, 2.5]], np.float32)


def test_dropout_training_tensor_selects_at_run_time():
    layer = layers.Dropout(0.5, seed=1)
    step = tf.function(lambda x, training: layer(x, training=training))
    ones = tf.ones([200])
    dropped = step(ones, tf.constant(True)).numpy()
    assert set(np.unique(dropped).tolist()) == {0.0, 2.0}  # kept units scaled by 1 / (1 - 0.5)
    np.testing.assert_array_equal(step(ones, tf.constant(False)).numpy(), np.ones(200))
    assert step.experimental_get_tracing_count() == 1  # one trace serves both values


def test_python_bools_select_while_tracing():
    layer = layers.Dropout(0.5, seed=1)
    step = tf.function(lambda x, training: layer(x, training=training))
    np.testing.assert_array_equal(step(tf.ones([8]), False).numpy(), np.ones(8))
    assert set(np.unique(step(tf.ones([200]), True).numpy()).tolist()) == {0.0, 2.0}
    assert step.experimental_get_tracing_count() == 2  # a new Python value is a new trace


def test_eager_training_tensor_is_read_at_once():
    layer = layers.Dropout(0.5, seed=1)
    np.testing.assert_array_equal(layer(tf.ones([4]), training=tf.constant(False)).numpy(), np.ones(4))
    assert 0.0 in layer(tf.ones([100]), training=tf.constant(True)).numpy()


def test_batch_norm_training_tensor_picks_statistics_and_updates():
    layer = layers.BatchNormalization()
    step = tf.function(lambda x, training: layer(x, training=training))
    mean, var = X.mean(axis=0), X.var(axis=0)
    out = step(tf.constant(X), tf.constant(True)).numpy()
    traces = step.experimental_get_tracing_count()  # the first call also builds the layer
    np.testing.assert_allclose(out, (X - mean) / np.sqrt(var + 1e-3), rtol=1e-5, atol=1e-6)
    moving_mean, moving_var = 0.01 * mean, 0.99 + 0.01 * var
    np.testing.assert_allclose(layer.moving_mean.numpy(), moving_mean, rtol=1e-6)
    np.testing.assert_allclose(layer.moving_variance.numpy(), moving_var, rtol=1e-6)
    out = step(tf.constant(X), tf.constant(False)).numpy()  # moving statistics, left unchanged
    np.testing.assert_allclose(out, (X - moving_mean) / np.sqrt(moving_var + 1e-3), rtol=1e-5)
    np.testing.assert_allclose(layer.moving_mean.numpy(), moving_mean, rtol=1e-6)
    assert step.experimental_get_tracing_count() == traces  # the other value needs no new trace


def test_frozen_batch_norm_ignores_a_training_tensor():
    layer = layers.BatchNormalization(trainable=False)
    step = tf.function(lambda x, training: layer(x, training=training))
    out = step(tf.constant(X), tf.constant(True)).numpy()
    np.testing.assert_allclose(out, X / np.sqrt(1 + 1e-3), rtol=1e-6)
    np.testing.assert_array_equal(layer.moving_mean.numpy(), np.zeros(3))


def test_training_tensor_reaches_nested_layers():
    model = tf.keras.Sequential([tf.keras.Input((3,)), layers.BatchNormalization(), layers.Dropout(0.5)])
    step = tf.function(lambda x, training: model(x, training=training))
    out = step(tf.constant(X), tf.constant(False)).numpy()
    np.testing.assert_allclose(out, X / np.sqrt(1 + 1e-3), rtol=1e-6)
    step(tf.constant(X), tf.constant(True))
    np.testing.assert_allclose(model.layers[0].moving_mean.numpy(), 0.01 * X.mean(axis=0), rtol=1e-6)


def test_training_tensor_must_be_a_bool_scalar():
    layer = layers.Dropout(0.5)
    step = tf.function(lambda x, training: layer(x, training=training))
    with pytest.raises(ValueError, match="scalar bool tensor"):
        step(tf.ones([3]), tf.constant([True, False]))
    with pytest.raises(ValueError, match="dtype int32"):
        step(tf.ones([3]), tf.constant(1))
