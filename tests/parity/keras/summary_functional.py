"""model.summary() of functional models: a chain, branches with a shared layer, a nested model."""
import tensorflow as tf

inputs = tf.keras.Input(shape=(32,), name="features")
x = tf.keras.layers.Dense(64, activation="relu")(inputs)
x = tf.keras.layers.Dense(64, activation="relu")(x)
outputs = tf.keras.layers.Dense(10, activation="softmax")(x)
chain = tf.keras.Model(inputs=inputs, outputs=outputs, name="mnist_model")
chain.summary()

left = tf.keras.Input(shape=(8,))
right = tf.keras.Input(shape=(8,))
shared = tf.keras.layers.Dense(4, name="shared_encoder")
merged = tf.keras.layers.concatenate([shared(left), shared(right)])
normalized = tf.keras.layers.BatchNormalization()(merged)
score = tf.keras.layers.Dense(1, activation="sigmoid", name="score")(normalized)
siamese = tf.keras.Model([left, right], score)
siamese.summary()
print(siamese.name, [layer.name for layer in siamese.layers])

encoder = tf.keras.Sequential([tf.keras.Input((32,)), tf.keras.layers.Dense(8), tf.keras.layers.Dense(2)],
                              name="encoder")
image = tf.keras.Input((32,))
head = tf.keras.layers.Dense(1)(encoder(image))
full = tf.keras.Model(image, head)
full.summary()
full.summary(expand_nested=True, line_length=70)
lines = []
full.summary(print_fn=lines.append)
print(len(lines), lines[0].splitlines()[0], lines[0].endswith("\n"))
