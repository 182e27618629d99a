"""SimpleRNN, LSTM and GRU against TF 2.21's recorded outputs, finite differences and a fit.

The TF figures come from the same program run under TF 2.21 (Keras 3.15): inputs and weights drawn
from ``np.random.RandomState(0)`` in the order below (inputs, then each layer's weights, centred).
"""

import numpy as np
import pytest

import companion as tf
from companion.keras import layers
from tests.keras.layers.layer_checks import check_layer

KINDS = {"simple": lambda **k: layers.SimpleRNN(5, **k), "lstm": lambda **k: layers.LSTM(5, **k),
         "gru": lambda **k: layers.GRU(5, **k)}

# TF 2.21: the first 6 values of the last output, the first 4 of each variant, masked step 0 values
TF = {
    "simple": {"last": [-0.8297, -0.3043, 0.2618, 0.0584, 0.5786, -0.8976],
               "masked_seq": [[-0.8488, -0.9332, -0.9332, -0.9332], [-0.8488, -0.8488, -0.8488, -0.8488]]},
    "lstm": {"last": [-0.1536, 0.1687, -0.2378, 0.0818, 0.0636, -0.1460],
             "backwards_seq": [-0.1090, 0.1051, -0.1246, 0.0505],
             "masked_seq": [[-0.1682, -0.2248, -0.2248, -0.2248], [-0.1682, -0.1682, -0.1682, -0.1682]]},
    "gru": {"last": [-0.2075, 0.4374, -0.2965, 0.4857, -0.3379, -0.1895],
            "seq": [-0.0969, 0.1874, -0.1016, 0.2150],
            "backwards_seq": [-0.0951, 0.2030, -0.0576, 0.2480],
            "masked_seq": [[-0.1130, -0.1942, -0.1942, -0.1942], [-0.1130, -0.1130, -0.1130, -0.1130]]},
}


@pytest.fixture(scope="module")
def seeded():
    """The inputs and each kind's weights, drawn in the recorded program's order."""
    rng = np.random.RandomState(0)
    x = rng.rand(2, 4, 3).astype("float32")
    weights = {}
    for name, make in KINDS.items():
        layer = make()
        layer(x)
        weights[name] = [(rng.rand(*w.shape) - 0.5).astype("float32") for w in layer.get_weights()]
    return x, weights


def _layer(name, weights, x, **kwargs):
    layer = KINDS[name](**kwargs)
    layer(x)
    layer.set_weights(weights[name])
    return layer


@pytest.mark.parametrize("name", list(KINDS))
def test_outputs_match_tensorflow(seeded, name):
    x, weights = seeded
    expected = TF[name]
    np.testing.assert_allclose(_layer(name, weights, x)(x).numpy().ravel()[:6], expected["last"], atol=1e-4)
    if "seq" in expected:
        out = _layer(name, weights, x, return_sequences=True)(x)
        np.testing.assert_allclose(out.numpy().ravel()[:4], expected["seq"], atol=1e-4)
    if "backwards_seq" in expected:
        out = _layer(name, weights, x, return_sequences=True, go_backwards=True)(x)
        np.testing.assert_allclose(out.numpy().ravel()[:4], expected["backwards_seq"], atol=1e-4)
    ids = np.array([[1, 2, 0, 0], [3, 0, 0, 0]])
    embedded = layers.Embedding(5, 3, mask_zero=True, embeddings_initializer="ones")(ids)
    masked = _layer(name, weights, embedded, return_sequences=True)(embedded)  # masked steps repeat
    np.testing.assert_allclose(masked.numpy()[:, :, 0], expected["masked_seq"], atol=1e-4)
    last = _layer(name, weights, embedded)(embedded)
    np.testing.assert_allclose(last.numpy()[:, 0], [row[-1] for row in expected["masked_seq"]], atol=1e-4)


def test_states_shapes_and_weights_as_keras():
    x = np.ones((2, 3, 4), np.float32)
    output, h, c = layers.LSTM(5, return_state=True)(x)
    np.testing.assert_allclose(output.numpy(), h.numpy())
    assert c.shape == (2, 5)
    lstm = layers.LSTM(5)
    lstm(x)
    assert [(v.name, tuple(v.shape)) for v in lstm.weights] == [
        ("kernel", (4, 20)), ("recurrent_kernel", (5, 20)), ("bias", (20,))]
    forget_ones = np.r_[np.zeros(5), np.ones(5), np.zeros(10)]
    np.testing.assert_array_equal(lstm.bias.numpy(), forget_ones)
    q = lstm.recurrent_kernel.numpy()
    np.testing.assert_allclose(q @ q.T, np.eye(5), atol=1e-5)  # orthogonal (5 x 20: orthonormal rows)
    gru = layers.GRU(5, reset_after=False)
    gru(x)
    assert gru.bias.shape == (15,) and layers.GRU(5).compute_output_shape((2, 3, 4)) == (2, 5)
    with pytest.raises(ValueError, match="initial state"):
        layers.LSTM(5)(x, initial_state=[np.zeros((2, 5), np.float32)])
    with pytest.raises(ValueError, match=r"in \[0, 1\)"):
        layers.LSTM(5, dropout=1.5)
    carried = layers.GRU(5, return_state=True)
    _, state = carried(x)
    assert carried(x, initial_state=state)[0].shape == (2, 5)


@pytest.mark.parametrize("name", list(KINDS))
def test_gradients_match_finite_differences(name):
    x = np.random.default_rng(1).normal(size=(2, 3, 2)).astype(np.float32)
    check_layer(KINDS[name](return_sequences=True), x, (2, 3, 5), 3)


def test_a_sequence_model_learns_and_runs_the_same_staged():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 6, 1)).astype(np.float32)
    y = x.sum(axis=(1, 2))[:, None]  # the running sum: a recurrence learns it
    model = tf.keras.Sequential([tf.keras.Input((6, 1)), layers.LSTM(8), layers.Dense(1)])
    model.compile(optimizer=tf.keras.optimizers.Adam(0.02), loss="mse")
    history = model.fit(x, y, epochs=30, verbose=0, batch_size=16)
    assert history.history["loss"][-1] < 0.3 * history.history["loss"][0]
    staged = tf.function(lambda batch: model(batch))
    np.testing.assert_allclose(staged(x[:4]).numpy(), model(x[:4]).numpy(), rtol=1e-5, atol=1e-6)


def _bidirectional(layer, x, seed=1, **kwargs):
    wrapper = layers.Bidirectional(layer, **kwargs)
    wrapper(x)
    wrapper.set_weights([(np.random.RandomState(seed).rand(*w.shape) - 0.5).astype("float32")
                         for w in wrapper.get_weights()])
    return wrapper


@pytest.mark.parametrize("merge_mode, last, sequence", [
    # TF 2.21: first values of the output without and with return_sequences
    ("concat", [-0.2950, -0.1814, 0.0836, -0.2921, -0.1748], [-0.2060, -0.1459, 0.0376, -0.2921, -0.1748]),
    ("sum", [-0.5870, -0.3562, 0.1573, -0.5621, -0.3367], [-0.4980, -0.3207, 0.1113, -0.5074, -0.3203]),
    ("ave", [-0.2935, -0.1781, 0.0786, -0.2811, -0.1683], [-0.2490, -0.1604, 0.0557, -0.2537, -0.1601]),
    ("mul", [0.0861, 0.0317, 0.0062, 0.0790, 0.0282], [0.0602, 0.0255, 0.0028, 0.0642, 0.0256]),
])
def test_bidirectional_matches_tensorflow(merge_mode, last, sequence):
    x = np.random.RandomState(0).rand(2, 4, 3).astype("float32")
    out = _bidirectional(layers.LSTM(3), x, merge_mode=merge_mode)(x)
    np.testing.assert_allclose(out.numpy().ravel()[:5], last, atol=1e-4)
    out = _bidirectional(layers.LSTM(3, return_sequences=True), x, merge_mode=merge_mode)(x)
    np.testing.assert_allclose(out.numpy().ravel()[:5], sequence, atol=1e-4)
    assert out.shape == ((2, 4, 6) if merge_mode == "concat" else (2, 4, 3))


def test_bidirectional_states_names_masks_and_config():
    x = np.random.RandomState(0).rand(2, 4, 3).astype("float32")
    forward, backward = _bidirectional(layers.LSTM(3), x, merge_mode=None)(x)
    np.testing.assert_allclose(backward.numpy().ravel()[:3], [-0.2921, -0.1748, 0.0737], atol=1e-4)  # TF 2.21
    wrapper = layers.Bidirectional(layers.GRU(3, return_state=True, name="gru"))
    outputs = wrapper(x)
    assert [tuple(o.shape) for o in outputs] == [(2, 6), (2, 3), (2, 3)]
    assert (wrapper.forward_layer.name, wrapper.backward_layer.name) == ("forward_gru", "backward_gru")
    ids = np.array([[1, 2, 0, 0], [3, 0, 0, 0]])
    embedded = layers.Embedding(5, 3, mask_zero=True, embeddings_initializer="ones")(ids)
    masked = _bidirectional(layers.SimpleRNN(2, return_sequences=True), embedded, seed=2)(embedded).numpy()
    np.testing.assert_allclose(masked[0, 0], [-0.1567, -0.8282, -0.1869, -0.7836], atol=1e-4)  # TF 2.21
    assert not masked[0, 2:].any() and not masked[1, 1:].any()  # masked steps output 0 in Bidirectional
    model = tf.keras.Sequential([tf.keras.Input((4, 3)), layers.Bidirectional(layers.LSTM(2)),
                                 layers.Dense(1)])
    assert model.count_params() == 101  # TF 2.21
    clone = layers.Bidirectional.from_config(model.layers[0].get_config())
    assert clone.merge_mode == "concat" and clone.backward_layer.go_backwards
    with pytest.raises(ValueError, match="merge_mode"):
        layers.Bidirectional(layers.LSTM(2), merge_mode="max")


def test_dropout_draws_one_mask_per_sequence_and_only_in_training():
    """Linear SimpleRNN, identity kernel, no recurrence: each step's output is that step's masked input."""
    layer = layers.SimpleRNN(6, activation="linear", dropout=0.5, return_sequences=True, use_bias=False,
                             kernel_initializer="identity", recurrent_initializer="zeros")
    x = np.ones((3, 5, 6), np.float32)
    np.testing.assert_array_equal(layer(x).numpy(), x)  # inference: no dropout
    tf.random.set_seed(3)
    dropped = layer(x, training=True).numpy()
    assert set(np.unique(dropped)) <= {0.0, 2.0} and 0 < dropped.mean() < 2  # scaled by 1 / (1 - rate)
    np.testing.assert_array_equal(dropped, np.repeat(dropped[:, :1], 5, axis=1))  # one mask for all steps
    for make in (layers.LSTM, layers.GRU):
        recurrent = make(4, dropout=0.3, recurrent_dropout=0.3)
        inputs = np.random.default_rng(0).normal(size=(8, 5, 3)).astype(np.float32)
        plain = recurrent(inputs).numpy()
        assert not np.allclose(recurrent(inputs, training=True).numpy(), plain)
        # inference is the plain call (to rounding: on a GPU the first call's program also holds the
        # weights' initializers, so XLA may fuse, and round, differently)
        np.testing.assert_allclose(recurrent(inputs, training=False).numpy(), plain, rtol=1e-5, atol=1e-7)
    model = tf.keras.Sequential([tf.keras.Input((5, 3)), layers.LSTM(4, dropout=0.2, recurrent_dropout=0.2),
                                 layers.Dense(1)])
    model.compile(optimizer="adam", loss="mse")
    assert np.isfinite(model.fit(inputs, np.ones((8, 1)), epochs=2, verbose=0).history["loss"]).all()
