"""keras.layers.Normalization against NumPy statistics (and TF 2.21's recorded shapes and names)."""

import numpy as np
import pytest

import companion as tf
from companion.keras import layers

DATA = np.array([[1.0, 10.0], [2.0, 20.0], [3.0, 60.0]], np.float32)


def test_adapt_learns_numpys_mean_and_variance():
    layer = layers.Normalization()
    layer.adapt(DATA)
    expected = (DATA - DATA.mean(0)) / DATA.std(0)
    np.testing.assert_allclose(layer(DATA).numpy(), expected, rtol=1e-5)
    # TF 2.21: weights mean (2,), variance (2,), count (); layer.mean in its broadcast shape (1, 2)
    assert [(w.name, tuple(w.shape)) for w in layer.weights] == [
        ("mean", (2,)), ("variance", (2,)), ("count", ())]
    assert layer.mean.shape == (1, 2) and int(layer.count.numpy()) == 3
    np.testing.assert_allclose(layer.variance.numpy()[0], DATA.var(0), rtol=1e-5)
    inverse = layers.Normalization(invert=True)
    inverse.adapt(DATA)
    np.testing.assert_allclose(inverse(layer(DATA)).numpy(), DATA, rtol=1e-5)


def test_axes_fixed_statistics_and_datasets():
    everything = layers.Normalization(axis=None)
    everything.adapt(DATA)
    np.testing.assert_allclose(everything(DATA).numpy(), (DATA - DATA.mean()) / DATA.std(), rtol=1e-5)
    fixed = layers.Normalization(mean=2.0, variance=4.0)
    np.testing.assert_allclose(fixed(DATA).numpy(), (DATA - 2.0) / 2.0)
    assert fixed.weights == []
    streamed = layers.Normalization()
    streamed.adapt(tf.data.Dataset.from_tensor_slices(DATA).batch(2))  # statistics over every batch
    np.testing.assert_allclose(streamed(DATA).numpy(), (DATA - DATA.mean(0)) / DATA.std(0), rtol=1e-5)
    images = np.arange(24, dtype=np.float32).reshape(2, 2, 2, 3)
    channels = layers.Normalization(axis=-1)
    channels.adapt(images)
    np.testing.assert_allclose(channels.mean.numpy().ravel(), images.reshape(-1, 3).mean(0))
    assert channels.mean.shape == (1, 1, 1, 3)
    with pytest.raises(ValueError, match="both `mean` and `variance`"):
        layers.Normalization(mean=1.0)
    with pytest.raises(ValueError, match="fixed"):
        fixed.adapt(DATA)
    with pytest.raises(ValueError, match="labels"):
        layers.Normalization().adapt(tf.data.Dataset.from_tensor_slices((DATA, DATA)).batch(2))


def test_an_adapted_layer_trains_in_a_model_and_is_saved(tmp_path):
    layer = layers.Normalization()
    layer.adapt(DATA)
    model = tf.keras.Sequential([tf.keras.Input((2,)), layer, layers.Dense(1)])
    assert (model.count_params(), len(model.trainable_weights), len(model.non_trainable_weights)) == (8, 2, 3)
    model.compile(optimizer="sgd", loss="mse")
    model.fit(DATA, np.ones((3, 1), np.float32), epochs=2, verbose=0)
    np.testing.assert_allclose(layer.mean.numpy()[0], DATA.mean(0))  # not trained
    model.save(tmp_path / "model.keras")
    loaded = tf.keras.models.load_model(tmp_path / "model.keras")
    np.testing.assert_allclose(loaded.predict(DATA, verbose=0), model.predict(DATA, verbose=0), rtol=1e-6)
