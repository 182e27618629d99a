"""`CallbackList`: calls every hook of a list of callbacks in order, as ``fit`` uses it."""

from companion.keras.callbacks._callback import Callback
from companion.keras.callbacks._history import History
from companion.keras.callbacks._logs import to_python
from companion.keras.callbacks._progbar_logger import ProgbarLogger


class CallbackList(Callback):
    """A container of callbacks whose hooks call each callback's hook in order.

    Logs are converted once per hook (tensors to NumPy arrays, scalars to Python
    numbers) and the same dict is passed to every callback, so one that adds an entry
    (``LearningRateScheduler`` adds ``learning_rate``) is seen by the later ones.

    Args:
        callbacks: a list of `Callback` objects, or None.
        add_history: append a `History` unless the list has one.
        add_progbar: append a `ProgbarLogger` (after History) unless the list has one.
        model: the model, passed to every callback's ``set_model``.
        **params: the training parameters, passed to every ``set_params``: ``verbose``,
            ``epochs`` and ``steps`` (steps per epoch, None if unknown), as ``fit`` gives.

    Example:
        >>> import companion as tf
        >>> printer = tf.keras.callbacks.LambdaCallback(on_epoch_end=lambda e, logs: print(e, logs))
        >>> callbacks = tf.keras.callbacks.CallbackList([printer], add_history=True, epochs=1)
        >>> callbacks.on_train_begin()
        >>> callbacks.on_epoch_end(0, {"loss": tf.constant(0.5)})
        0 {'loss': 0.5}
        >>> callbacks.history.history
        {'loss': [0.5]}
    """

    def __init__(self, callbacks=None, add_history=False, add_progbar=False, model=None, **params):
        super().__init__()
        self._batch_cache = {}
        self.callbacks = list(callbacks or [])
        self._add_default_callbacks(add_history, add_progbar)
        if model is not None:
            self.set_model(model)
        if params:
            self.set_params(params)

    def _add_default_callbacks(self, add_history, add_progbar):
        self.history = next((c for c in self.callbacks if isinstance(c, History)), None)
        self._progbar = next((c for c in self.callbacks if isinstance(c, ProgbarLogger)), None)
        if self.history is None and add_history:
            self.history = History()
            self.callbacks.append(self.history)
        if self._progbar is None and add_progbar:
            self._progbar = ProgbarLogger()  # last, as in Keras 3: the others print before the bar ends
            self.callbacks.append(self._progbar)

    def append(self, callback):
        """Adds ``callback`` at the end."""
        self.callbacks.append(callback)

    def set_model(self, model):
        super().set_model(model)
        if self.history is not None:
            model.history = self.history
        for callback in self.callbacks:
            callback.set_model(model)

    def set_params(self, params):
        super().set_params(params)
        for callback in self.callbacks:
            callback.set_params(params)

    def __iter__(self):
        return iter(self.callbacks)

    def _call(self, hook, *args, logs=None):
        logs = to_python(logs)
        for callback in self.callbacks:  # logs positional, as Keras: LambdaCallback's functions may
            getattr(callback, hook)(*args, logs)  # name that parameter anything

    def _call_batch(self, hook, batch, logs):
        """A batch hook: only callbacks that define it run, and logs stay tensors for those
        that accept them (``_supports_tf_logs``), so a batch costs no device sync by default.
        Keras 3 passes a batch hook's logs by keyword (``logs=``), unlike the other hooks'."""
        converted = None
        for callback in self._batch_callbacks(hook):
            if getattr(callback, "_supports_tf_logs", False):
                getattr(callback, hook)(batch, logs=logs)
                continue
            if converted is None:
                converted = to_python(logs)
            getattr(callback, hook)(batch, logs=converted)

    def _batch_callbacks(self, hook):
        key = (hook, tuple(map(id, self.callbacks)))
        found = self._batch_cache.get(key)
        if found is None:
            found = [c for c in self.callbacks if _defines(c, hook)
                     or (hook.startswith("on_train_batch") and _defines(c, hook.replace("train_", "")))]
            self._batch_cache[key] = found
        return found

    def on_train_begin(self, logs=None):
        self._call("on_train_begin", logs=logs)

    def on_train_end(self, logs=None):
        self._call("on_train_end", logs=logs)

    def on_test_begin(self, logs=None):
        self._call("on_test_begin", logs=logs)

    def on_test_end(self, logs=None):
        self._call("on_test_end", logs=logs)

    def on_predict_begin(self, logs=None):
        self._call("on_predict_begin", logs=logs)

    def on_predict_end(self, logs=None):
        self._call("on_predict_end", logs=logs)

    def on_epoch_begin(self, epoch, logs=None):
        self._call("on_epoch_begin", epoch, logs=logs)

    def on_epoch_end(self, epoch, logs=None):
        self._call("on_epoch_end", epoch, logs=logs)

    def on_train_batch_begin(self, batch, logs=None):
        self._call_batch("on_train_batch_begin", batch, logs)

    def on_train_batch_end(self, batch, logs=None):
        self._call_batch("on_train_batch_end", batch, logs)

    def on_test_batch_begin(self, batch, logs=None):
        self._call_batch("on_test_batch_begin", batch, logs)

    def on_test_batch_end(self, batch, logs=None):
        self._call_batch("on_test_batch_end", batch, logs)

    def on_predict_batch_begin(self, batch, logs=None):
        self._call_batch("on_predict_batch_begin", batch, logs)

    def on_predict_batch_end(self, batch, logs=None):
        self._call_batch("on_predict_batch_end", batch, logs)

    def on_batch_begin(self, batch, logs=None):
        self.on_train_batch_begin(batch, logs=logs)

    def on_batch_end(self, batch, logs=None):
        self.on_train_batch_end(batch, logs=logs)


def _defines(callback, hook):
    """Whether ``callback`` has its own ``hook`` (overridden, or set on the instance)."""
    return hook in vars(callback) or getattr(type(callback), hook) is not getattr(Callback, hook)
