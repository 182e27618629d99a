"""Core layers through `check_layer`, with NumPy oracles and dropout statistics."""

import numpy as np
import pytest

import companion as tf
from companion.keras import layers
from tests.keras.layers.layer_checks import check_layer

RNG = np.random.default_rng(0)
X = RNG.normal(size=(4, 3)).astype(np.float32)
X3 = RNG.normal(size=(2, 3, 4)).astype(np.float32)


def test_dense_matches_numpy():
    kernel = RNG.normal(size=(3, 5)).astype(np.float32)
    bias = RNG.normal(size=5).astype(np.float32)
    layer = layers.Dense(5, kernel_initializer=tf.keras.initializers.Constant(0.0))
    layer(X)
    layer.set_weights([kernel, bias])
    check_layer(layer, X, (4, 5), 2, expected=X @ kernel + bias, rtol=1e-5)


def test_dense_activation_no_bias_and_higher_rank():
    layer = layers.Dense(2, activation="tanh", use_bias=False)
    out = check_layer(layer, X3, (2, 3, 2), 1)
    np.testing.assert_allclose(out, np.tanh(X3 @ layer.kernel.numpy()), rtol=1e-5, atol=1e-6)
    assert layer.count_params() == 8


def test_dense_regularizer_losses():
    layer = layers.Dense(2, kernel_regularizer=tf.keras.regularizers.L1(0.1), bias_regularizer="l2")
    layer(X)
    kernel = layer.kernel.numpy()
    assert [float(x) for x in layer.losses] == [pytest.approx(0.1 * np.abs(kernel).sum()), 0.0]


def test_dense_validates_units():
    with pytest.raises(ValueError, match="units=0"):
        layers.Dense(0)


def test_activation_layer():
    check_layer(layers.Activation("softplus"), X, (4, 3), 0, expected=np.log1p(np.exp(X)), rtol=1e-5)


def test_flatten_and_reshape():
    check_layer(layers.Flatten(), X3, (2, 12), 0, expected=X3.reshape(2, 12))
    check_layer(layers.Reshape((4, -1)), X3, (2, 4, 3), 0, expected=X3.reshape(2, 4, 3))
    assert layers.Flatten().compute_output_shape((None, 3, 4)) == (None, 12)
    assert layers.Reshape((6, 2)).compute_output_shape((None, 3, 4)) == (None, 6, 2)
    with pytest.raises(ValueError, match="total size"):
        layers.Reshape((5,))(X3)
    with pytest.raises(ValueError, match=r"at most one unknown dimension \(-1\)"):
        layers.Reshape((-1, -1))


def test_dropout_identity_at_inference():
    layer = layers.Dropout(0.5, seed=3)
    check_layer(layer, X, (4, 3), 0, expected=X)
    np.testing.assert_array_equal(layer(X, training=False).numpy(), X)


def test_dropout_statistics_in_training():
    rate = 0.3
    out = layers.Dropout(rate, seed=7)(tf.ones([200, 100]), training=True).numpy()
    kept = out != 0
    assert kept.mean() == pytest.approx(1 - rate, abs=0.01)
    np.testing.assert_allclose(out[kept], 1 / (1 - rate), rtol=1e-6)
    assert out.mean() == pytest.approx(1.0, abs=0.02)


def test_dropout_seed_noise_shape_and_training_from_outer_call():
    tf.random.set_seed(1)
    unseeded = layers.Dropout(0.5)(tf.ones([50]), training=True).numpy()
    tf.random.set_seed(1)
    np.testing.assert_array_equal(layers.Dropout(0.5)(tf.ones([50]), training=True).numpy(), unseeded)
    tf.random.set_seed(1)
    first = layers.Dropout(0.5, seed=2)(tf.ones([50]), training=True).numpy()
    tf.random.set_seed(1)
    np.testing.assert_array_equal(layers.Dropout(0.5, seed=2)(tf.ones([50]), training=True).numpy(),
                                  first)
    shared = layers.Dropout(0.5, noise_shape=(None, 1), seed=1)(tf.ones([20, 6]), training=True).numpy()
    assert all(len(set(row)) == 1 for row in shared.tolist())
    # Keras 3.15: rate 0.25 scales kept units by 1 / 0.75
    assert set(np.unique(layers.Dropout(0.25)(tf.ones([1000]), training=True).numpy()).tolist()) == {
        0.0, np.float32(1 / 0.75)}
    with pytest.raises(ValueError, match="rate=1.5"):
        layers.Dropout(1.5)


def test_dropout_in_function_draws_fresh_masks():
    layer = layers.Dropout(0.5, seed=4)
    step = tf.function(lambda x: layer(x, training=True))
    a, b = step(tf.ones([100])).numpy(), step(tf.ones([100])).numpy()
    assert not np.array_equal(a, b)
    assert step.experimental_get_tracing_count() == 1


def test_seeded_dropout_layers_own_their_stream_as_keras_3():
    # Keras 3.15: two Dropout(0.5, seed=7) layers drop the same units; the next call draws a new
    # mask; a seeded layer holds no weights (its seed generator state is not a weight)
    ones = tf.ones([40])
    tf.random.set_seed(1)
    a, b = layers.Dropout(0.5, seed=7), layers.Dropout(0.5, seed=7)
    first = a(ones, training=True).numpy()
    np.testing.assert_array_equal(b(ones, training=True).numpy(), first)
    assert not np.array_equal(a(ones, training=True).numpy(), first)
    tf.random.set_seed(2)  # the global seed plays no part
    np.testing.assert_array_equal(layers.Dropout(0.5, seed=7)(ones, training=True).numpy(), first)
    assert a.weights == []


def test_lambda_layer():
    layer = layers.Lambda(lambda x, k: x * k, arguments={"k": 3.0})
    check_layer(layer, X, (4, 3), 0, expected=X * 3.0)
    with pytest.raises(TypeError, match="callable"):
        layers.Lambda(3)


def test_embedding_lookup_and_course_param_count():
    layer = layers.Embedding(10, 4)
    ids = np.array([[1, 2, 9], [0, 0, 3]])
    out = check_layer(layer, ids, (2, 3, 4), 1)
    np.testing.assert_array_equal(out, layer.embeddings.numpy()[ids])
    course = layers.Embedding(1000, 64)
    course(np.array([[1, 2]]))
    assert course.count_params() == 64_000
    np.testing.assert_array_equal(layer(ids.astype(np.float32)).numpy(), out)
    with pytest.raises(ValueError, match="input_dim=0"):
        layers.Embedding(0, 4)


def test_rescaling():
    check_layer(layers.Rescaling(0.5, offset=-1.0), X, (4, 3), 0, expected=X * 0.5 - 1.0)
    pixels = np.array([0, 51, 255], np.uint8)
    np.testing.assert_allclose(layers.Rescaling(1 / 255)(pixels).numpy(), pixels / 255, rtol=1e-6)


def test_add_and_concatenate_match_numpy():
    a, b = X, RNG.normal(size=(4, 3)).astype(np.float32)
    check_layer(layers.Add(), [a, b], (4, 3), 0, expected=a + b, gradients=False)
    check_layer(layers.Concatenate(axis=0), [a, b], (8, 3), 0, expected=np.concatenate([a, b]),
                gradients=False)
    np.testing.assert_allclose(layers.concatenate([a, b]).numpy(), np.concatenate([a, b], -1))
    np.testing.assert_allclose(layers.add([a, b, a]).numpy(), a + b + a, rtol=1e-6)
    assert layers.Add().compute_output_shape([(None, 3), (4, 3)]) == (4, 3)
    assert layers.Concatenate().compute_output_shape([(None, 3), (None, 2)]) == (None, 5)
    assert layers.Concatenate(axis=0).compute_output_shape([(None, 3), (2, 3)]) == (None, 3)


def test_merge_gradients_reach_every_input():
    a, b = tf.constant(X), tf.constant(X * 2)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([a, b])
        total = tf.reduce_sum(layers.Add()([a, b]))
        joined = tf.reduce_sum(layers.Concatenate()([a, b]) * np.arange(6.0, dtype=np.float32))
    np.testing.assert_array_equal(tape.gradient(total, b).numpy(), np.ones_like(X))
    np.testing.assert_array_equal(tape.gradient(joined, b).numpy(), np.tile([3.0, 4.0, 5.0], (4, 1)))


def test_merge_shape_errors():
    # TF 2.21 / Keras 3: a list of one input is merged into itself, shapes are checked by `build`
    np.testing.assert_array_equal(layers.Add()([X]).numpy(), X)
    with pytest.raises(ValueError, match="^A merge layer should be called on a list of inputs"):
        layers.Add()(X)
    incompatible = r"^Inputs have incompatible shapes\. Received shapes \(3, 4\) and \(3,\)$"
    with pytest.raises(ValueError, match=incompatible):
        layers.Add()([X[:2], X3])
    with pytest.raises(ValueError, match="^Cannot merge tensors with different batch sizes"):
        layers.Add()([X, X3])
    with pytest.raises(ValueError, match="^A `Concatenate` layer requires inputs with matching shapes"):
        layers.Concatenate()([X, np.ones((5, 2), np.float32)])


def test_embedding_parameters_in_summary(capsys):
    # TF 2.21 / Keras 3.15: "│ embedding (Embedding) │ (None, 10, 64) │ 64,000 │"
    model = tf.keras.Sequential([tf.keras.Input((10,), dtype="int32"), layers.Embedding(1000, 64)])
    model.summary()
    row = next(line for line in capsys.readouterr().out.splitlines() if "(Embedding)" in line)
    assert "(None, 10, 64)" in row and row.split()[-2:] == ["64,000", "│"]
    assert model.layers[0].get_weights()[0].shape == (1000, 64)


def test_category_encoding_matches_numpy():
    ids = np.array([[0, 1, 1], [3, 3, 0]])
    eye = np.eye(4, dtype=np.float32)
    counts = eye[ids].sum(axis=1)
    encoding = tf.keras.layers.CategoryEncoding
    np.testing.assert_array_equal(encoding(4, output_mode="count")(ids).numpy(), counts)
    np.testing.assert_array_equal(encoding(4)(ids).numpy(), np.minimum(counts, 1))
    np.testing.assert_array_equal(encoding(4, output_mode="one_hot")(ids[:, :1]).numpy(), eye[ids[:, 0]])
    weights = np.array([[0.5, 1.0, 2.0], [1.0, 1.0, 3.0]], np.float32)
    weighted = tf.keras.layers.CategoryEncoding(4, output_mode="count")(ids, count_weights=weights).numpy()
    np.testing.assert_allclose(weighted, (eye[ids] * weights[..., None]).sum(axis=1))
    with pytest.raises(ValueError, match="count_weights"):
        tf.keras.layers.CategoryEncoding(4)(ids, count_weights=weights)


def test_hashing_uses_tf_fingerprints_masks_and_encodings():
    words = np.array([["A"], ["B"], [""], ["C"]])
    expected = tf.strings.to_hash_bucket_fast(words, 3).numpy()
    np.testing.assert_array_equal(tf.keras.layers.Hashing(3)(words).numpy(), expected)
    masked = tf.keras.layers.Hashing(3, mask_value="")(words).numpy()
    np.testing.assert_array_equal(masked[2], [0])  # the mask value gets bin 0, the rest 1..2
    others = tf.strings.to_hash_bucket_fast(words[[0, 1, 3]], 2).numpy() + 1
    np.testing.assert_array_equal(masked[[0, 1, 3]], others)
    ints = np.array([[1, 2], [3, 100]])
    as_text = tf.strings.to_hash_bucket_fast(tf.strings.as_string(ints), 5).numpy()
    np.testing.assert_array_equal(tf.keras.layers.Hashing(5)(ints).numpy(), as_text)
    counts = tf.keras.layers.Hashing(4, output_mode="count")(np.array([["a", "a", "b"]])).numpy()
    assert counts.sum() == 3 and counts.max() >= 2
    with pytest.raises(ValueError, match="salt"):
        tf.keras.layers.Hashing(4, salt=1)


def test_discretization_buckets_and_adapted_quantiles():
    values = np.array([[-1.5, 1.0, 3.4, 0.5]], np.float32)
    layer = tf.keras.layers.Discretization(bin_boundaries=[0.0, 1.0, 2.0])
    np.testing.assert_array_equal(layer(values).numpy(), np.digitize(values, [0.0, 1.0, 2.0]))
    data = np.random.default_rng(12).normal(size=5000).astype(np.float32)
    adapted = tf.keras.layers.Discretization(num_bins=4, epsilon=0.001)
    adapted.adapt(data)
    np.testing.assert_allclose(adapted.bin_boundaries, np.quantile(data, [0.25, 0.5, 0.75]), atol=0.02)
    with pytest.raises(ValueError, match="adapt"):
        tf.keras.layers.Discretization(num_bins=3)(values)
