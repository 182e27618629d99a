"""Keras 3's mode="auto" in EarlyStopping, ModelCheckpoint and ReduceLROnPlateau: the direction comes
from the compiled metric of that name (its up/down direction), `loss` is minimized, anything else is
a ValueError; an unknown mode warns and falls back to "auto"."""
import os
import tempfile
import warnings

import numpy as np
import tensorflow as tf

keras = tf.keras


def my_metric(y_true, y_pred):
    return keras.ops.mean(y_pred)


x = np.linspace(-1, 1, 32).reshape(16, 2).astype("float32")
y = (x[:, :1] > 0).astype("float32")
model = keras.Sequential([keras.Input(shape=(2,)), keras.layers.Dense(1, activation="sigmoid",
                                                                      kernel_initializer="ones")])
model.compile("sgd", "binary_crossentropy",
              metrics=["accuracy", "mae", "mse", keras.metrics.Precision(), keras.metrics.AUC(), my_metric,
                       keras.metrics.MeanAbsoluteError(name="my_mae"), keras.metrics.TruePositives(),
                       keras.metrics.MeanMetricWrapper(keras.losses.MeanSquaredError(), name="wrapped_mse"),
                       keras.metrics.MeanMetricWrapper(my_metric, name="wrapped_custom"),
                       keras.metrics.RootMeanSquaredError(), keras.metrics.R2Score(),
                       keras.metrics.BinaryCrossentropy(), keras.metrics.CosineSimilarity(),
                       keras.metrics.Recall(), keras.metrics.F1Score()])
model.fit(x, y, epochs=1, verbose=0, validation_data=(x, y))
folder = tempfile.mkdtemp()
monitors = ["val_precision", "val_auc", "val_loss", "loss", "val_mae", "val_accuracy", "val_mse",
            "val_my_metric", "val_my_mae", "val_true_positives", "val_wrapped_mse", "val_wrapped_custom",
            "val_root_mean_squared_error", "val_r2_score", "val_binary_crossentropy", "val_cosine_similarity",
            "val_recall", "val_f1_score", "val_nothing", "precision", "val_val_loss", "acc", "val_acc"]


def make(kind, monitor, mode="auto"):
    if kind == "EarlyStopping":
        return keras.callbacks.EarlyStopping(monitor=monitor, mode=mode, min_delta=0.5)
    if kind == "ModelCheckpoint":
        return keras.callbacks.ModelCheckpoint(os.path.join(folder, "m.weights.h5"), monitor=monitor,
                                               mode=mode, save_best_only=True, save_weights_only=True)
    return keras.callbacks.ReduceLROnPlateau(monitor=monitor, mode=mode, patience=5, min_delta=0.5)


for kind in ["EarlyStopping", "ModelCheckpoint", "ReduceLROnPlateau"]:
    for monitor in monitors:
        callback = make(kind, monitor)
        callback.set_model(model)
        callback.on_train_begin()
        try:
            for epoch, value in enumerate([1.0, 2.0, 0.75]):
                callback.on_epoch_begin(epoch)
                callback.on_epoch_end(epoch, {monitor: value, "loss": 0.5})
            print(kind, monitor, "best", callback.best, getattr(callback, "min_delta", None))
        except ValueError as e:
            print(kind, monitor, type(e).__name__, "mode='max'" in str(e) and monitor in str(e))
    for mode in ["min", "max"]:
        callback = make(kind, "val_my_metric", mode=mode)
        callback.set_model(model)
        callback.on_train_begin()
        for epoch, value in enumerate([1.0, 2.0, 0.75]):
            callback.on_epoch_begin(epoch)
            callback.on_epoch_end(epoch, {"val_my_metric": value, "loss": 0.5})
        print(kind, mode, "best", callback.best)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        callback = make(kind, "val_loss", mode="bogus")
    print(kind, "bogus ->", callback.mode, [(w.category.__name__, str(w.message)) for w in caught])

bare = keras.Sequential([keras.Input(shape=(2,)), keras.layers.Dense(1)])
for kind in ["EarlyStopping", "ModelCheckpoint", "ReduceLROnPlateau"]:
    callback = make(kind, "val_accuracy")
    callback.set_model(bare)
    callback.on_train_begin()
    try:
        callback.on_epoch_begin(0)
        callback.on_epoch_end(0, {"val_accuracy": 1.0})
        print(kind, "uncompiled", callback.best)
    except ValueError as e:
        print(kind, "uncompiled", type(e).__name__)

# in fit: EarlyStopping on val_auc keeps the highest value
model2 = keras.Sequential([keras.Input(shape=(2,)), keras.layers.Dense(1, activation="sigmoid",
                                                                       kernel_initializer="zeros")])
model2.compile(keras.optimizers.SGD(0.5), "binary_crossentropy", metrics=[keras.metrics.AUC(name="auc")])
stopper = keras.callbacks.EarlyStopping(monitor="val_auc", patience=2)
history = model2.fit(x, y, epochs=4, verbose=0, validation_data=(x, y), callbacks=[stopper], shuffle=False)
print("fit best is the max", stopper.best == max(history.history["val_auc"]), len(history.history["val_auc"]))
print(sorted(history.history))
