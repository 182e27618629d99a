"""stateless_gamma / stateless_poisson / stateless_binomial: the same numbers for a seed, errors."""
import numpy as np
import tensorflow as tf

np.set_printoptions(precision=6, suppress=True)
print(tf.random.stateless_gamma([5], seed=[1, 2], alpha=1.0).numpy())
print(tf.random.stateless_gamma([3, 2], seed=[1, 2], alpha=[0.5, 3.0], beta=[1.0, 2.0]).numpy())
print(tf.random.stateless_gamma([4], seed=[4, 5], alpha=0.05, dtype=tf.float64).numpy())
print(tf.random.stateless_poisson([8], seed=[1, 2], lam=3.0).numpy())
print(tf.random.stateless_poisson([3, 3], seed=[9, 2], lam=[0.5, 30.0, 1000.0], dtype=tf.float32).numpy())
print(tf.random.stateless_binomial([6], seed=[1, 2], counts=10, probs=0.3).numpy())
counts, probs = [5.0, 100.0, 50.0], [0.5, 0.2, 0.9]
print(tf.random.stateless_binomial([3, 3], seed=[1, 2], counts=counts, probs=probs).numpy())
print(tf.random.stateless_binomial([2, 2], seed=[7, 8], counts=[[20.0], [1000.0]], probs=[0.1, 0.6]).numpy())
drawn = tf.random.stateless_poisson([2000], seed=[3, 3], lam=4.0)
print(drawn.dtype.name, drawn.shape, round(float(tf.reduce_mean(tf.cast(drawn, tf.float32))), 4))

alpha = tf.Variable([0.5, 2.0])
with tf.GradientTape() as tape:
    drawn = tf.random.stateless_gamma([4, 2], seed=[1, 2], alpha=alpha, beta=2.0)
print(tape.gradient(drawn, alpha).numpy())


@tf.function
def in_function(seed):
    return tf.random.stateless_binomial([4], seed=seed, counts=60.0, probs=0.25)


print(in_function(tf.constant([5, 6])).numpy())
for bad in (lambda: tf.random.stateless_gamma([3], seed=[1, 2], alpha=[1.0, 2.0]),
            lambda: tf.random.stateless_poisson([3], seed=[1, 2, 3], lam=1.0),
            lambda: tf.random.stateless_gamma([3], seed=[1, 2], alpha=1, dtype=tf.int32)):
    try:
        bad()
        print("no error")
    except Exception as e:
        print(type(e).__name__)
