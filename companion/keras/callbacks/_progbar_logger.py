"""`ProgbarLogger`: prints ``Epoch 1/5`` and a `Progbar` per epoch, as ``fit(verbose=...)`` does."""

from companion.keras.callbacks._callback import Callback
from companion.keras.callbacks._logs import to_python
from companion.keras.utils import Progbar


class ProgbarLogger(Callback):
    """Prints the progress of ``fit``/``evaluate``/``predict``, ``tf.keras.callbacks.ProgbarLogger``.

    It reads three keys of ``params``: ``verbose`` (1: a bar updated every batch, 2: one
    line per epoch, 0: silent), ``epochs`` (``Epoch i/epochs`` is printed before each
    epoch when more than one) and ``steps`` (the batches per epoch, the bar's target;
    None when unknown, then the first epoch's count is used). Log values are shown as
    given: ``fit``'s logs are already running averages, like Keras 2's metrics. Inside
    ``fit`` validation is silent.

    Args:
        count_mode: ``"steps"`` (the only mode of TensorFlow 2's ``fit``).
        stateful_metrics: kept for Keras compatibility (every value is shown as given).

    Example:
        >>> import companion as tf
        >>> logger = tf.keras.callbacks.ProgbarLogger()
        >>> logger.set_params({"verbose": 2, "epochs": 2, "steps": 4})
        >>> logger.on_train_begin(); logger.on_epoch_begin(0)
        Epoch 1/2
        >>> logger.on_epoch_end(0, {"loss": 0.25})
        4/4 - ...s - ...s/step - loss: 0.2500
    """

    _supports_tf_logs = True  # batch logs arrive as tensors; converted only when drawn

    def __init__(self, count_mode="steps", stateful_metrics=None):
        super().__init__()
        _check_count_mode(count_mode)
        self.stateful_metrics = set(stateful_metrics or ())
        self.verbose, self.epochs, self.target = 1, 1, None
        self.seen = 0
        self.progbar = None
        self._called_in_fit = False

    def set_params(self, params):
        super().set_params(params)
        self.verbose = params.get("verbose", 1)
        self.epochs = params.get("epochs", 1)
        self.target = params.get("steps")

    def on_train_begin(self, logs=None):
        self._called_in_fit = True  # validation inside fit stays silent

    def on_epoch_begin(self, epoch, logs=None):
        self._reset_progbar()
        if self.verbose and self.epochs > 1:
            print(f"Epoch {epoch + 1}/{self.epochs}")

    def on_train_batch_end(self, batch, logs=None):
        self._update(batch, logs)

    def on_epoch_end(self, epoch, logs=None):
        self._finalize(logs)

    def on_test_begin(self, logs=None):
        if not self._called_in_fit:
            self._reset_progbar()

    def on_test_batch_end(self, batch, logs=None):
        if not self._called_in_fit:
            self._update(batch, logs)

    def on_test_end(self, logs=None):
        if not self._called_in_fit:
            self._finalize(logs)

    def on_predict_begin(self, logs=None):
        self._reset_progbar()

    def on_predict_batch_end(self, batch, logs=None):
        self._update(batch, None)  # the outputs are not shown

    def on_predict_end(self, logs=None):
        self._finalize(None)

    # -- helpers ----------------------------------------------------------------------------
    def _reset_progbar(self):
        self.seen = 0
        self.progbar = Progbar(target=self.target, verbose=self.verbose,
                               stateful_metrics=self.stateful_metrics, unit_name="step")

    def _update(self, batch, logs):
        if self.progbar is None:
            self._reset_progbar()
        self.seen = batch + 1  # batches are 0-based
        if self.verbose == 1 and self.progbar.due(self.seen):
            self._show(self.seen, to_python(logs), finalize=False)

    def _finalize(self, logs):
        if self.progbar is None:
            self._reset_progbar()
        if self.target is None:
            self.target = self.progbar.target = self.seen
        self._show(self.target, logs, finalize=True)

    def _show(self, current, logs, finalize):
        logs = dict(logs or {})
        self.progbar.stateful_metrics.update(logs)
        self.progbar.update(current, list(logs.items()), finalize=finalize)


def _check_count_mode(count_mode):
    if count_mode == "samples":
        raise NotImplementedError("ProgbarLogger(count_mode='samples') is TensorFlow 1's mode; "
                                  "TensorFlow 2's fit counts steps. Use count_mode='steps'.")
    if count_mode != "steps":
        raise ValueError("Unknown `count_mode`. Expected 'steps'. "
                         f"Received: count_mode={count_mode!r}")
