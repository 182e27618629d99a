"""`EarlyStopping`: stops ``fit`` when a monitored value has stopped improving."""


from companion.keras.callbacks import _monitor
from companion.keras.callbacks._callback import Callback


class EarlyStopping(Callback):
    """Stops training when ``monitor`` has not improved for ``patience`` epochs.

    An epoch improves when ``current - min_delta < best`` (mode "min") or
    ``current - min_delta > best`` ("max"; "auto" follows the compiled metric's direction, see
    `_monitor.higher_is_better`). After ``patience`` epochs
    without improvement it sets ``model.stop_training = True`` and records
    ``stopped_epoch``; with ``restore_best_weights`` it then sets the weights of the
    best epoch back (``model.get_weights``/``set_weights``) when training ends, stopped
    early or not, as Keras 3 does. ``best`` is None until the first monitored epoch. Epochs before
    ``start_from_epoch`` are ignored. With a ``baseline``, the patience only restarts
    on epochs that also beat the baseline.

    Args:
        monitor: the log name to watch.
        min_delta: the smallest change counted as an improvement.
        patience: epochs without improvement before stopping.
        verbose: 1 prints when it stops and restores.
        mode: ``"auto"``, ``"min"`` or ``"max"``.
        baseline: a value the monitor must beat, or None.
        restore_best_weights: whether to restore the best epoch's weights when stopping.
        start_from_epoch: epochs to wait before watching (a warm-up).

    Example:
        >>> import types
        >>> import companion as tf
        >>> model = types.SimpleNamespace(stop_training=False)
        >>> stopper = tf.keras.callbacks.EarlyStopping(monitor="loss", patience=1)
        >>> stopper.set_model(model); stopper.on_train_begin()
        >>> for epoch, loss in enumerate([0.5, 0.6, 0.4]):
        ...     stopper.on_epoch_end(epoch, {"loss": loss})
        ...     if model.stop_training: break
        >>> stopper.stopped_epoch
        1
    """

    def __init__(self, monitor="val_loss", min_delta=0, patience=0, verbose=0, mode="auto",
                 baseline=None, restore_best_weights=False, start_from_epoch=0):
        super().__init__()
        self.mode = _monitor.checked_mode(mode, type(self).__name__)
        self.monitor = monitor
        self.patience = patience
        self.verbose = verbose
        self.baseline = baseline
        self.restore_best_weights = restore_best_weights
        self.start_from_epoch = start_from_epoch
        self.min_delta = abs(min_delta)
        self.maximize = None  # decided by `_monitor.direction`
        if self.mode != "auto":
            _monitor.direction(self)
        self.on_train_begin()

    def on_train_begin(self, logs=None):
        self.wait = 0
        self.stopped_epoch = 0
        self.best = None  # Keras 3: the first monitored value is always an improvement
        self.best_weights = None
        self.best_epoch = 0

    def on_epoch_end(self, epoch, logs=None):
        _monitor.direction(self)  # "auto": once the model's metrics are built, as Keras 3
        current = _monitor.monitored_value(logs, self.monitor, "Early stopping")
        if current is None or epoch < self.start_from_epoch:
            return
        if self.restore_best_weights and self.best_weights is None:
            self.best_weights = self.model.get_weights()  # in case no epoch ever improves
            self.best_epoch = epoch
        self.wait += 1
        if self._is_improvement(current, self.best):
            self._record_best(current, epoch)
            return
        if self.wait >= self.patience and epoch > 0:
            self._stop(epoch)

    def on_train_end(self, logs=None):
        if self.stopped_epoch > 0 and self.verbose > 0:
            print(f"Epoch {self.stopped_epoch + 1}: early stopping")
        if self.restore_best_weights and self.best_weights is not None:  # stopped early or not, as Keras 3
            if self.verbose > 0:
                print(f"Restoring model weights from the end of the best epoch: {self.best_epoch + 1}.")
            self.model.set_weights(self.best_weights)

    def get_monitor_value(self, logs):
        """The monitored value in ``logs``, or None (with a warning) when it is missing."""
        return _monitor.monitored_value(logs, self.monitor, "Early stopping")

    def _is_improvement(self, value, reference):
        if reference is None:
            return True
        value = value - self.min_delta
        return value > reference if self.maximize else value < reference

    def _record_best(self, current, epoch):
        self.best = current
        self.best_epoch = epoch
        if self.restore_best_weights:
            self.best_weights = self.model.get_weights()
        if self.baseline is None or self._is_improvement(current, self.baseline):
            self.wait = 0

    def _stop(self, epoch):
        self.stopped_epoch = epoch
        self.model.stop_training = True
