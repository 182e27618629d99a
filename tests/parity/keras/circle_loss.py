"""keras.losses.circle / Circle: per-example values, the loss > 0 mask in the reduction, sample
weights, config, and gradients (against TF's)."""
import numpy as np
import tensorflow as tf

keras = tf.keras
rng = np.random.RandomState(0)
emb = rng.randn(6, 4).astype("float32")
emb /= np.linalg.norm(emb, axis=1, keepdims=True)
labels = np.array([0, 1, 0, 2, 1, 3], "int32")  # class 2 and 3 have no positive pair


def show(name, value):
    print(name, np.round(np.asarray(value), 4).tolist())


show("fn", keras.losses.circle(labels, emb))
show("fn gm", keras.losses.circle(labels, emb, gamma=2.0, margin=0.25))
show("fn keep diag", keras.losses.circle(labels, emb, remove_diagonal=False))
show("fn refs", keras.losses.circle(labels[:3], emb[:3], ref_labels=labels, ref_embeddings=emb))
show("fn float labels", keras.losses.circle(labels.astype("float32"), emb))
for kw in [{}, {"gamma": 2.0, "margin": 0.25}, {"reduction": "sum"}, {"reduction": None},
           {"remove_diagonal": False}]:
    loss = keras.losses.Circle(**kw)
    show(f"cls {kw}", loss(labels, emb))
loss = keras.losses.Circle(gamma=2.0)
show("weighted", loss(labels, emb, sample_weight=np.array([1, 2, 0, 1, 1, 1], "float32")))
print(loss.get_config())
for kw in [{}, {"gamma": 2.0}, {"remove_diagonal": False, "gamma": 4.0}]:
    v = tf.Variable(emb)
    with tf.GradientTape() as tape:
        value = keras.losses.Circle(**kw)(labels, v)
    show(f"grad {kw}", tape.gradient(value, v))
    with tf.GradientTape() as tape:
        value = tf.reduce_sum(keras.losses.circle(labels, v, **kw))
    show(f"fn grad {kw}", tape.gradient(value, v))
print(type(keras.losses.get("circle")).__name__, keras.losses.get("Circle").__class__.__name__)
single = np.array([0, 1, 2, 3, 4, 5], "int32")
show("no positives", keras.losses.circle(single, emb))
show("no positives cls", keras.losses.Circle()(single, emb))
