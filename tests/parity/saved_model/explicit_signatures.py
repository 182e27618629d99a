"""Explicit serving signatures return dicts."""
import tensorflow as tf


class M(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32, name="x")])
    def predict(self, x):
        return {"total": tf.reduce_sum(x, axis=1)}

m = M()
tf.saved_model.save(m, "m", signatures={"serving_default": m.predict})
loaded = tf.saved_model.load("m")
fn = loaded.signatures["serving_default"]
print(fn(x=tf.constant([[1.0, 2.0], [3.0, 4.0]])))
print(loaded.predict(tf.constant([[5.0, 5.0]])))
