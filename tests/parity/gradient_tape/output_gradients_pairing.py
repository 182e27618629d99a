"""output_gradients as TF pairs them with targets: flattened, by position, ones past the end."""
import tensorflow as tf

x = tf.Variable([1.0, 2.0])
with tf.GradientTape(persistent=True) as tape:
    y = x * x
    z = x * 3.0
print(tape.gradient(y, x, output_gradients=[10.0, 1.0]))
print(tape.gradient([y, z], x, output_gradients=[tf.constant([10.0, 1.0])]))
print(tape.gradient({"a": y, "b": z}, x,
                    output_gradients={"b": tf.constant([10.0, 1.0]), "a": tf.constant([1.0, 0.0])}))
print(tape.gradient(y, x, output_gradients=2.0))
print(tape.gradient(y, x, output_gradients=tf.constant([[10.0, 1.0]])))
try:
    tape.gradient(y, x, output_gradients=tf.constant([1.0, 1.0, 3.0]))
except Exception as e:
    print(type(e).__name__)
