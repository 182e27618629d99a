"""InputSpec's errors: the layer and shapes as Keras words them, plus what to do (a missing batch axis)."""

import pytest

import companion as tf


def test_dense_given_one_example_says_to_add_the_batch_axis():
    layer = tf.keras.layers.Dense(4)
    with pytest.raises(ValueError, match=r"expected min_ndim=2, found ndim=1") as raised:
        layer(tf.ones((3,)))
    message = str(raised.value)
    assert "tf.expand_dims(x, 0) has shape (1, 3)" in message
    assert layer(tf.expand_dims(tf.ones((3,)), 0)).shape == (1, 4)  # the suggestion works


def test_a_sequential_model_given_one_example_says_the_same():
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4)])
    with pytest.raises(ValueError, match=r"add the batch axis: tf.expand_dims\(x, 0\)"):
        model(tf.ones((3,)))


def test_a_built_dense_given_other_features_says_what_it_was_built_for():
    layer = tf.keras.layers.Dense(4)
    layer(tf.ones((2, 3)))
    with pytest.raises(ValueError, match=r"expected axis -1 of input shape to have value 3") as raised:
        layer(tf.ones((2, 5)))
    assert "for inputs whose axis -1 has size 3; this input has 5" in str(raised.value)


def test_too_many_dimensions_says_to_flatten():
    spec = tf.keras.layers.InputSpec(ndim=2)
    with pytest.raises(ValueError, match=r"expected ndim=2, found ndim=4") as raised:
        spec.check("dense", (2, 3, 4, 5))
    assert "Flatten" in str(raised.value)
