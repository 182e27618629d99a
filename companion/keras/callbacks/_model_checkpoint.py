"""`ModelCheckpoint`: saves the model or its weights every epoch (or every N batches)."""

import os

from companion.keras.callbacks import _chief, _monitor
from companion.keras.callbacks._callback import Callback
from companion.keras.callbacks._logs import to_python


class ModelCheckpoint(Callback):
    """Saves the model or its weights during training, ``tf.keras.callbacks.ModelCheckpoint``.

    ``filepath`` may hold format fields filled from the epoch (1-based) and the logs,
    e.g. ``"ckpt-{epoch:02d}-{val_loss:.2f}.weights.h5"``. With ``save_weights_only`` it
    calls ``model.save_weights(path)``, else ``model.save(path)``. With
    ``save_best_only`` it saves only when ``monitor`` beats the best value so far (the
    first monitored value always does: ``best`` starts as None, as in Keras 3)
    (``mode`` "auto" follows the compiled metric's direction, see `_monitor.higher_is_better`). On a
    non-chief worker of a ``TF_CONFIG`` cluster it writes to a temporary directory
    and deletes it, so only the chief's file remains. As in Keras 3, a weights path must
    end in ``.weights.h5`` and a model path in ``.keras`` (or ``.h5``): other names raise
    ValueError at once.

    Args:
        filepath: the path to save to, a string with optional format fields.
        monitor: the log name compared by ``save_best_only``.
        verbose: 1 prints a message for each save.
        save_best_only: save only when ``monitor`` improves.
        save_weights_only: save with ``save_weights`` instead of ``save``.
        mode: ``"auto"``, ``"min"`` or ``"max"``.
        save_freq: ``"epoch"``, or an integer: save every that many batches.
        initial_value_threshold: the best value to beat at first (``save_best_only``).

    Example:
        >>> import types
        >>> import companion as tf
        >>> model = types.SimpleNamespace(save_weights=lambda path: print("saving", path))
        >>> checkpoint = tf.keras.callbacks.ModelCheckpoint("ckpt-{epoch:02d}-{loss:.2f}.weights.h5",
        ...                                                 save_weights_only=True)
        >>> checkpoint.set_model(model)
        >>> checkpoint.on_epoch_end(0, {"loss": 0.4567})
        saving ckpt-01-0.46.weights.h5
    """

    def __init__(self, filepath, monitor="val_loss", verbose=0, save_best_only=False,
                 save_weights_only=False, mode="auto", save_freq="epoch", initial_value_threshold=None):
        super().__init__()
        self.mode = _monitor.checked_mode(mode, type(self).__name__)
        _check_save_freq(save_freq)
        self.filepath = os.fspath(filepath)
        self.monitor = monitor
        self.verbose = verbose
        self.save_best_only = save_best_only
        self.save_weights_only = save_weights_only
        self.save_freq = save_freq
        self.min_delta = 0  # Keras 3's monitoring callbacks all have one; a checkpoint's is 0
        self.maximize = None  # decided by `_monitor.direction`
        if self.mode != "auto":
            _monitor.direction(self)
        self.best = initial_value_threshold  # None: the first monitored value is an improvement (Keras 3)
        _check_suffix(self.filepath, save_weights_only)
        self._current_epoch = 0
        self._batches_seen_since_last_saving = 0
        self._last_batch_seen = 0

    def set_model(self, model):
        if not self.save_weights_only and model is not None and not hasattr(model, "save"):
            raise TypeError(f"ModelCheckpoint(save_weights_only=False) saves with model.save(), "
                            f"which {type(model).__name__} does not have. Pass "
                            "save_weights_only=True to save with model.save_weights(). "
                            f"Received: model={model!r}")
        super().set_model(model)

    def on_epoch_begin(self, epoch, logs=None):
        self._current_epoch = epoch

    def on_train_batch_end(self, batch, logs=None):
        if self._should_save_on_batch(batch):
            self._save_model(self._current_epoch, batch, logs)

    def on_epoch_end(self, epoch, logs=None):
        _monitor.direction(self)  # "auto": once the model's metrics are built, as Keras 3
        if self.save_freq == "epoch":
            self._save_model(epoch, None, logs)

    def _should_save_on_batch(self, batch):
        if self.save_freq == "epoch":
            return False
        new_epoch = batch <= self._last_batch_seen
        self._batches_seen_since_last_saving += batch + 1 if new_epoch else batch - self._last_batch_seen
        self._last_batch_seen = batch
        if self._batches_seen_since_last_saving >= self.save_freq:
            self._batches_seen_since_last_saving = 0
            return True
        return False

    def _save_model(self, epoch, batch, logs):
        logs = to_python(logs)
        filepath = self._file_path(epoch, batch, logs)
        write_path = _chief.write_filepath(filepath)
        dirname = os.path.dirname(write_path)
        if dirname:
            os.makedirs(dirname, exist_ok=True)
        if self.save_best_only:
            self._save_if_best(epoch, logs, filepath, write_path)
        else:
            self._say(f"\nEpoch {epoch + 1}: saving model to {filepath}")
            self._write(write_path)
            self._say(f"\nEpoch {epoch + 1}: finished saving model to {filepath}")
        _chief.remove_temp_dir(write_path)

    def _save_if_best(self, epoch, logs, filepath, write_path):
        current = _monitor.monitored_value(logs, self.monitor, "ModelCheckpoint(save_best_only=True)")
        if current is None:
            return
        best = "None" if self.best is None else f"{self.best:.5f}"
        maximize = _monitor.direction(self)  # saving by batch can come before the first epoch's end
        if self.best is not None and not (current > self.best if maximize else current < self.best):
            self._say(f"\nEpoch {epoch + 1}: {self.monitor} did not improve from {best}")
            return
        self._say(f"\nEpoch {epoch + 1}: {self.monitor} improved from {best} to "
                  f"{current:.5f}, saving model to {filepath}")
        self.best = current
        self._write(write_path)
        self._say(f"\nEpoch {epoch + 1}: finished saving model to {filepath}")

    def _file_path(self, epoch, batch, logs):
        fields = dict(logs)
        if batch is not None and "batch" not in logs:
            fields["batch"] = batch + 1
        fields["epoch"] = epoch + 1
        try:
            return self.filepath.format(**fields)
        except KeyError as error:
            raise KeyError(f'Failed to format this callback filepath: "{self.filepath}". Reason: '
                           f"{error} is not in the logs ({sorted(logs)}) nor epoch/batch.") from None

    def _write(self, path):
        if self.save_weights_only:
            self.model.save_weights(path)
        else:
            self.model.save(path)

    def _say(self, message):
        if self.verbose > 0:
            print(message)


def _check_save_freq(save_freq):
    if save_freq == "epoch":
        return
    if isinstance(save_freq, bool) or not isinstance(save_freq, int) or save_freq < 1:
        raise ValueError("Unrecognized `save_freq`: expected 'epoch' or a positive integer (a "
                         f"number of batches). Received: save_freq={save_freq!r}")


def _check_suffix(filepath, save_weights_only):
    """Keras 3's file-name rule: ``.weights.h5`` for weights, ``.keras`` (or ``.h5``) for models."""
    if save_weights_only:
        if not filepath.endswith(".weights.h5"):
            raise ValueError("When using `save_weights_only=True` in `ModelCheckpoint`, the filepath "
                             "provided must end in `.weights.h5` (Keras weights format). Received: "
                             f"filepath={filepath}")
    elif not filepath.endswith((".keras", ".h5")):
        raise ValueError("The filepath provided must end in `.keras` (Keras model format). Received: "
                         f"filepath={filepath}")
