"""fit/evaluate/predict with verbose=2: one line per epoch (the timings masked)."""
import contextlib
import io
import re

import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1, kernel_initializer="ones")])
model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
x = np.ones((8, 3), np.float32)
y = np.full((8, 1), 2.0, np.float32)
buffer = io.StringIO()
with contextlib.redirect_stdout(buffer):
    model.fit(x, y, batch_size=4, epochs=2, verbose=2, shuffle=False)
    model.fit(x, y, batch_size=8, epochs=1, verbose=2, validation_data=(x, y), shuffle=False)
    model.evaluate(x, y, batch_size=4, verbose=2)
    model.predict(x, batch_size=4, verbose=2)
text = re.sub(r"\d+(us|ms|s)/step", "T/step", buffer.getvalue())
print(re.sub(r" - \d+s - ", " - Ns - ", text))
