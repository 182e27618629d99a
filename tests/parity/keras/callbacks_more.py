"""EarlyStopping, LearningRateScheduler, ReduceLROnPlateau, CSVLogger, LambdaCallback (positional
logs), ModelCheckpoint to a .weights.h5 name, TerminateOnNaN."""
import os

import numpy as np
import tensorflow as tf

C = tf.keras.callbacks
x = np.linspace(-1, 1, 64).reshape(-1, 1).astype("float32")
y = 3 * x + 1


def model():
    m = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1, kernel_initializer="zeros")])
    m.compile(tf.keras.optimizers.SGD(0.1), "mse")
    return m


def fit(m, epochs, callbacks, **kwargs):
    return m.fit(x, y, epochs=epochs, verbose=0, shuffle=False, batch_size=64, callbacks=callbacks, **kwargs)


h = fit(model(), 20, [C.EarlyStopping(monitor="loss", min_delta=0.5, patience=2)])
print("early", len(h.history["loss"]), h.epoch[-1])
h = fit(model(), 4, [C.LearningRateScheduler(lambda e, lr: lr * 0.5)])
print("lrs", [round(v, 4) for v in h.history["learning_rate"]])
h = fit(model(), 6, [C.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=0, min_delta=10)])
print("plateau", [round(float(v), 5) for v in h.history["learning_rate"]])
fit(model(), 3, [C.CSVLogger("log.csv")])
print("csv", open("log.csv").read().splitlines()[0])
logs = []
fit(model(), 2, [C.LambdaCallback(on_epoch_end=lambda e, epoch_logs: logs.append((e, sorted(epoch_logs))))])
print("lambda", logs)
fit(model(), 3, [C.ModelCheckpoint("best.weights.h5", save_weights_only=True, save_best_only=True,
                                   monitor="val_loss")], validation_data=(x, y))
print("checkpoint", os.path.exists("best.weights.h5"))
other = model()
other.load_weights("best.weights.h5")
print("loaded", np.round(other.layers[0].kernel.numpy(), 4).tolist())
h = model().fit(x, y * np.nan, epochs=3, verbose=0, batch_size=64, callbacks=[C.TerminateOnNaN()])
print("nan", len(h.history["loss"]))
