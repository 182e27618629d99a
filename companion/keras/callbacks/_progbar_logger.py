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
    given: ``fit``'s logs are already running averages. Inside ``fit`` validation is
    silent. As in Keras 3 it takes no arguments (Keras 2's ``count_mode`` is gone).

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

    def __init__(self):
        super().__init__()
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
        self.progbar = Progbar(target=self.target, verbose=self.verbose, stateless_metrics=(),
                               unit_name="step")  # every value is shown as given

    def _update(self, batch, logs):
        if self.progbar is None:
            self._reset_progbar()
        self.seen = batch + 1  # batches are 0-based
        if self.progbar.due():
            self._show(self.seen, to_python(logs), finalize=False)

    def _finalize(self, logs):
        if self.progbar is None:
            self._reset_progbar()
        if self.target is None:
            self.target = self.progbar.target = self.seen
        self._show(self.target, logs, finalize=True)

    def _show(self, current, logs, finalize):
        self.progbar.update(current, list((logs or {}).items()), finalize=finalize)

