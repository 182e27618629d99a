"""keras.losses.ctc / CTC: per-sample values, reductions, sample weights, gradients against TF's,
float64 logits, shape errors, and training with it (also as the string "ctc")."""
import numpy as np
import tensorflow as tf

keras = tf.keras
rng = np.random.RandomState(1)
logits = rng.randn(3, 6, 5).astype("float32")
labels = np.array([[1, 2, 2, 0], [3, 0, 0, 0], [4, 1, 3, 2]], "int32")


def show(name, value):
    print(name, np.round(np.asarray(value), 4).tolist())


show("fn", keras.losses.ctc(labels, logits))
for kw in [{}, {"reduction": "sum"}, {"reduction": None}]:
    show(f"cls {kw}", keras.losses.CTC(**kw)(labels, logits))
show("weighted", keras.losses.CTC()(labels, logits, sample_weight=np.array([1.0, 0.5, 0.0], "float32")))
print(keras.losses.CTC().get_config())
v = tf.Variable(logits)
with tf.GradientTape() as tape:
    value = keras.losses.CTC()(labels, v)
show("grad", tape.gradient(value, v))
with tf.GradientTape() as tape:
    value = tf.reduce_sum(keras.losses.ctc(labels, v))
show("fn grad", tape.gradient(value, v)[0])
print(type(keras.losses.get("ctc")).__name__, type(keras.losses.get("CTC")).__name__)
show("float labels", keras.losses.ctc(labels.astype("float32"), logits))
show("f64", keras.losses.ctc(labels, logits.astype("float64")))
print(keras.losses.ctc(labels, logits.astype("float64")).dtype)
for a, b in [(labels[0], logits), (labels, logits[0])]:
    try:
        keras.losses.ctc(a, b)
    except ValueError:
        print("ValueError", np.shape(a), np.shape(b))
model = keras.Sequential([keras.Input(shape=(6, 5)), keras.layers.Dense(5, kernel_initializer="identity")])
model.compile(keras.optimizers.SGD(0.1), loss=keras.losses.CTC())
h = model.fit(logits, labels, epochs=2, verbose=0, shuffle=False, batch_size=3)
show("fit", h.history["loss"])
model.compile(keras.optimizers.SGD(0.1), loss="ctc")
show("eval str", model.evaluate(logits, labels, verbose=0))
