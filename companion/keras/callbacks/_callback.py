"""`Callback`: the base class of Keras callbacks, every hook a no-op."""


class Callback:
    """Base class for callbacks, ``tf.keras.callbacks.Callback``: override the hooks you need.

    ``fit``/``evaluate``/``predict`` call the hooks through a `CallbackList` after
    `set_model` and `set_params`. ``logs`` is a dict of Python numbers (for example
    ``{"loss": 0.3, "accuracy": 0.9}``; epoch-end logs add ``val_``-prefixed entries).
    As in Keras 2, the default ``on_train_batch_begin``/``on_train_batch_end`` call
    ``on_batch_begin``/``on_batch_end``, so overriding those sees training batches.

    Attributes:
        model: the model being trained (set by `set_model`).
        params: the training parameters (``verbose``, ``epochs``, ``steps``).
        validation_data: None (kept for Keras compatibility).

    Example:
        >>> import companion as tf
        >>> class Printer(tf.keras.callbacks.Callback):
        ...     def on_epoch_end(self, epoch, logs=None):
        ...         print(epoch, logs)
        >>> Printer().on_epoch_end(0, {"loss": 0.5})
        0 {'loss': 0.5}
    """

    def __init__(self):
        self.model = None
        self.params = {}
        self.validation_data = None

    def set_model(self, model):
        """Sets the model the hooks act on (``self.model``)."""
        self.model = model

    def set_params(self, params):
        """Sets the training parameters (``self.params``)."""
        self.params = params

    # -- whole runs -------------------------------------------------------------------------
    def on_train_begin(self, logs=None):
        """Called at the start of ``fit``."""

    def on_train_end(self, logs=None):
        """Called at the end of ``fit`` with the last epoch's logs."""

    def on_test_begin(self, logs=None):
        """Called at the start of ``evaluate`` (and of validation inside ``fit``)."""

    def on_test_end(self, logs=None):
        """Called at the end of ``evaluate`` with its logs."""

    def on_predict_begin(self, logs=None):
        """Called at the start of ``predict``."""

    def on_predict_end(self, logs=None):
        """Called at the end of ``predict``."""

    # -- epochs -----------------------------------------------------------------------------
    def on_epoch_begin(self, epoch, logs=None):
        """Called at the start of epoch ``epoch`` (0-based) of ``fit``."""

    def on_epoch_end(self, epoch, logs=None):
        """Called at the end of an epoch with its training and ``val_`` logs."""

    # -- batches ----------------------------------------------------------------------------
    def on_train_batch_begin(self, batch, logs=None):
        """Called before training batch ``batch`` (0-based); calls `on_batch_begin`."""
        self.on_batch_begin(batch, logs=logs)  # by keyword, as Keras 3

    def on_train_batch_end(self, batch, logs=None):
        """Called after a training batch with the running logs; calls `on_batch_end`."""
        self.on_batch_end(batch, logs=logs)

    def on_test_batch_begin(self, batch, logs=None):
        """Called before an ``evaluate`` batch."""

    def on_test_batch_end(self, batch, logs=None):
        """Called after an ``evaluate`` batch with the running logs."""

    def on_predict_batch_begin(self, batch, logs=None):
        """Called before a ``predict`` batch."""

    def on_predict_batch_end(self, batch, logs=None):
        """Called after a ``predict`` batch (``logs["outputs"]`` holds its outputs)."""

    def on_batch_begin(self, batch, logs=None):
        """The Keras 1 name of `on_train_batch_begin` (called for training batches)."""

    def on_batch_end(self, batch, logs=None):
        """The Keras 1 name of `on_train_batch_end` (called for training batches)."""
