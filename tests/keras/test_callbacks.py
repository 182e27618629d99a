"""keras.callbacks, driven by a fake model and a fit-like loop over hand-written logs.

Each oracle is worked out by hand from the log sequence fed in (see the comments).
"""

import itertools
import re
import types

import numpy as np
import pytest

import companion as tf
from companion.keras import callbacks as cb
from companion.keras.utils import _progbar
from tests.keras.callback_checks import FakeModel, fit, val_losses


# -- Callback, CallbackList, History ------------------------------------------------------------
class Recorder(cb.Callback):
    def __init__(self):
        super().__init__()
        self.calls = []



def _recording(name):
    def hook(self, *args, **kwargs):  # Keras 3 passes batch hooks' logs as logs=, the others' positionally
        self.calls.append((name, *(args if kwargs else args[:-1])))

    return hook


for _name in [n for n in vars(cb.Callback) if n.startswith("on_")
              and n not in ("on_train_batch_begin", "on_train_batch_end")]:
    setattr(Recorder, _name, _recording(_name))


def test_hooks_are_called_in_order_and_train_batches_reach_the_legacy_names():
    recorder = Recorder()
    fit([recorder], [{"loss": 1.0}] * 2, batch_logs=[{"loss": 1.0}])
    assert recorder.calls == [
        ("on_train_begin",),
        ("on_epoch_begin", 0), ("on_batch_begin", 0), ("on_batch_end", 0), ("on_epoch_end", 0),
        ("on_epoch_begin", 1), ("on_batch_begin", 0), ("on_batch_end", 0), ("on_epoch_end", 1),
        ("on_train_end",),
    ]


def test_lambda_callback_functions_may_name_their_parameters_anything():
    seen = []
    callback = cb.LambdaCallback(on_epoch_end=lambda e, values: seen.append((e, values)),
                                 on_train_begin=lambda whatever: seen.append(whatever))
    fit([callback], [{"loss": 1.0}] * 2, batch_logs=[{"loss": 1.0}])
    assert seen == [{}, (0, {"loss": 1.0}), (1, {"loss": 1.0})]


def test_batch_hooks_get_their_logs_by_keyword_as_keras_passes_them():
    # Keras 3.15's CallbackList calls callback.on_train_batch_end(batch, logs=logs): a LambdaCallback
    # batch function must name that parameter `logs` (TF raised this TypeError for `lambda b, l:`)
    seen = []
    callback = cb.LambdaCallback(on_train_batch_end=lambda b, logs: seen.append((b, logs)))
    fit([callback], [{"loss": 1.0}], batch_logs=[{"loss": 1.0}])
    assert seen == [(0, {"loss": 1.0})]
    misnamed = cb.LambdaCallback(on_train_batch_end=lambda b, values: None)
    with pytest.raises(TypeError, match="logs"):
        fit([misnamed], [{"loss": 1.0}], batch_logs=[{"loss": 1.0}])
    legacy = cb.LambdaCallback(on_batch_end=lambda b, values: None)  # reached through on_train_batch_end
    with pytest.raises(TypeError, match="logs"):
        fit([legacy], [{"loss": 1.0}], batch_logs=[{"loss": 1.0}])


def test_default_callbacks_history_then_progbar_after_the_users_and_not_duplicated():
    # Keras 3.15 appends History, then ProgbarLogger: a user callback prints before the bar ends
    mine, history = cb.Callback(), cb.History()
    callbacks = cb.CallbackList([mine], add_history=True, add_progbar=True)
    assert [type(c) for c in callbacks] == [cb.Callback, cb.History, cb.ProgbarLogger]
    assert cb.CallbackList([history], add_history=True).history is history


def test_set_model_and_params_reach_every_callback():
    model, mine = FakeModel(), cb.Callback()
    callbacks = cb.CallbackList([mine], add_history=True, model=model, verbose=0, epochs=3, steps=7)
    assert mine.model is model and mine.params == {"verbose": 0, "epochs": 3, "steps": 7}
    assert callbacks.history.model is model and model.history is callbacks.history


def test_history_records_python_numbers_for_each_epoch():
    model = FakeModel()
    history = fit([], [{"loss": tf.constant(0.5)}, {"loss": tf.constant(0.25)}], model=model)
    assert history.epoch == [0, 1]
    assert history.history == {"loss": [0.5, 0.25]} and type(history.history["loss"][0]) is float
    assert model.history is history


def test_lambda_callback_hooks_and_extra_hooks():
    seen = []
    lam = cb.LambdaCallback(on_batch_end=lambda batch, logs: seen.append(("batch", batch)),
                            on_train_end=lambda logs: seen.append("end"),
                            on_test_begin=lambda logs: seen.append("test"))
    fit([lam], [{"loss": 1.0}], batch_logs=[{}, {}])
    cb.CallbackList([lam]).on_test_begin()  # hooks are called with logs=... by keyword
    assert seen == [("batch", 0), ("batch", 1), "end", "test"]


# -- EarlyStopping ------------------------------------------------------------------------------
def test_early_stopping_stops_after_patience_and_restores_the_best_weights():
    # val_loss 1.0, 0.8 (best, epoch 1), 0.9 (wait 1), 0.85 (wait 2 = patience): stop at epoch 3.
    model = FakeModel()
    stopper = cb.EarlyStopping(patience=2, restore_best_weights=True)
    history = fit([stopper], val_losses(1.0, 0.8, 0.9, 0.85, 0.7), model=model)
    assert stopper.stopped_epoch == 3 and history.epoch == [0, 1, 2, 3]
    np.testing.assert_array_equal(model.weights[0], [1.0, 1.0])


@pytest.mark.parametrize("kwargs, logs, stopped", [
    # "max": 0.6 does not beat 0.6, so epoch 2 exhausts patience 1.
    ({"monitor": "val_accuracy", "mode": "max", "patience": 1}, [0.5, 0.6, 0.6, 0.7], 2),
    # min_delta 0.1: 0.95 and 0.92 are not 0.1 below 1.0.
    ({"monitor": "val_accuracy", "mode": "min", "patience": 2, "min_delta": 0.1},
     [1.0, 0.95, 0.92, 0.5], 2),
    # without a baseline, 0.9, 0.8 improve and reset the wait: 0.85 is only wait 1.
    ({"monitor": "val_accuracy", "mode": "min", "patience": 2}, [0.9, 0.8, 0.85, 0.85, 0.85], 3),
    # baseline 0.5 is never beaten, so improvements do not reset the wait (1, 2, then 3 ≥ 2).
    ({"monitor": "val_accuracy", "mode": "min", "patience": 2, "baseline": 0.5}, [0.9, 0.8, 0.85], 2),
    # start_from_epoch 2 ignores the first two epochs: best 0.3 at epoch 2, stop at epoch 3.
    ({"monitor": "val_accuracy", "mode": "min", "patience": 1, "start_from_epoch": 2},
     [0.1, 0.2, 0.3, 0.4, 0.5], 3),
])
def test_early_stopping_epoch(kwargs, logs, stopped):
    stopper = cb.EarlyStopping(**kwargs)
    fit([stopper], [{"val_accuracy": v} for v in logs])
    assert stopper.stopped_epoch == stopped


def test_early_stopping_warns_on_a_missing_monitor_and_checks_mode():
    with pytest.warns(UserWarning, match="`val_loss` which is not available. Available metrics are: loss"):
        fit([cb.EarlyStopping()], [{"loss": 1.0}])
    # Keras 3.15 (TF 2.21): an unknown mode warns from EarlyStopping.__init__ and falls back to "auto"
    with pytest.warns(UserWarning, match="^EarlyStopping mode 'avg' is unknown, fallback to auto mode.$"):
        assert cb.EarlyStopping(mode="avg").mode == "auto"


def test_auto_mode_needs_a_compiled_metric_or_loss():
    # Keras 3.15: without compiled metrics only `loss`/`val_loss` has a direction (minimized); any
    # other monitor raises at the first epoch end (TF 2.21's message)
    stopper = cb.EarlyStopping(monitor="val_accuracy")
    with pytest.raises(ValueError, match=r"^EarlyStopping callback received monitor=val_accuracy, but "
                                         r"Keras isn't able to automatically determine .* `mode='min'`"):
        fit([stopper], [{"val_accuracy": 0.5}])
    stopper = cb.EarlyStopping(monitor="loss", patience=0, min_delta=0.25)
    fit([stopper], [{"loss": v} for v in (1.0, 0.9)])
    assert stopper.maximize is False and stopper.min_delta == -0.25 and stopper.stopped_epoch == 1


def test_early_stopping_verbose_message(capsys):
    fit([cb.EarlyStopping(patience=0, verbose=1)], val_losses(1.0, 2.0))
    assert capsys.readouterr().out == "Epoch 2: early stopping\n"


def test_early_stopping_restores_at_train_end_after_the_stop_message(capsys):
    # TF 2.21's Keras 3.15: "early stopping" is printed first, then the restore, both at train end
    model = FakeModel()
    stopper = cb.EarlyStopping(patience=1, verbose=1, restore_best_weights=True)
    assert stopper.best is None
    fit([stopper], val_losses(0.9, 1.0, 1.1), model=model)
    assert capsys.readouterr().out == ("Epoch 2: early stopping\n"
                                       "Restoring model weights from the end of the best epoch: 1.\n")
    np.testing.assert_array_equal(model.weights[0], [0.0, 0.0])


def test_early_stopping_restores_the_best_weights_even_without_stopping(capsys):
    model = FakeModel()
    stopper = cb.EarlyStopping(patience=5, verbose=1, restore_best_weights=True)
    fit([stopper], val_losses(1.0, 0.5, 0.7), model=model)
    assert capsys.readouterr().out == "Restoring model weights from the end of the best epoch: 2.\n"
    np.testing.assert_array_equal(model.weights[0], [1.0, 1.0])
    assert stopper.stopped_epoch == 0 and stopper.best == 0.5


# -- learning rate callbacks ----------------------------------------------------------------------
def test_reduce_lr_on_plateau_reduces_after_patience_with_cooldown_and_floor():
    # flat loss, patience 2, cooldown 1: reductions at the end of epochs 2, 4 and 6;
    # 0.1 → 0.05 → 0.025 → max(0.0125, min_lr=0.02). The logs hold the rate the epoch used.
    model = FakeModel(lr=0.1)
    reduce = cb.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=2, cooldown=1, min_lr=0.02)
    history = fit([reduce], [{"loss": 1.0}] * 8, model=model)
    want = [0.1, 0.1, 0.1, 0.05, 0.05, 0.025, 0.025, 0.02]
    assert history.history["learning_rate"] == pytest.approx(want, rel=1e-6)
    assert float(model.optimizer.learning_rate) == pytest.approx(0.02, rel=1e-6)


def test_reduce_lr_on_plateau_resets_the_wait_on_improvement():
    model = FakeModel(lr=1.0)
    fit([cb.ReduceLROnPlateau(monitor="loss", patience=2)], [{"loss": v} for v in (3, 3, 2, 2, 1)],
        model=model)
    assert float(model.optimizer.learning_rate) == 1.0
    with pytest.raises(ValueError, match="factor=1.0"):
        cb.ReduceLROnPlateau(factor=1.0)


@pytest.mark.parametrize("schedule", [
    lambda epoch: 0.1 * 0.5**epoch,  # the one-argument form
    lambda epoch, lr: lr * 0.5 ** min(epoch, 1),  # halves the current rate from epoch 1 on
])
def test_learning_rate_scheduler_sets_the_optimizer_rate(schedule):
    model = FakeModel(lr=0.1)
    history = fit([cb.LearningRateScheduler(schedule)], [{"loss": 1.0}] * 3, model=model)
    assert history.history["learning_rate"] == pytest.approx([0.1, 0.05, 0.025], rel=1e-6)
    var = tf.Variable(1.0)  # the optimizer now steps with 0.025: 1 - 0.025 * d(v²)/dv
    model.optimizer.minimize(lambda: var**2, [var])
    assert float(var) == pytest.approx(1 - 0.025 * 2, rel=1e-6)


def test_learning_rate_scheduler_rejects_non_numbers():
    with pytest.raises(ValueError, match="Received: 'fast'"):
        fit([cb.LearningRateScheduler(lambda epoch: "fast")], [{"loss": 1.0}])


# -- CSVLogger ------------------------------------------------------------------------------------
def test_csv_logger_writes_a_header_and_one_row_per_epoch(tmp_path):
    path = tmp_path / "log.csv"
    fit([cb.CSVLogger(path)], [{"loss": 0.5, "acc": 0.25}, {"loss": 0.4, "acc": 0.5}])
    # sorted names, plus val_ copies (Keras 2 adds them when the first epoch has none), NA-filled
    assert path.read_text() == "epoch,acc,loss,val_acc,val_loss\n0,0.25,0.5,NA,NA\n1,0.5,0.4,NA,NA\n"


def test_csv_logger_appends_without_a_second_header(tmp_path):
    path = tmp_path / "log.csv"
    fit([cb.CSVLogger(path, separator=";")], [{"loss": 0.5, "val_loss": 0.75}])
    fit([cb.CSVLogger(path, separator=";", append=True)], [{"loss": 0.25, "val_loss": 0.5}])
    assert path.read_text() == "epoch;loss;val_loss\n0;0.5;0.75\n0;0.25;0.5\n"


# -- TerminateOnNaN --------------------------------------------------------------------------------
@pytest.mark.parametrize("bad", [float("nan"), np.inf, tf.constant(np.nan)])
def test_terminate_on_nan_stops_at_the_bad_batch(capsys, bad):
    model = FakeModel()
    history = fit([cb.TerminateOnNaN()], [{"loss": 1.0}] * 3, model=model,
                  batch_logs=[{"loss": 0.5}, {"loss": bad}, {"loss": 0.5}])
    assert model.stop_training and history.epoch == [0]
    assert capsys.readouterr().out == "Batch 1: Invalid loss, terminating training\n"


# -- ProgbarLogger ---------------------------------------------------------------------------------
BATCHES = [{"loss": 0.1}, {"loss": 0.2}, {"loss": 0.3}]


def _styled_bar(count, done, rest, metrics):
    return (f"\r\x1b[1m{count}\x1b[0m \x1b[32m{'━' * done}\x1b[0m\x1b[37m{'━' * rest}\x1b[0m"
            f" \x1b[1m0s\x1b[0m 0s/step{metrics}")


@pytest.fixture
def frozen_clock(monkeypatch):
    monkeypatch.setattr(_progbar, "time", types.SimpleNamespace(time=lambda: 1000.0))


def test_progbar_logger_draws_the_first_batch_then_the_epoch_logs(frozen_clock, capsys):
    # Oracle: Keras 3.15's ProgbarLogger with the same logs and a clock that stands still (so
    # later batches fall inside the redraw interval): the first batch, then the epoch's logs
    fit([], [{"loss": 0.3, "val_loss": 0.5}] * 2, batch_logs=BATCHES, verbose=1)
    epoch = (_styled_bar("1/3", 6, 14, " - loss: 0.1000") + "\b" * 50
             + _styled_bar("3/3", 20, 0, " - loss: 0.3000 - val_loss: 0.5000") + "\n")
    assert capsys.readouterr().out == f"Epoch 1/2\n{epoch}Epoch 2/2\n{epoch}"


def test_progbar_logger_learns_an_unknown_target_and_shows_no_predict_outputs(frozen_clock, capsys):
    logger = cb.ProgbarLogger()
    logger.set_params({"verbose": 1, "epochs": 1, "steps": None})
    logger.on_predict_begin()
    for batch in range(2):
        logger.on_predict_batch_end(batch, {"outputs": 1})
    logger.on_predict_end()
    assert capsys.readouterr().out == ("\r      1/Unknown \x1b[1m0s\x1b[0m 0s/step" + "\b" * 26
                                       + _styled_bar("2/2", 20, 0, "") + "\n")


def test_progbar_logger_redraws_each_batch_when_time_passes(monkeypatch, capsys):
    clock = itertools.count(1000)  # each reading is a second later: no update is throttled
    monkeypatch.setattr(_progbar, "time", types.SimpleNamespace(time=lambda: float(next(clock))))
    fit([], [{"loss": 0.3}], batch_logs=BATCHES, verbose=1)
    out = capsys.readouterr().out
    assert not out.startswith("Epoch")  # one epoch: no header, as in Keras 3
    assert [part[:12] for part in out.split("\r")[1:]] == ["\x1b[1m1/3\x1b[0m ", "\x1b[1m2/3\x1b[0m ",
                                                          "\x1b[1m3/3\x1b[0m ", "\x1b[1m3/3\x1b[0m "]
    assert " - loss: 0.2000" in out


def test_progbar_logger_takes_no_arguments_as_in_keras_3():
    with pytest.raises(TypeError):
        cb.ProgbarLogger(count_mode="steps")


def test_progbar_logger_verbose_2_and_silent_validation(monkeypatch, capsys):
    logger = cb.ProgbarLogger()
    callbacks = cb.CallbackList([logger], verbose=2, epochs=1, steps=2)
    callbacks.on_train_begin()
    callbacks.on_epoch_begin(0)
    callbacks.on_train_batch_end(0, {"loss": 1.0})
    callbacks.on_test_begin()
    callbacks.on_test_batch_end(0, {"loss": 9.0})
    callbacks.on_test_end({"loss": 9.0})
    assert capsys.readouterr().out == ""
    callbacks.on_epoch_end(0, {"loss": 0.5, "val_loss": 9.0})
    out = capsys.readouterr().out
    # TF 2.21 / Keras 3.15: "2/2 - 0s - 15ms/step - loss: 0.5000 - val_loss: 9.0000"
    assert re.fullmatch(r"2/2 - \d+s - \d+(s|ms|us)/step - loss: 0\.5000 - val_loss: 9\.0000\n", out), out
