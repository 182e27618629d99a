"""The Week 4 loop on one replica: distributed dataset, run, reduce, a Keras model."""
import numpy as np
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy(["/cpu:0"])
x = np.array([[0.0], [1.0], [2.0], [3.0]], dtype=np.float32)
y = np.array([[1.0], [3.0], [5.0], [7.0]], dtype=np.float32)
dist = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((x, y)).batch(2))
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1, kernel_initializer="zeros")])
    opt = tf.keras.optimizers.SGD(0.1)

def train_step(inputs):
    xb, yb = inputs
    with tf.GradientTape() as tape:
        loss = tf.nn.compute_average_loss(tf.reduce_sum((model(xb) - yb) ** 2, axis=1), global_batch_size=2)
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    return loss

@tf.function
def distributed_step(inputs):
    return strategy.reduce(tf.distribute.ReduceOp.SUM, strategy.run(train_step, args=(inputs,)), axis=None)

for epoch in range(3):
    total = sum(float(distributed_step(b)) for b in dist)
    print(epoch, round(total, 4))
