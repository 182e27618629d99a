"""read_value, value, convert_to_tensor and is_tensor on Variables."""
import tensorflow as tf

v = tf.Variable([1, 2])
r = v.read_value()
v.assign([3, 4])
print(r.numpy(), v.numpy())
print(tf.convert_to_tensor(v))
print(tf.is_tensor(v))
print(v.value().numpy())
print(v.numpy().dtype)
print(v.get_shape())
print(len(v.shape), v.shape.rank)
