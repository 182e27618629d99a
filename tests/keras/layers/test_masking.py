"""Keras masks: Embedding(mask_zero=True), Masking, propagation, GlobalAveragePooling1D, masked losses.

Expected numbers are what TF 2.21 (Keras 3.15) printed for the same programs.
"""

import warnings

import numpy as np
import pytest

import companion as tf
from companion.keras.layers._keras_mask import get_keras_mask

layers = tf.keras.layers
X = np.array([[1, 2, 0, 0], [3, 0, 0, 0], [4, 5, 6, 1], [2, 2, 2, 0]])
YT = np.arange(16, dtype="float32").reshape(4, 4, 1) / 10
YC = np.array([1.0, 0.0, 1.0, 0.0], "float32")
E = np.linspace(-0.5, 0.5, 14).reshape(7, 2).astype("float32")


def test_embedding_mask_zero_computes_and_attaches_the_mask():
    layer = layers.Embedding(7, 2, mask_zero=True)
    out = layer(X)
    np.testing.assert_array_equal(get_keras_mask(out).numpy(), X != 0)
    np.testing.assert_array_equal(layer.compute_mask(X).numpy(), X != 0)
    assert layers.Embedding(7, 2).compute_mask(X) is None
    assert get_keras_mask(layers.Embedding(7, 2)(X)) is None


def test_supports_masking_matches_keras_3():
    # TF 2.21: True False True False True False True True False False True False
    got = [layers.Embedding(7, 2, mask_zero=True), layers.Embedding(7, 2), layers.Dense(2), layers.Flatten(),
           layers.Dropout(0.1), layers.Layer(), layers.GlobalAveragePooling1D(), layers.Masking(),
           layers.Conv2D(1, 1), layers.Reshape((2,)), layers.Activation("relu"), layers.Lambda(lambda t: t)]
    assert [layer.supports_masking for layer in got] == [True, False, True, False, True, False, True, True,
                                                         False, False, True, False]


def test_masks_pass_through_supporting_layers_and_warn_when_dropped():
    out = layers.Embedding(7, 2, mask_zero=True)(X)
    np.testing.assert_array_equal(get_keras_mask(layers.Dense(3)(out)).numpy(), X != 0)
    with pytest.warns(UserWarning, match="does not support masking"):  # TF 2.21's warning
        flat = layers.Flatten()(out)
    assert get_keras_mask(flat) is None
    assert get_keras_mask(out * 2) is None  # an op outside a layer makes an unmasked tensor, as TF


def test_global_average_pooling_1d_leaves_masked_steps_out():
    values = np.arange(24, dtype="float32").reshape(3, 4, 2)
    pooled = layers.GlobalAveragePooling1D()(values, mask=tf.constant(X[:3] != 0))
    np.testing.assert_allclose(pooled.numpy(), [[1.0, 2.0], [8.0, 9.0], [19.0, 20.0]])  # TF 2.21
    np.testing.assert_allclose(layers.GlobalAveragePooling1D()(values).numpy(), values.mean(axis=1))
    out = layers.Embedding(7, 2, mask_zero=True)(X)
    pooled = layers.GlobalAveragePooling1D()(out)
    want = [out.numpy()[i][X[i] != 0].mean(axis=0) for i in range(4)]
    np.testing.assert_allclose(pooled.numpy(), want, rtol=1e-6)
    assert get_keras_mask(pooled) is None


def test_masking_layer():
    values = tf.constant([[[1.0, 2.0], [0.0, 0.0], [3.0, 0.0]]])
    layer = layers.Masking(mask_value=0.0)
    out = layer(values)
    np.testing.assert_array_equal(get_keras_mask(out).numpy(), [[True, False, True]])  # TF 2.21
    np.testing.assert_array_equal(layer.compute_mask(values).numpy(), [[True, False, True]])
    assert layer.get_config()["mask_value"] == 0.0
    loss = tf.keras.losses.MeanSquaredError()
    masked = layers.Masking(mask_value=2.0)(tf.reshape(tf.constant([[1.0, 2.0, 3.0]]), (1, 3, 1)))
    assert float(loss(tf.zeros((1, 3, 1)), masked)) == pytest.approx(5.0)  # TF 2.21: 5.0


def _sequence_model():
    inputs = tf.keras.Input((4,), dtype="int32")
    outputs = layers.Dense(1)(layers.Embedding(7, 2, mask_zero=True)(inputs))
    model = tf.keras.Model(inputs, outputs)
    model.set_weights([E, np.array([[0.3], [-0.7]], "float32"), np.array([0.1], "float32")])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
    return model


def test_fit_and_evaluate_leave_padded_steps_out_of_loss_and_metrics():
    history = _sequence_model().fit(X, YT, batch_size=2, epochs=2, shuffle=False, verbose=0).history
    np.testing.assert_allclose(history["loss"], [0.5769364237785339, 0.40968039631843567], rtol=1e-5)  # TF
    np.testing.assert_allclose(history["mae"], [0.7824261784553528, 0.6714997887611389], rtol=1e-5)
    logs = _sequence_model().evaluate(X, YT, batch_size=4, verbose=0, return_dict=True)
    assert logs["loss"] == pytest.approx(0.7988402843475342, rel=1e-5)  # TF 2.21
    assert logs["mae"] == pytest.approx(0.7876923680305481, rel=1e-5)


def test_per_example_weights_combine_with_the_mask():
    model = _sequence_model()
    weights = np.array([1.0, 2.0, 0.5], "float32")
    logs = model.evaluate(X[:3], YT[:3], sample_weight=weights, batch_size=4, verbose=0, return_dict=True)
    errors = (model.predict(X[:3], verbose=0)[..., 0] - YT[:3, :, 0]) ** 2
    mask = (X[:3] != 0).astype("float32")
    want = np.sum(errors * mask * mask.size / mask.sum() * weights[:, None]) / mask.size
    assert logs["loss"] == pytest.approx(want, rel=1e-5)  # Keras 3 errors here (see README)


def test_pooled_classifier_trains_on_unpadded_steps():
    inputs = tf.keras.Input((4,), dtype="int32")
    pooled = layers.GlobalAveragePooling1D()(layers.Embedding(7, 2, mask_zero=True)(inputs))
    model = tf.keras.Model(inputs, layers.Dense(1, activation="sigmoid")(pooled))
    model.set_weights([E, np.array([[0.3], [-0.7]], "float32"), np.array([0.1], "float32")])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.5), loss="binary_crossentropy", metrics=["accuracy"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing drops a mask here
        history = model.fit(X, YC, batch_size=2, epochs=2, shuffle=False, verbose=0).history
    np.testing.assert_allclose(history["loss"], [0.7038228511810303, 0.6840952634811401], rtol=1e-5)  # TF
    assert history["accuracy"] == [0.25, 0.75]
