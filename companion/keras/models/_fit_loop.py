"""The epoch and batch loops of ``fit``, ``evaluate`` and ``predict``, with their callbacks."""

import itertools
import types
import warnings

import numpy as np

from companion.keras.callbacks import CallbackList
from companion.keras.callbacks._backup_and_restore import resume_point
from companion.keras.layers._tracking import map_structure
from companion.keras.models import _class_weight
from companion.keras.models._data_adapter import DataHandler, is_dataset, train_validation_split
from companion.keras.models._logs import convert, to_python
from companion.keras.utils._py_dataset import as_dataset, start_pass


class FitLoop:
    """One call of ``Model.fit``: it owns the call's data, callbacks, compiled step and epoch.

    Built from ``fit``'s arguments (validation split and class weights applied, the data
    batched, the callbacks and train step made); `run` trains epoch by epoch with the
    callbacks around each epoch and batch, and returns the `History`.
    """

    def __init__(self, model, x, y=None, *, batch_size=None, epochs=1, verbose=1, callbacks=None,
                 validation_split=0.0, validation_data=None, shuffle=True, sample_weight=None,
                 class_weight=None, initial_epoch=0, steps_per_epoch=None, validation_steps=None,
                 validation_batch_size=None, validation_freq=1):
        _warn_shuffle_ignored(x, shuffle)
        x, validation_data = as_dataset(x, shuffle), as_dataset(validation_data)
        start_pass(x)
        if validation_split and validation_data is None:
            if is_dataset(x):
                raise ValueError("fit: `validation_split` is only supported for arrays, not for a Dataset. "
                                 "Pass validation_data=<a Dataset> instead.")
            (x, y, sample_weight), validation_data = train_validation_split((x, y, sample_weight),
                                                                            validation_split)
        x, y, sample_weight = _class_weight.apply(x, y, sample_weight, class_weight, is_dataset(x))
        self.model = model
        self.epochs = epochs
        self.epoch = initial_epoch  # the epoch being (or next to be) trained
        self.data = DataHandler(x, y, sample_weight, batch_size, steps_per_epoch, shuffle)
        self.callbacks = _callbacks(model, callbacks, verbose, epochs=epochs, steps=self.data.steps)
        _build_from_spec(model, x, batch_size)
        model._build_step_state(x, y, train=True)
        self.train_function = self.data.runner(model.make_train_function(),
                                               lambda: model._gathering("train_step"),
                                               model._distribute_strategy)
        self.validation = validation_data
        self.validation_batch_size = validation_batch_size or batch_size
        self.validation_steps = validation_steps
        self.validation_freq = validation_freq
        self.logs = {}

    def run(self):
        """Trains the remaining epochs; returns ``model.history``."""
        model, callbacks = self.model, self.callbacks
        model.stop_training = False
        callbacks.on_train_begin()
        self.epoch = _resume(callbacks, self.data, self.epoch)
        while self.epoch < self.epochs:
            self.logs = self.run_epoch()
            callbacks.on_epoch_end(self.epoch, self.logs)
            self.epoch += 1
            if model.stop_training:
                break
        finalize = getattr(model.optimizer, "finalize_variable_values", None)
        if finalize is not None and self.epochs > 0:  # e.g. use_ema: the averages become the weights
            finalize(model.trainable_weights)
        callbacks.on_train_end(self.logs)
        return model.history

    def run_epoch(self):
        """One epoch: the metrics reset, every batch trained, then validation; the epoch's logs."""
        self.model.reset_metrics()
        self.callbacks.on_epoch_begin(self.epoch)
        logs = convert(self._train_batches())  # opened and sorted by the callbacks, as Keras 3 does
        if self.validation is not None and _should_validate(self.epoch, self.validation_freq):
            val_logs = _validate(self.model, self.validation, self.validation_batch_size,
                                 self.validation_steps, self.callbacks)
            logs.update({"val_" + k: v for k, v in val_logs.items()})
        return logs

    def _train_batches(self):
        callbacks, batch_logs = self.callbacks, None
        for begin, end, batches in _executions(self.model, self.data.epoch()):
            callbacks.on_train_batch_begin(begin)
            for _, batch in batches:
                batch_logs = self.train_function(batch)
            callbacks.on_train_batch_end(end, batch_logs)
            if self.model.stop_training:
                break
        if batch_logs is None and self.data.continues:
            # the data ran out just as the last epoch ended: Keras 3 logs the (reset) metrics
            return self.model.get_metrics_result()
        if batch_logs is None:
            raise ValueError("fit: the training data gave no batches in this epoch. Check that the "
                             "dataset is not empty (or exhausted: add .repeat()).")
        return batch_logs


def run_evaluate(model, x, y, batch_size, verbose, sample_weight, steps, callbacks,
                 callback_list=None):
    """``Model.evaluate``'s loop; returns the logs as Python floats."""
    x = as_dataset(x)
    start_pass(x)
    data = DataHandler(x, y, sample_weight, batch_size, steps, caller="evaluate")
    if callback_list is None:
        callback_list = _callbacks(model, callbacks, verbose, epochs=1, steps=data.steps)
    model._build_step_state(x, y, train=False)
    test_function = data.runner(model.make_test_function(), lambda: model._gathering("test_step"),
                                model._distribute_strategy)
    model.reset_metrics()
    callback_list.on_test_begin()
    batch_logs = None
    for begin, end, batches in _executions(model, data.epoch()):
        callback_list.on_test_batch_begin(begin)
        for _, batch in batches:
            batch_logs = test_function(batch)
        callback_list.on_test_batch_end(end, batch_logs)
    if batch_logs is None:
        raise ValueError("evaluate: the data gave no batches. Check that it is not empty.")
    logs = to_python(batch_logs)
    callback_list.on_test_end(logs)
    return logs


def run_predict(model, x, batch_size, verbose, steps, callbacks):
    """``Model.predict``'s loop; returns NumPy outputs concatenated over batches."""
    x = as_dataset(x)
    data = DataHandler(x, None, None, batch_size, steps, caller="predict")
    callback_list = _callbacks(model, callbacks, verbose, epochs=1, steps=data.steps)
    predict_function = data.runner(model.make_predict_function(),
                                   lambda: model._gathering("predict_step"), model._distribute_strategy)
    callback_list.on_predict_begin()
    outputs = []
    for begin, end, batches in _executions(model, data.epoch()):
        callback_list.on_predict_batch_begin(begin)
        executed = [map_structure(np.asarray, predict_function(batch)) for _, batch in batches]
        outputs += executed
        batch_outputs = executed[0] if len(executed) == 1 else _concatenate(executed)
        callback_list.on_predict_batch_end(end, {"outputs": batch_outputs})
    callback_list.on_predict_end()
    if not outputs:
        raise ValueError("predict: the data gave no batches. Check that it is not empty.")
    return _concatenate(outputs)


def _executions(model, steps):
    """The batches of ``steps`` (``(step, batch)`` pairs) as Keras 3 runs them with the model's
    ``steps_per_execution`` (k): ``(begin, end, batches)`` per k batches, the callbacks' batch
    hooks seeing ``begin`` and ``end = begin + k - 1`` only (``end`` past the last step for a
    shorter last run, as Keras numbers it). ``batches`` draws from ``steps`` as it is read.
    """
    per_execution = getattr(model, "steps_per_execution", 1)
    steps = iter(steps)
    for begin, batch in steps:
        rest = itertools.islice(steps, per_execution - 1) if per_execution > 1 else ()
        yield begin, begin + per_execution - 1, itertools.chain(((begin, batch),), rest)


def _validate(model, validation_data, batch_size, steps, callback_list):
    if is_dataset(validation_data):
        x, y, w, batch_size = validation_data, None, None, None
    elif isinstance(validation_data, (list, tuple)) and len(validation_data) in (2, 3):
        x, y = validation_data[0], validation_data[1]
        w = validation_data[2] if len(validation_data) == 3 else None
    else:
        raise ValueError("fit: `validation_data` must be (x, y), (x, y, sample_weight) or a Dataset. "
                         f"Received: {type(validation_data).__name__}")
    return run_evaluate(model, x, y, batch_size, 0, w, steps, None, callback_list=callback_list)


def _resume(callback_list, data, initial_epoch):
    """The first epoch to train: ``initial_epoch``, or where a `BackupAndRestore` backup left off
    (the backup wins, as in Keras).

    The input of the epochs (and batches) already done is replayed without training, so the
    resumed epochs get the shuffle orders and batches of an uninterrupted run.
    """
    found = resume_point(callback_list)
    if found is None:
        return initial_epoch
    epoch, batch = found
    if data.steps is not None and batch >= data.steps:  # backed up after the epoch's last batch
        epoch, batch = epoch + 1, 0
    data.skip(max(0, epoch - initial_epoch), batch)
    return epoch


def _should_validate(epoch, frequency):
    if isinstance(frequency, int):
        return (epoch + 1) % frequency == 0
    return epoch + 1 in frequency


def _callbacks(model, callbacks, verbose, epochs, steps):
    if callbacks is not None and not isinstance(callbacks, CallbackList):
        callbacks = list(callbacks)
    if isinstance(callbacks, CallbackList):
        return callbacks
    return CallbackList(callbacks, add_history=True, add_progbar=verbose != 0, model=model,
                        verbose=verbose, epochs=epochs, steps=steps)


def _concatenate(batches):
    first = batches[0]
    if isinstance(first, (list, tuple)):
        return type(first)(_concatenate([b[i] for b in batches]) for i in range(len(first)))
    if isinstance(first, dict):
        return {k: _concatenate([b[k] for b in batches]) for k in first}
    return np.concatenate(batches, axis=0) if first.ndim else np.stack(batches)


def _build_from_spec(model, x, batch_size):
    """Keras 3 builds an unbuilt Sequential before fit's first step from the data's spec, not its
    first batch: arrays give a batch axis of ``batch_size`` when it divides the sample count (else
    None), a Dataset its element spec's. Its shapes (summary, ``input_shape``) show that axis."""
    if model.built or not getattr(model, "_stack", None) or model._distribute_strategy is not None:
        return
    if is_dataset(x):
        spec = x.element_spec
        spec = spec[0] if isinstance(spec, tuple) else spec
        shape = getattr(spec, "shape", None)
        if shape is None or shape.rank is None:
            return
        model.build(tuple(shape.as_list()))
    elif isinstance(x, np.ndarray) or hasattr(x, "numpy"):
        dims = tuple(np.shape(x))
        if not dims:
            return
        batch = batch_size or 32
        model.build((batch if dims[0] % batch == 0 else None,) + dims[1:])


def _warn_shuffle_ignored(x, shuffle):
    """Keras 3's UserWarning when ``fit``'s ``shuffle`` (True by default) cannot apply to ``x``."""
    if not shuffle:
        return
    if is_dataset(x):
        what = ("a tf.data.Dataset. The Dataset is expected to already be shuffled (via "
                "`.shuffle(buffer_size)`).")
    elif isinstance(x, types.GeneratorType):
        what = "a generator. The generator is expected to yield already-shuffled data."
    else:
        return
    warnings.warn(f"`shuffle=True` was passed, but will be ignored since the data `x` was provided as {what}",
                  UserWarning, stacklevel=4)  # at the caller of fit
