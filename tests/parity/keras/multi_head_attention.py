"""EinsumDense and MultiHeadAttention: shapes, weight paths, values with fixed weights, masks
(attention, causal, Keras masks from an Embedding), gradients and configs."""
import numpy as np
import tensorflow as tf

L = tf.keras.layers
C = tf.keras.initializers.Constant
rng = np.random.default_rng(0)
q = tf.constant(rng.normal(size=(2, 3, 4)).astype("float32"))
v = tf.constant(rng.normal(size=(2, 5, 6)).astype("float32"))
ed = L.EinsumDense("abc,cde->abde", output_shape=(None, 2, 3), bias_axes="de", kernel_initializer=C(0.1),
                   bias_initializer=C(0.5))
print(ed(q).shape, ed.kernel.shape, ed.bias.shape, ed.compute_output_shape((2, 3, 4)))
print(np.round(float(tf.reduce_sum(ed(q))), 4))
ed2 = L.EinsumDense("...b,bc->...c", output_shape=7, bias_axes="c")
print(ed2(v).shape, ed2.kernel.shape, ed2.bias.shape, [w.path for w in ed2.weights])
ed3 = L.EinsumDense("ab,bcd->acd", output_shape=(2, 3))
print(ed3(tf.ones([4, 5])).shape, ed3.kernel.shape, ed3.bias)
m = L.MultiHeadAttention(num_heads=2, key_dim=3, kernel_initializer=C(0.05), bias_initializer=C(0.01))
out, sc = m(q, v, return_attention_scores=True)
print(out.shape, sc.shape, [(x.path, tuple(x.shape)) for x in m.weights])
print(np.round(out.numpy()[0, 0], 5).tolist(), np.round(sc.numpy()[0, 0, 0], 5).tolist())
m2 = L.MultiHeadAttention(num_heads=2, key_dim=2, value_dim=3, output_shape=5, kernel_initializer="ones")
print(m2(q, v, v).shape, [tuple(x.shape) for x in m2.weights])


def set_weights(layer):  # nonuniform kernels, for a meaningful softmax
    for i, x in enumerate(layer.weights):
        x.assign(np.reshape(np.sin(np.arange(np.prod(x.shape)) * (i + 1) * 0.37), x.shape).astype("float32"))


m3 = L.MultiHeadAttention(num_heads=2, key_dim=3)
m3(q, v)
set_weights(m3)
o3, s3 = m3(q, v, return_attention_scores=True)
print(np.round(o3.numpy(), 3).tolist())
print(np.round(s3.numpy()[1], 4).tolist())
mask = tf.constant(np.array([[[1, 1, 0, 0, 1]] * 3, [[1, 0, 1, 1, 1]] * 3], bool))
o4, s4 = m3(q, v, attention_mask=mask, return_attention_scores=True)
print(np.round(o4.numpy()[0], 3).tolist())
print(np.round(s4.numpy()[0, 0], 4).tolist())
o5, s5 = m3(q, tf.concat([q, q[..., :2]], -1), use_causal_mask=True, return_attention_scores=True)
print(np.round(s5.numpy()[0, 1], 4).tolist())
with tf.GradientTape() as t:
    y = tf.reduce_sum(m3(q, v) ** 2)
g = t.gradient(y, m3.trainable_variables)
print(len(g), [round(float(tf.reduce_sum(x)), 2) for x in g])
print(sorted(k for k in m3.get_config() if k not in ("name", "dtype")))
cfg = m2.get_config()
print(cfg["output_shape"], cfg["value_dim"], cfg["attention_axes"])
x5 = tf.constant(rng.normal(size=(2, 3, 4, 6)).astype("float32"))
m6 = L.MultiHeadAttention(num_heads=2, key_dim=2, attention_axes=(1, 2))
o6, s6 = m6(x5, x5, return_attention_scores=True)
print(o6.shape, s6.shape)
inp = tf.keras.Input((5,))
emb = L.Embedding(10, 6, mask_zero=True)(inp)
att = L.MultiHeadAttention(2, 3)(emb, emb)
model = tf.keras.Model(inp, L.GlobalAveragePooling1D()(att))
print(model.output_shape, len(model.weights))
