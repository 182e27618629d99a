"""DType objects: names, properties, as_dtype."""
import numpy as np
import tensorflow as tf

print(tf.float32, repr(tf.float32))
print(tf.float32.name, tf.int64.name, tf.bool.name, tf.string.name)
print(tf.float32.is_floating, tf.int32.is_integer, tf.uint8.is_unsigned)
print(tf.as_dtype(np.float64))
print(tf.as_dtype("int32") == tf.int32)
print(tf.float16.size, tf.float64.size)
print(tf.float32.as_numpy_dtype)
print(tf.int8.min, tf.int8.max)
print(tf.float32 == np.float32)
print(tf.dtypes.as_dtype(np.int64).is_integer)
print(tf.complex64.is_complex, tf.bfloat16.name)
