"""RNN over SimpleRNNCell/LSTMCell/GRUCell (weights, paths, states, equal to the fused layers),
stacked cells, go_backwards, masks, a functional model, configs and gradients."""
import numpy as np
import tensorflow as tf

L = tf.keras.layers
rng = np.random.default_rng(7)
x = tf.constant(rng.normal(size=(2, 4, 3)).astype("float32"))


def fix(layer):
    for i, w in enumerate(layer.weights):
        values = np.sin(np.arange(np.prod(w.shape)) * (i + 1) * 0.41) * 0.5
        w.assign(np.reshape(values, w.shape).astype("float32"))


def r(t):
    return np.round(np.asarray(t), 4).tolist()


for cell in [L.SimpleRNNCell(3), L.LSTMCell(3), L.GRUCell(3), L.GRUCell(3, reset_after=False)]:
    rnn = L.RNN(cell, return_sequences=True, return_state=True)
    rnn(x)
    fix(rnn)
    out = rnn(x)
    print(type(cell).__name__, [w.path for w in rnn.weights], [tuple(w.shape) for w in rnn.weights])
    print(r(out[0][1]), [r(s[0]) for s in out[1:]])
    same = {"SimpleRNNCell": L.SimpleRNN, "LSTMCell": L.LSTM, "GRUCell": L.GRU}[type(cell).__name__]
    kw = {} if type(cell).__name__ != "GRUCell" else {"reset_after": cell.reset_after}
    fused = same(3, return_sequences=True, **kw)
    fused(x)
    for a, b in zip(fused.weights, rnn.weights):
        a.assign(b)
    print(np.allclose(fused(x).numpy(), out[0].numpy(), atol=1e-5))
stacked = L.RNN([L.SimpleRNNCell(2), L.LSTMCell(3)], return_state=True)
res = stacked(x)
fix(stacked)
res = stacked(x)
print(len(res), r(res[0]), [[tuple(t.shape) for t in s] for s in res[1:]], [w.path for w in stacked.weights])
back = L.RNN(L.SimpleRNNCell(2), go_backwards=True, return_sequences=True)
back(x)
fix(back)
print(r(back(x)[0]))
mask = tf.constant([[True, True, False, False], [True, True, True, False]])
m = L.RNN(L.GRUCell(2), return_sequences=True)
m(x)
fix(m)
print(r(m(x, mask=mask)[0]), r(m(x, mask=mask)[1]))
z = L.RNN(L.GRUCell(2), return_sequences=True, zero_output_for_mask=True)
z(x)
fix(z)
print(r(z(x, mask=mask)[0]))
inp = tf.keras.Input((4,))
e = L.Embedding(5, 3, mask_zero=True)(inp)
o = L.RNN(L.LSTMCell(2))(e)
model = tf.keras.Model(inp, o)
print(model.output_shape)
c = L.LSTMCell(3)
print(c.state_size, L.GRUCell(2).state_size, L.SimpleRNNCell(2).output_size)
print(sorted(k for k in L.RNN(L.SimpleRNNCell(2)).get_config() if k not in ("name", "dtype", "trainable")))
print(sorted(k for k in L.LSTMCell(2).get_config() if k not in ("name", "dtype", "trainable")))
with tf.GradientTape() as t:
    y = tf.reduce_sum(m(x) ** 2)
print(r([float(tf.reduce_sum(g)) for g in t.gradient(y, m.trainable_variables)]))
init = [tf.ones([2, 2])]
print(r(m(x, initial_state=init)[:, -1]))
