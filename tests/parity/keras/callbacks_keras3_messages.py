"""Keras 3's EarlyStopping, ModelCheckpoint and weights-file messages and rules."""
import numpy as np
import tensorflow as tf

keras = tf.keras
x = np.linspace(0, 1, 48, dtype="float32").reshape(16, 3)
y = x.sum(1)


def model(lr):
    m = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1, kernel_initializer="ones")])
    m.compile(optimizer=keras.optimizers.SGD(lr), loss="mse")
    return m


m = model(0.0)
stopper = keras.callbacks.EarlyStopping(monitor="loss", patience=1, verbose=1, restore_best_weights=True)
print(stopper.best)
h = m.fit(x, y, epochs=10, verbose=0, callbacks=[stopper])
print(len(h.history["loss"]), stopper.stopped_epoch, stopper.best_epoch, round(stopper.best, 5))

m = model(0.05)
keeper = keras.callbacks.EarlyStopping(monitor="loss", patience=5, verbose=1, restore_best_weights=True)
m.fit(x, y, epochs=3, verbose=0, callbacks=[keeper])
print(keeper.stopped_epoch, keeper.best_epoch)

checkpoint = keras.callbacks.ModelCheckpoint("best.keras", monitor="loss", save_best_only=True, verbose=1)
print(checkpoint.best)
model(0.05).fit(x, y, epochs=2, verbose=0, callbacks=[checkpoint])
weights = keras.callbacks.ModelCheckpoint("w{epoch:02d}.weights.h5", save_weights_only=True, verbose=1)
model(0.05).fit(x, y, epochs=2, verbose=0, callbacks=[weights])
for path, only_weights in [("m.h5", True), ("m.ckpt", False)]:
    try:
        keras.callbacks.ModelCheckpoint(path, save_weights_only=only_weights)
    except ValueError as e:
        print("ValueError", "must end in" in str(e))
for name in ["w.h5", "w.weights", "w.keras", "w"]:
    try:
        m.save_weights(name)
    except ValueError as e:
        print("ValueError", "weights.h5" in str(e))
for name in ["w.npz", "w"]:
    try:
        m.load_weights(name)
    except ValueError as e:
        print("ValueError", "not supported" in str(e))
try:
    m.load_weights("missing.weights.h5")
except FileNotFoundError:
    print("FileNotFoundError")
