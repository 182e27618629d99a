"""Callbacks driven by a real Model.fit: hook order, early stopping, schedules, NaN, CSV."""

import numpy as np

import companion as tf

RNG = np.random.default_rng(3)
X = RNG.normal(size=(40, 3)).astype(np.float32)
Y = (X @ np.array([[1.0], [2.0], [-1.0]])).astype(np.float32)


def _model(lr=0.05):
    model = tf.keras.Sequential([tf.keras.Input(shape=(3,)), tf.keras.layers.Dense(1)])
    model.compile(tf.keras.optimizers.SGD(lr), "mse", metrics=["mae"])
    return model


class Recorder(tf.keras.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.calls = []


def _recording(name):
    def hook(self, *args, **kwargs):  # Keras passes a batch hook's logs as logs=, the others' positionally
        args += tuple(kwargs.values())
        self.calls.append(name if len(args) < 2 else f"{name}:{args[0]}")

    return hook


for _name in [n for n in vars(tf.keras.callbacks.Callback) if n.startswith("on_")
              and n not in ("on_batch_begin", "on_batch_end")]:
    setattr(Recorder, _name, _recording(_name))


def test_hooks_fire_in_keras_order_with_validation():
    recorder = Recorder()
    _model().fit(X, Y, batch_size=20, epochs=2, validation_data=(X[:10], Y[:10]), verbose=0,
                 callbacks=[recorder])
    epoch = ["on_train_batch_begin:0", "on_train_batch_end:0", "on_train_batch_begin:1",
             "on_train_batch_end:1", "on_test_begin", "on_test_batch_begin:0", "on_test_batch_end:0",
             "on_test_end"]
    assert recorder.calls == (["on_train_begin", "on_epoch_begin:0"] + epoch + ["on_epoch_end:0",
                              "on_epoch_begin:1"] + epoch + ["on_epoch_end:1", "on_train_end"])


def test_epoch_logs_reach_callbacks_as_floats_with_val_prefix():
    seen = []
    logger = tf.keras.callbacks.LambdaCallback(on_epoch_end=lambda epoch, logs: seen.append(logs))
    _model().fit(X, Y, epochs=1, validation_split=0.25, verbose=0, callbacks=[logger])
    assert list(seen[0]) == ["loss", "mae", "val_loss", "val_mae"]
    assert all(isinstance(v, float) for v in seen[0].values())


def test_early_stopping_stops_after_patience_epochs_without_improvement():
    stop = tf.keras.callbacks.EarlyStopping(monitor="loss", patience=2, min_delta=1e-4)
    history = _model(lr=0.0).fit(X, Y, epochs=10, verbose=0, callbacks=[stop])  # the loss never moves
    assert len(history.history["loss"]) == 3 and stop.stopped_epoch == 2  # best at 0, then 2 waits


def test_learning_rate_scheduler_sets_the_rate_used_by_the_step():
    model = _model()
    before = model.get_weights()
    scheduler = tf.keras.callbacks.LearningRateScheduler(lambda epoch: 0.0)
    history = model.fit(X, Y, epochs=2, verbose=0, callbacks=[scheduler])
    for got, want in zip(model.get_weights(), before):
        np.testing.assert_array_equal(got, want)  # rate 0: no step changes the weights
    assert history.history["learning_rate"] == [0.0, 0.0]


def test_terminate_on_nan_stops_after_the_first_bad_batch():
    x = X.copy()
    x[0, 0] = np.nan
    model = _model()
    model.fit(x, Y, batch_size=10, epochs=3, shuffle=False, verbose=0,
              callbacks=[tf.keras.callbacks.TerminateOnNaN()])
    assert int(model.optimizer.iterations) == 1


def test_csv_logger_writes_one_row_per_epoch(tmp_path):
    path = tmp_path / "log.csv"
    _model().fit(X, Y, epochs=3, verbose=0, callbacks=[tf.keras.callbacks.CSVLogger(str(path))])
    rows = path.read_text().splitlines()
    assert rows[0] == "epoch,loss,mae,val_loss,val_mae"  # Keras 2 adds val_ columns (NA) even without
    assert rows[1].endswith(",NA,NA") and [r.split(",")[0] for r in rows[1:]] == ["0", "1", "2"]
