"""tf.random.Generator gives TensorFlow's numbers: Philox state [counter, counter, key], 256 counter
steps per output, every draw kind, make_seeds, split, big seeds, from_state, reset_from_seed."""
import tensorflow as tf

g = tf.random.Generator.from_seed(5)
print(g.state.numpy())
print(g.uniform([2]).numpy(), g.state.numpy())
print(g.uniform([3], minval=-1, maxval=2).numpy(), g.state.numpy())
print(g.normal([5]).numpy(), g.state.numpy())
print(g.uniform([4], minval=0, maxval=10, dtype=tf.int32).numpy(), g.state.numpy())
print(g.uniform([3], dtype=tf.float64).numpy(), g.state.numpy())
print(g.truncated_normal([6]).numpy(), g.state.numpy())
print(g.uniform_full_int([2], dtype=tf.int64).numpy(), g.state.numpy())
print(g.make_seeds(2).numpy(), g.state.numpy())
s = g.split(2)
print([x.state.numpy().tolist() for x in s], g.state.numpy())
print(s[0].normal([2]).numpy())
g2 = tf.random.Generator.from_seed(123456789012345)
print(g2.state.numpy(), g2.normal([3]).numpy())
g3 = tf.random.Generator.from_state([1, 2, 3], alg="philox")
print(g3.uniform([2]).numpy(), g3.state.numpy(), g3.algorithm)
g.reset_from_seed(5)
print(g.uniform([2]).numpy())
