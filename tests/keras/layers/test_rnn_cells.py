"""RNN over Keras cells: equal to the fused SimpleRNN/LSTM/GRU layers with the same weights, a custom
cell against a NumPy loop, stacking, masks, dropout masks per sequence, configs and training."""

import numpy as np
import pytest

import companion as tf

L = tf.keras.layers
X = np.random.default_rng(8).normal(size=(3, 5, 4)).astype(np.float32)


@pytest.mark.parametrize("cell, fused", [
    (lambda: L.SimpleRNNCell(3), lambda: L.SimpleRNN(3, return_sequences=True)),
    (lambda: L.LSTMCell(3), lambda: L.LSTM(3, return_sequences=True)),
    (lambda: L.GRUCell(3), lambda: L.GRU(3, return_sequences=True)),
    (lambda: L.GRUCell(3, reset_after=False), lambda: L.GRU(3, return_sequences=True, reset_after=False)),
])
def test_cells_in_rnn_equal_the_fused_layers(cell, fused):
    rnn, layer = L.RNN(cell(), return_sequences=True), fused()
    rnn(X)
    layer(X)
    for theirs, ours in zip(layer.weights, rnn.weights):
        ours.assign(theirs)
    np.testing.assert_allclose(rnn(X).numpy(), layer(X).numpy(), rtol=1e-5, atol=1e-6)
    mask = np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1], [1, 0, 0, 0, 0]], bool)
    np.testing.assert_allclose(rnn(X, mask=mask).numpy(), layer(X, mask=mask).numpy(), rtol=1e-5, atol=1e-6)


class _Accumulator(L.Layer):
    """A custom cell: state += inputs @ w; output = tanh(state)."""

    state_size = 2

    def build(self, input_shape):
        self.w = self.add_weight(name="w", shape=(input_shape[-1], 2), initializer="ones")

    def call(self, inputs, states):
        total = states[0] + inputs @ self.w
        return tf.tanh(total), [total]

    def get_initial_state(self, batch_size=None):
        return [tf.zeros((batch_size, 2))]


def test_a_custom_cell_runs_like_a_numpy_loop():
    out, state = L.RNN(_Accumulator(), return_sequences=True, return_state=True)(X)
    running = np.cumsum(X.sum(-1, keepdims=True) * np.ones((1, 1, 2)), axis=1)
    np.testing.assert_allclose(out.numpy(), np.tanh(running), rtol=1e-5)
    np.testing.assert_allclose(state.numpy(), running[:, -1], rtol=1e-5)
    backwards = L.RNN(_Accumulator(), go_backwards=True, return_sequences=True)(X).numpy()
    np.testing.assert_allclose(backwards, np.tanh(np.cumsum(X[:, ::-1].sum(-1, keepdims=True) * np.ones(2),
                                                            axis=1)), rtol=1e-5)


def test_stacked_cells_states_and_configs():
    outputs = L.RNN([L.SimpleRNNCell(2), L.LSTMCell(3)], return_state=True)(X)
    assert outputs[0].shape == (3, 3) and len(outputs) == 3
    assert [t.shape for t in outputs[1]] == [(3, 2)] and [t.shape for t in outputs[2]] == [(3, 3), (3, 3)]
    rnn = L.RNN(L.LSTMCell(4, dropout=0.2), return_sequences=True)
    again = L.RNN.from_config(rnn.get_config())
    assert type(again.cell) is L.LSTMCell and again.cell.units == 4 and again.cell.dropout == 0.2
    assert L.LSTMCell(3).state_size == [3, 3] and L.GRUCell(2).state_size == 2
    with pytest.raises(ValueError, match="stateful"):
        L.RNN(L.SimpleRNNCell(2), stateful=True)


def test_cell_dropout_draws_one_mask_per_sequence_and_trains():
    cell = L.SimpleRNNCell(3, dropout=0.5, seed=1)
    rnn = L.RNN(cell, return_sequences=True)
    rnn(X, training=True)
    mask = cell._dropout_mask.numpy()
    assert set(np.unique(mask)) <= {0.0, 2.0}  # one scaled mask, reused at every step
    np.testing.assert_array_equal(rnn(X).numpy(), rnn(X).numpy())  # not training: no dropout
    model = tf.keras.Sequential([L.Input((5, 4)), L.RNN(L.GRUCell(4)), L.Dense(1)])
    model.compile("adam", "mse")
    y = X.sum((1, 2))[:, None]
    losses = model.fit(X, y, epochs=25, verbose=0).history["loss"]
    assert losses[-1] < losses[0]
