"""NumPy arrays are treated like tensors of their dtype and shape."""
import numpy as np
import tensorflow as tf


@tf.function
def f(x):
    print("trace", x.dtype, x.shape)
    return x + 1

print(f(np.array([1.0, 2.0])))
print(f(np.array([3.0, 4.0])))
print(f(np.array([1, 2], dtype=np.int32)))
print(f.experimental_get_tracing_count())
