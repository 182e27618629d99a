"""EinsumDense and MultiHeadAttention against NumPy (einsum, a hand-written attention), masks,
training through them, and their configs."""

import numpy as np
import pytest

import companion as tf
from companion.keras.layers._keras_mask import get_keras_mask

L = tf.keras.layers
RNG = np.random.default_rng(0)
Q = RNG.normal(size=(2, 3, 4)).astype(np.float32)
V = RNG.normal(size=(2, 5, 6)).astype(np.float32)


def test_einsum_dense_shapes_and_values():
    layer = L.EinsumDense("abc,cde->abde", output_shape=(None, 2, 3), bias_axes="de")
    out = layer(Q).numpy()
    assert layer.kernel.shape == (4, 2, 3) and layer.bias.shape == (2, 3)
    np.testing.assert_allclose(out, np.einsum("abc,cde->abde", Q, layer.kernel.numpy()) + layer.bias.numpy(),
                               rtol=1e-5, atol=1e-6)  # float32 sums of four products: absolute error near 0
    right = L.EinsumDense("...b,bc->...c", output_shape=7, bias_axes="c")
    assert right(V).shape == (2, 5, 7) and right.kernel.shape == (6, 7) and right.bias.shape == (7,)
    assert L.EinsumDense("ab,bcd->acd", output_shape=(2, 3))(np.ones((4, 5), np.float32)).shape == (4, 2, 3)
    with pytest.raises(ValueError, match="Invalid einsum equation"):
        L.EinsumDense("ab->b", output_shape=3)(np.ones((2, 2), np.float32))
    with pytest.raises(ValueError, match="Bias dimension 'z'"):
        L.EinsumDense("ab,bc->ac", output_shape=3, bias_axes="z")(np.ones((2, 2), np.float32))


def test_einsum_dense_glorot_fans_come_from_the_contracted_and_produced_axes():
    kernel = L.EinsumDense("abc,cde->abde", output_shape=(None, 40, 50))(np.ones((1, 2, 300), np.float32))
    del kernel
    layer = L.EinsumDense("abc,cde->abde", output_shape=(None, 40, 50))
    layer.build((1, 2, 300))
    limit = np.sqrt(6 / (300 + 40 * 50))  # fan_in: c; fan_out: d * e (Keras 3)
    assert np.abs(layer.kernel.numpy()).max() <= limit and np.abs(layer.kernel.numpy()).max() > 0.9 * limit


def _attention(layer, q, v, mask=None):
    """The layer's computation written out in NumPy from its weights."""
    w = {x.path.split("/", 1)[1]: x.numpy() for x in layer.weights}
    query = np.einsum("abc,cde->abde", q, w["query/kernel"]) + w["query/bias"]
    key = np.einsum("abc,cde->abde", v, w["key/kernel"]) + w["key/bias"]
    value = np.einsum("abc,cde->abde", v, w["value/kernel"]) + w["value/bias"]
    scores = np.einsum("bshd,bthd->bhts", key, query) / np.sqrt(layer.key_dim)
    if mask is not None:
        scores = np.where(mask[:, None], scores, -1e9)
    scores = np.exp(scores - scores.max(-1, keepdims=True))
    scores /= scores.sum(-1, keepdims=True)
    combined = np.einsum("bhts,bshd->bthd", scores, value)
    out = np.einsum("bthd,hde->bte", combined, w["attention_output/kernel"]) + w["attention_output/bias"]
    return out, scores


def test_multi_head_attention_matches_numpy_with_and_without_masks():
    layer = L.MultiHeadAttention(num_heads=2, key_dim=3, bias_initializer="random_normal")
    out, scores = layer(Q, V, return_attention_scores=True)
    assert [x.path for x in layer.weights][::2] == [f"multi_head_attention/{n}/kernel" for n in
                                                     ("query", "key", "value", "attention_output")]
    expected, expected_scores = _attention(layer, Q, V)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(scores.numpy(), expected_scores, rtol=1e-4, atol=1e-6)
    mask = np.array([[[1, 1, 0, 0, 1]] * 3, [[1, 0, 1, 1, 1]] * 3], bool)
    out, scores = layer(Q, V, attention_mask=mask, return_attention_scores=True)
    expected, expected_scores = _attention(layer, Q, V, mask)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-4, atol=1e-5)
    assert (scores.numpy()[~np.broadcast_to(mask[:, None], scores.shape)] == 0).all()
    longer = np.concatenate([Q, Q[..., :2]], -1)
    causal = layer(Q, longer, use_causal_mask=True, return_attention_scores=True)[1]
    assert (np.triu(np.ones((3, 3)), 1)[None, None] * causal.numpy() == 0).all()


def test_keras_masks_of_inputs_mask_the_keys_and_pass_on_the_queries_mask():
    tokens = np.array([[3, 4, 0, 0], [5, 0, 0, 0]])
    embedded = L.Embedding(10, 6, mask_zero=True)(tokens)
    layer = L.MultiHeadAttention(num_heads=2, key_dim=3)
    out, scores = layer(embedded, embedded, return_attention_scores=True)
    keys_masked = np.broadcast_to((tokens == 0)[:, None, None, :], scores.shape)
    valid_rows = np.broadcast_to((tokens != 0)[:, None, :, None], scores.shape)
    assert (scores.numpy()[keys_masked & valid_rows] == 0).all()
    np.testing.assert_array_equal(get_keras_mask(out).numpy(), tokens != 0)


def test_multi_head_attention_trains_in_a_model_and_round_trips_its_config():
    inputs = tf.keras.Input((4, 6))
    attended = L.MultiHeadAttention(num_heads=2, key_dim=4, dropout=0.1)(inputs, inputs)
    model = tf.keras.Model(inputs, L.Dense(1)(L.GlobalAveragePooling1D()(attended)))
    model.compile("adam", "mse")
    x = RNG.normal(size=(64, 4, 6)).astype(np.float32)
    y = x.sum(axis=(1, 2))[:, None]
    first = model.fit(x, y, epochs=1, verbose=0).history["loss"][0]
    last = model.fit(x, y, epochs=15, verbose=0).history["loss"][-1]
    assert last < first
    layer = model.layers[1]
    again = L.MultiHeadAttention.from_config(layer.get_config())
    assert (again.num_heads, again.key_dim, again.dropout) == (2, 4, 0.1)
    with pytest.raises(ValueError, match="positive integer"):
        L.MultiHeadAttention(num_heads=0, key_dim=2)
    with pytest.raises(ValueError, match="not supported"):
        L.MultiHeadAttention(num_heads=2, key_dim=2, use_gate=True)


def _softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def test_dot_and_additive_attention_match_numpy():
    q, v, k = Q, RNG.normal(size=(2, 5, 4)).astype(np.float32), RNG.normal(size=(2, 5, 4)).astype(np.float32)
    out, scores = L.Attention()([q, v, k], return_attention_scores=True)
    expected_scores = _softmax(q @ k.transpose(0, 2, 1))
    np.testing.assert_allclose(scores.numpy(), expected_scores, rtol=1e-5)
    np.testing.assert_allclose(out.numpy(), expected_scores @ v, rtol=1e-5, atol=1e-6)
    additive = L.AdditiveAttention()
    out = additive([q, v, k]).numpy()
    scale = additive.scale.numpy()
    raw = (scale * np.tanh(q[:, :, None, :] + k[:, None, :, :])).sum(-1)
    np.testing.assert_allclose(out, _softmax(raw) @ v, rtol=1e-5, atol=1e-6)


def test_dot_attention_masks():
    v = RNG.normal(size=(2, 5, 4)).astype(np.float32)
    query_mask = np.array([[True, True, False], [True, False, False]])
    value_mask = np.array([[True, False, True, True, False], [True] * 5])
    out, scores = L.Attention()([Q, v], mask=[query_mask, value_mask], return_attention_scores=True)
    raw = np.where(value_mask[:, None, :], Q @ v.transpose(0, 2, 1), Q @ v.transpose(0, 2, 1) - 1e9)
    np.testing.assert_allclose(scores.numpy(), _softmax(raw), rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(out.numpy(), np.where(query_mask[..., None], _softmax(raw) @ v, 0), rtol=1e-5,
                               atol=1e-6)
    causal = L.Attention()([Q, v], use_causal_mask=True, return_attention_scores=True)[1].numpy()
    assert (causal[:, np.triu_indices(3, 1, 5)[0], np.triu_indices(3, 1, 5)[1]] == 0).all()
    with pytest.raises(ValueError, match="list of inputs"):
        L.Attention()(Q)
