"""Sequential models: building, layers, summary (Keras's documented counts), configs."""

import numpy as np
import pytest

import companion as tf

RNG = np.random.default_rng(0)


def _lecture_model():
    return tf.keras.Sequential([
        tf.keras.layers.Flatten(input_shape=(28, 28)),
        tf.keras.layers.Dense(128, activation="relu"),
        tf.keras.layers.Dropout(0.2),
        tf.keras.layers.Dense(10)])


def test_lecture_model_shapes_and_parameter_count():
    model = _lecture_model()  # TF's beginner tutorial model: 101,770 parameters
    assert model.built and model.output_shape == (None, 10) and model.input_shape == (None, 28, 28)
    assert model.count_params() == 784 * 128 + 128 + 128 * 10 + 10 == 101770
    assert [type(layer).__name__ for layer in model.layers] == ["Flatten", "Dense", "Dropout", "Dense"]


def test_forward_matches_numpy():
    model = tf.keras.Sequential([tf.keras.Input(shape=(3,)), tf.keras.layers.Dense(4, activation="relu"),
                                 tf.keras.layers.Dense(2)])
    x = RNG.normal(size=(5, 3)).astype(np.float32)
    k1, b1, k2, b2 = model.get_weights()
    expected = np.maximum(x @ k1 + b1, 0) @ k2 + b2
    np.testing.assert_allclose(model(x).numpy(), expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(model.predict(x, verbose=0), expected, rtol=1e-5, atol=1e-6)


def test_builds_on_first_call_without_input_shape():
    model = tf.keras.Sequential()
    model.add(tf.keras.layers.Dense(3))
    assert not model.built
    lines = []
    model.summary(print_fn=lines.append)  # Keras 3: "?" and "0 (unbuilt)" rows, no error
    row = next(line for line in lines[0].splitlines() if "(Dense)" in line)
    assert row.split("│")[2:4] == [" ?                      ", "   0 (unbuilt) "]
    model(np.ones((2, 5), np.float32))
    assert model.output_shape == (2, 3) and len(model.weights) == 2  # Keras 3 keeps the batch size


def test_explicit_build_add_and_pop():
    model = tf.keras.Sequential([tf.keras.layers.Dense(3), tf.keras.layers.Dense(2)])
    model.build((None, 4))
    assert model.output_shape == (None, 2)
    model.pop()
    assert model.output_shape == (None, 3) and len(model.layers) == 1


def test_add_rejects_non_layers_and_duplicates():
    model = tf.keras.Sequential()
    with pytest.raises(TypeError, match="expects a keras Layer"):
        model.add("dense")
    dense = tf.keras.layers.Dense(2)
    model.add(dense)
    with pytest.raises(ValueError, match="already in Sequential"):
        model.add(dense)


def test_wrong_input_shape_names_the_layer():
    model = tf.keras.Sequential([tf.keras.Input(shape=(3,)), tf.keras.layers.Dense(2, name="head")])
    with pytest.raises(ValueError, match="layer 'head'.*axis -1.*value 3.*\\(4, 5\\)"):
        model(np.ones((4, 5), np.float32))


def test_config_round_trip_rebuilds_the_same_function():
    model = tf.keras.Sequential([tf.keras.Input(shape=(3,)), tf.keras.layers.Dense(4, activation="tanh"),
                                 tf.keras.layers.Dense(1)])
    clone = tf.keras.Sequential.from_config(model.get_config())
    clone.set_weights(model.get_weights())
    x = RNG.normal(size=(2, 3)).astype(np.float32)
    np.testing.assert_allclose(clone(x).numpy(), model(x).numpy(), rtol=1e-6)
    assert [layer.get_config()["units"] for layer in clone.layers] == [4, 1]


def test_build_without_a_shape_as_keras_3():
    # TF 2.21 (the AutoGraph guide's MNIST model): model.build() returns None, built from the first
    # layer's input_shape; without any input it stays unbuilt and raises nothing
    model = tf.keras.Sequential((tf.keras.layers.Reshape(target_shape=(28 * 28,), input_shape=(28, 28)),
                                 tf.keras.layers.Dense(10)))
    assert model.build() is None and model.built and len(model.weights) == 2
    bare = tf.keras.Sequential([tf.keras.layers.Dense(2)])
    bare.build()
    assert not bare.built


def test_a_metric_shows_its_name_as_keras_3():
    assert repr(tf.keras.metrics.Mean(name="test_loss")) == "<Mean name=test_loss>"  # TF 2.21


@pytest.mark.parametrize(("samples", "batch_size", "expected"), [
    (8, 4, (4, 3)), (10, 4, (None, 3)), (3, 4, (None, 3)), (96, None, (32, 3)), (100, None, (None, 3))])
def test_fit_builds_from_the_data_spec_like_keras(samples, batch_size, expected):
    # TF 2.21 / Keras 3.15: the batch axis is batch_size when it divides the sample count, else None
    model = tf.keras.Sequential([tf.keras.layers.Dense(2)])
    model.compile("sgd", "mse")
    model.fit(np.ones((samples, 3), np.float32), np.ones((samples, 2), np.float32), batch_size=batch_size,
              verbose=0)
    assert model.input_shape == expected


def test_fit_on_a_dataset_builds_from_its_element_spec():
    data = tf.data.Dataset.from_tensor_slices((np.ones((8, 3), np.float32), np.ones((8, 2), np.float32)))
    for dataset, expected in ((data.batch(4), (None, 3)), (data.batch(4, drop_remainder=True), (4, 3))):
        model = tf.keras.Sequential([tf.keras.layers.Dense(2)])
        model.compile("sgd", "mse")
        model.fit(dataset, verbose=0)
        assert model.input_shape == expected
