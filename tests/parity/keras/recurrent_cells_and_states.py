"""Recurrent layers hold their cell (weights under 'lstm/lstm_cell/'), and return_state gives a tuple."""
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(3)
L = tf.keras.layers
x = np.random.default_rng(0).normal(size=(2, 4, 3)).astype("float32")
for cls, name in ((L.SimpleRNN, "srnn"), (L.LSTM, "lstm"), (L.GRU, "gru")):
    layer = cls(2, return_state=True, name=name)
    out = layer(x)
    print(type(layer.cell).__name__, layer.cell.name, [w.path for w in layer.weights])
    print(type(out).__name__, len(out), [np.round(o.numpy(), 4).tolist() for o in out])
bi = L.Bidirectional(L.LSTM(2, return_state=True, name="lstm"), name="bi")
out = bi(x)
print(type(out).__name__, len(out), [w.path for w in bi.weights][:3])
out = L.RNN(L.GRUCell(2), return_state=True)(x)
print(type(out).__name__, len(out))
inp = tf.keras.Input((4, 3))
symbolic = L.LSTM(2, return_state=True, name="sym")(inp)
print(type(symbolic).__name__, [tuple(t.shape) for t in symbolic])
model = tf.keras.Model(inp, symbolic)
print(type(model(x)).__name__, [w.path for w in model.weights])
