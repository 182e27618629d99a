"""A fully known TensorShape converts to an int32 tensor of its sizes (a function may return one);
a partially known one cannot be converted."""
import tensorflow as tf

print(tf.constant(tf.TensorShape([1, 3])).numpy(), tf.convert_to_tensor(tf.TensorShape([2]), dtype=tf.int64))
print(tf.convert_to_tensor(tf.TensorShape([])).dtype)


@tf.function
def shapes(x):
    return x.shape, tf.shape(x)


static, dynamic = shapes(tf.zeros([2, 5]))
print(static.numpy(), static.dtype, dynamic.numpy())
try:
    tf.constant(tf.TensorShape([None, 3]))
except ValueError:
    print("ValueError for a partially known shape")
