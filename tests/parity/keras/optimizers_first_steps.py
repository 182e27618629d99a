"""The first steps of SGD, momentum, Adam and RMSprop on one Variable."""
import tensorflow as tf

optimizers = tf.keras.optimizers
for opt in (optimizers.SGD(0.1), optimizers.SGD(0.1, momentum=0.9), optimizers.Adam(0.1),
            optimizers.RMSprop(0.01), optimizers.Adagrad(0.1)):
    v = tf.Variable([1.0, -2.0])
    values = []
    for _ in range(3):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(v * v)
        opt.apply_gradients([(tape.gradient(loss, v), v)])
        values.append([round(float(x), 5) for x in v.numpy()])
    print(type(opt).__name__, values, int(opt.iterations))
