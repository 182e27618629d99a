"""Recurrent layers hold a Keras 3 cell (weight paths ``lstm/lstm_cell/kernel``) and return their
states as a tuple. Expected values were printed by TF 2.21 + Keras 3.15 (/work/tfenv) on the same code."""

import os

import numpy as np

import companion as tf

L = tf.keras.layers


def test_each_recurrent_layer_has_its_cell_and_the_cell_holds_the_weights():
    x = np.ones((1, 2, 4), "float32")
    for cls, cell_type, cell_name in ((L.LSTM, "LSTMCell", "lstm_cell"), (L.GRU, "GRUCell", "gru_cell"),
                                      (L.SimpleRNN, "SimpleRNNCell", "simple_rnn_cell")):
        layer = cls(3, name="rnn")
        layer(x)
        assert type(layer.cell).__name__ == cell_type and layer.cell.name == cell_name
        # TF 2.21: ['lstm/lstm_cell/kernel', 'lstm/lstm_cell/recurrent_kernel', 'lstm/lstm_cell/bias']
        expected = [f"rnn/{cell_name}/kernel", f"rnn/{cell_name}/recurrent_kernel", f"rnn/{cell_name}/bias"]
        assert [w.path for w in layer.weights] == expected
        assert [w.name for w in layer.weights] == ["kernel", "recurrent_kernel", "bias"]
        assert [w.path for w in layer.cell.weights] == expected
        assert layer.trainable_weights[0] is layer.cell.kernel
        assert layer.cell.units == layer.units == 3


def test_bidirectional_weights_sit_under_the_cells():
    bi = L.Bidirectional(L.GRU(2, name="gg"), name="bi")
    bi(np.ones((1, 3, 5), "float32"))
    # TF 2.21
    assert [w.path for w in bi.weights] == [
        "bi/forward_gg/gru_cell/kernel", "bi/forward_gg/gru_cell/recurrent_kernel",
        "bi/forward_gg/gru_cell/bias",
        "bi/backward_gg/gru_cell/kernel", "bi/backward_gg/gru_cell/recurrent_kernel",
        "bi/backward_gg/gru_cell/bias"]


def test_seeded_weights_and_outputs_are_unchanged_by_the_cell():
    tf.keras.utils.set_random_seed(3)
    x = np.random.default_rng(0).normal(size=(2, 4, 3)).astype("float32")
    # TF 2.21 (set_random_seed(3)): per-weight sums and the outputs
    expected = {
        "SimpleRNN": ([-1.05473, -1.3467, 0.0], [[-0.854, 0.1234], [-0.1815, -0.8352]]),
        "LSTM": ([-4.49279, -1.34535, 2.0], [[0.0745, 0.21], [-0.1466, -0.0276]]),
        "GRU": ([-2.02447, -2.21477, 0.0], [[0.4734, 0.185], [0.042, -0.2681]]),
    }
    for cls in (L.SimpleRNN, L.LSTM, L.GRU):
        layer = cls(2, return_state=True)
        out = layer(x)
        sums, first = expected[cls.__name__]
        np.testing.assert_allclose([w.numpy().sum() for w in layer.weights], sums, atol=2e-5)
        np.testing.assert_allclose(out[0].numpy(), first, atol=1e-4)


def test_return_state_gives_a_tuple_eagerly_and_symbolically():
    x = np.ones((2, 5, 4), "float32")
    out = L.LSTM(3, return_sequences=True, return_state=True)(x)
    assert type(out) is tuple and [tuple(o.shape) for o in out] == [(2, 5, 3), (2, 3), (2, 3)]
    out = L.GRU(3, return_state=True)(x)
    assert type(out) is tuple and len(out) == 2
    assert type(L.SimpleRNN(3, return_state=True)(x)) is tuple
    assert type(L.RNN(L.LSTMCell(2), return_state=True)(x)) is tuple
    assert type(L.Bidirectional(L.LSTM(2, return_state=True))(x)) is tuple and \
        len(L.Bidirectional(L.LSTM(2, return_state=True))(x)) == 5
    inp = tf.keras.Input((3, 5))
    sym = L.LSTM(4, return_state=True)(inp)
    assert type(sym) is tuple and len(sym) == 3
    model = tf.keras.Model(inp, L.LSTM(4, return_state=True)(inp))
    assert type(model.output) is tuple and type(model(np.ones((2, 3, 5), "float32"))) is tuple


def test_recurrent_model_saves_and_loads_with_cells(tmp_path):
    inp = tf.keras.Input((4, 3))
    model = tf.keras.Model(inp, L.Dense(1)(L.GRU(3)(L.LSTM(2, return_sequences=True)(inp))))
    x = np.random.default_rng(1).normal(size=(2, 4, 3)).astype("float32")
    model.save(os.path.join(tmp_path, "m.keras"))
    again = tf.keras.models.load_model(os.path.join(tmp_path, "m.keras"))
    np.testing.assert_allclose(again(x).numpy(), model(x).numpy(), rtol=1e-6)
    model.compile("adam", "mse")
    model.fit(x, np.ones((2, 1)), verbose=0)
    model.save_weights(os.path.join(tmp_path, "w.weights.h5"))
    clone = tf.keras.models.clone_model(model)
    clone.load_weights(os.path.join(tmp_path, "w.weights.h5"))
    np.testing.assert_allclose(clone(x).numpy(), model(x).numpy(), rtol=1e-6)
