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


@pytest.mark.parametrize("make, shape, first_line", [
    # the first lines TF 2.21 + Keras 3.15 raised (probe keras23/p22); companion's hint follows on the next
    (lambda: tf.keras.layers.Conv2D(2, 3, name="conv2d"), (2, 5, 5),
     "Input 0 with name 'None' of layer 'conv2d' is incompatible with the layer: expected min_ndim=4, "
     "found ndim=3. Full shape received: (2, 5, 5)"),
    (lambda: tf.keras.layers.LSTM(2, name="lstm"), (2, 5),
     "Input 0 with name 'None' of layer 'lstm' is incompatible with the layer: expected ndim=3, found "
     "ndim=2. Full shape received: (2, 5)"),
    (lambda: tf.keras.layers.MaxPooling2D(name="max_pooling2d"), (2, 4, 4),
     "Input 0 with name 'None' of layer 'max_pooling2d' is incompatible with the layer: expected ndim=4, "
     "found ndim=3. Full shape received: (2, 4, 4)"),
])
def test_the_first_line_is_keras_3s_and_is_checked_before_building(make, shape, first_line):
    layer = make()
    with pytest.raises(ValueError) as raised:
        layer(tf.ones(shape))
    assert str(raised.value).splitlines()[0] == first_line
    assert not layer.weights  # Keras 3 checks the spec before it builds


def test_a_built_layer_names_the_axis_on_the_first_line():
    layer = tf.keras.layers.Dense(3, name="dense")
    layer(tf.ones((2, 4)))
    with pytest.raises(ValueError) as raised:
        layer(tf.ones((2, 5)))
    assert str(raised.value).splitlines()[0] == (
        "Input 0 with name 'None' of layer 'dense' is incompatible with the layer: expected axis -1 of "
        "input shape to have value 4, but received input with shape (2, 5)")
