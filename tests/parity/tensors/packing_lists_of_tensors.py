"""Lists holding tensors: convert_to_tensor packs them (first tensor's dtype); constant refuses them."""
import numpy as np
import tensorflow as tf


def attempt(label, fn):
    try:
        print(label, fn())
    except Exception as e:  # noqa: BLE001
        print(label, type(e).__name__)


attempt("packed", lambda: tf.convert_to_tensor([2, tf.constant(1.0)]))
attempt("numpy leaf", lambda: tf.convert_to_tensor([np.float64(1.5), tf.constant(1.0)]))
attempt("nested", lambda: tf.convert_to_tensor([[1, 2], [tf.constant(1.0), 3]]))
attempt("dtype given", lambda: tf.convert_to_tensor([tf.constant(1.0), tf.constant(2.0, tf.float64)],
                                                    dtype=tf.float64))
attempt("mixed tensors", lambda: tf.convert_to_tensor((tf.constant(1), tf.constant(2.0))))
attempt("float into int", lambda: tf.convert_to_tensor([2.5, tf.constant(1)]))
attempt("op argument", lambda: tf.reduce_sum([tf.constant(1.0), 2.0]))
attempt("op mixed", lambda: tf.add([tf.constant(1), tf.constant(2.0)], 1.0))
attempt("stop_gradient", lambda: tf.stop_gradient([tf.constant(1.0), tf.constant(2.0)]))
attempt("constant of tensors", lambda: tf.constant([tf.constant(1.0), tf.constant(2.0)]))
attempt("constant mixed", lambda: tf.constant([1.0, tf.constant(2.0)]))
attempt("constant variable", lambda: tf.constant([tf.Variable(1.0), 2.0]))
