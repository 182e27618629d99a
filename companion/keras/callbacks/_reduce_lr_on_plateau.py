"""`ReduceLROnPlateau`: lowers the learning rate when a monitored value stops improving."""

import numpy as np

from companion.keras.callbacks import _learning_rate, _monitor
from companion.keras.callbacks._callback import Callback


class ReduceLROnPlateau(Callback):
    """Multiplies the learning rate by ``factor`` after ``patience`` epochs without improvement.

    An epoch improves when ``current < best - min_delta`` (mode "min") or
    ``current > best + min_delta`` ("max"; "auto" follows the compiled metric's direction, see
    `_monitor.higher_is_better`).
    After a reduction the rate is ``max(lr * factor, min_lr)`` and ``cooldown`` epochs
    pass before counting again. The current rate is added to the logs as
    ``learning_rate``. ``tf.keras.callbacks.ReduceLROnPlateau``.

    Args:
        monitor: the log name to watch.
        factor: the factor the rate is multiplied by, below 1.
        patience: epochs without improvement before a reduction.
        verbose: 1 prints each reduction.
        mode: ``"auto"``, ``"min"`` or ``"max"``.
        min_delta: the smallest change counted as an improvement.
        cooldown: epochs to wait after a reduction before counting again.
        min_lr: the lowest learning rate.

    Example:
        >>> import types
        >>> import companion as tf
        >>> model = types.SimpleNamespace(optimizer=tf.keras.optimizers.SGD(learning_rate=0.1))
        >>> reduce = tf.keras.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1)
        >>> reduce.set_model(model); reduce.on_train_begin()
        >>> for epoch, loss in enumerate([1.0, 1.0]):
        ...     reduce.on_epoch_end(epoch, {"loss": loss})
        >>> round(float(model.optimizer.learning_rate), 6)
        0.05
    """

    def __init__(self, monitor="val_loss", factor=0.1, patience=10, verbose=0, mode="auto",
                 min_delta=1e-4, cooldown=0, min_lr=0, **kwargs):
        super().__init__()
        _check_arguments(factor, kwargs)
        self.monitor = monitor
        self.factor = factor
        self.patience = patience
        self.verbose = verbose
        self.mode = _monitor.checked_mode(mode, type(self).__name__)
        self.min_delta = abs(min_delta)
        self.cooldown = cooldown
        self.min_lr = min_lr
        self.maximize = None  # decided by `_monitor.direction`
        if self.mode != "auto":
            _monitor.direction(self)
        self._reset()

    def _reset(self):
        self.best = None  # Keras 3: the first monitored value is always an improvement
        self.cooldown_counter = 0
        self.wait = 0

    def on_train_begin(self, logs=None):
        self._reset()

    def on_epoch_end(self, epoch, logs=None):
        _monitor.direction(self)  # "auto": once the model's metrics are built, as Keras 3
        logs = logs if logs is not None else {}
        logs["learning_rate"] = _learning_rate.get_learning_rate(self.model)
        current = _monitor.monitored_value(logs, self.monitor, "Learning rate reduction")
        if current is None:
            return
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.wait = 0
        if self._is_improvement(current):
            self.best = current
            self.wait = 0
        elif not self.in_cooldown():
            self.wait += 1
            if self.wait >= self.patience:
                self._reduce(epoch)

    def in_cooldown(self):
        """Whether the cooldown after the last reduction is still running."""
        return self.cooldown_counter > 0

    def _is_improvement(self, current):
        if self.best is None:
            return True
        shifted = current - self.min_delta  # min_delta is negative when minimizing
        return shifted > self.best if self.maximize else shifted < self.best

    def _reduce(self, epoch):
        old_lr = _learning_rate.get_learning_rate(self.model)
        if old_lr > np.float32(self.min_lr):
            new_lr = max(old_lr * self.factor, self.min_lr)
            _learning_rate.set_learning_rate(self.model, new_lr)
            if self.verbose > 0:
                print(f"\nEpoch {epoch + 1}: ReduceLROnPlateau reducing learning rate to {new_lr}.")
            self.cooldown_counter = self.cooldown
            self.wait = 0


def _check_arguments(factor, kwargs):
    if factor >= 1.0:
        raise ValueError("ReduceLROnPlateau does not support a factor >= 1.0 (it would not reduce "
                         f"the learning rate). Received: factor={factor}")
    if kwargs:
        raise TypeError(f"Unexpected keyword argument(s) for ReduceLROnPlateau: {sorted(kwargs)}")
