"""A subclassed model built by hand, then trained, saved and loaded (.keras): the weights come back."""
import numpy as np
import tensorflow as tf


@tf.keras.utils.register_keras_serializable(package="demo")
class Tiny(tf.keras.Model):
    def __init__(self, units=2, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.dense = tf.keras.layers.Dense(units, kernel_initializer="ones")

    def call(self, inputs):
        return self.dense(inputs)

    def get_config(self):
        return {**super().get_config(), "units": self.units}


x = np.arange(12, dtype="float32").reshape(6, 2) / 10
y = x @ np.array([[1.0, 0.5], [-1.0, 2.0]], "float32")
model = Tiny()
model.build((None, 2))
print(model.count_params())
model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
model.fit(x, y, epochs=3, batch_size=3, shuffle=False, verbose=0)
print(model.count_params(), np.round(model.predict(x, verbose=0), 4).tolist())
model.save("tiny.keras")
loaded = tf.keras.models.load_model("tiny.keras")
print(type(loaded).__name__, loaded.units, loaded.built)
print(np.allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0)))
