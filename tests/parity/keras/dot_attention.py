"""Attention and AdditiveAttention: scores (dot, scaled, concat, additive), masks, causal masks,
Keras masks in a functional model, gradients and configs."""
import numpy as np
import tensorflow as tf

L = tf.keras.layers
rng = np.random.default_rng(1)
q = tf.constant(rng.normal(size=(2, 3, 4)).astype("float32"))
v = tf.constant(rng.normal(size=(2, 5, 4)).astype("float32"))
k = tf.constant(rng.normal(size=(2, 5, 4)).astype("float32"))
layers = [L.Attention(), L.Attention(use_scale=True), L.Attention(score_mode="concat"),
          L.Attention(use_scale=True, score_mode="concat"), L.AdditiveAttention(use_scale=False)]
for layer in layers:
    out, sc = layer([q, v, k], return_attention_scores=True)
    print(type(layer).__name__, out.shape, sc.shape, [w.name for w in layer.weights])
    print(np.round(out.numpy()[0, 0], 4).tolist(), np.round(sc.numpy()[1, 2], 4).tolist())
ad = L.AdditiveAttention()
ad.build([q.shape, v.shape])
ad.scale.assign([0.5, -1.0, 2.0, 0.1])
print(np.round(ad([q, v]).numpy()[1], 4).tolist())
qm = tf.constant([[True, True, False], [True, False, False]])
vm = tf.constant([[True, False, True, True, False], [True] * 5])
out, sc = L.Attention()([q, v], mask=[qm, vm], return_attention_scores=True)
print(np.round(out.numpy(), 4).tolist())
print(np.round(sc.numpy()[0], 4).tolist())
out, sc = L.Attention()([q, v], use_causal_mask=True, return_attention_scores=True)
print(np.round(sc.numpy()[0], 4).tolist())
print(L.Attention().get_config()["score_mode"])
print(sorted(k for k in L.AdditiveAttention().get_config() if k not in ("name", "dtype")))
inp = tf.keras.Input((6,))
e = L.Embedding(9, 4, mask_zero=True)(inp)
a = L.Attention()([e, e])
print(a.shape)
m = tf.keras.Model(inp, L.GlobalAveragePooling1D()(a))
print(np.round(m(np.array([[1, 2, 0, 0, 3, 0]])).numpy().shape, 4))
with tf.GradientTape() as t:
    t.watch(q)
    y = tf.reduce_sum(L.Attention(score_mode="concat")([q, v]) ** 2)
print(np.round(t.gradient(y, q).numpy()[0, 0], 4).tolist())
