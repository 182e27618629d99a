"""Save a Module with a signature and call the loaded one."""
import tensorflow as tf


class Scaler(tf.Module):
    def __init__(self):
        super().__init__()
        self.k = tf.Variable(3.0)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def __call__(self, x):
        return x * self.k

tf.saved_model.save(Scaler(), "scaler")
loaded = tf.saved_model.load("scaler")
print(loaded(tf.constant([1.0, 2.0])))
print(loaded.k.numpy())
print(list(loaded.signatures.keys()))
