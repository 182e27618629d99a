"""`Trainer`: ``compile``, ``fit``, ``evaluate``, ``predict`` and the per-batch steps of a Model."""

import contextlib
import inspect
import warnings

import numpy as np

from companion._core._context import current_strategy
from companion._core._variable import Variable
from companion._ops._creation import range as range_op
from companion._ops._math import add_n, cast
from companion._ops._reduce import reduce_sum
from companion._ops._select import gather
from companion._staging._function import function
from companion._tape._gradient_tape import GradientTape
from companion.keras import optimizers as optimizers_module
from companion.keras.layers._layer import attribute_generation
from companion.keras.layers._tracking import map_structure
from companion.keras.metrics._reduce import Mean
from companion.keras.models import _class_weight, _data_adapter
from companion.keras.models._compile_utils import (
    CompileMetrics,
    LossesContainer,
    MetricsContainer,
    track_loss,
)
from companion.keras.models._fit_loop import FitLoop, run_evaluate, run_predict
from companion.keras.models._logs import flatten_logs, to_python
from companion.keras.models._replica_step import replica_step
from companion.keras.saving._compile_config import CompileArgs, compile_config, compile_from_config


class Trainer:
    """The training half of `Model`: Keras 2's compile/fit/evaluate/predict.

    ``train_step``, ``test_step`` and ``predict_step`` may be overridden (Keras 2's
    customization points); each loop compiles its step once with `companion.function`
    (unless ``run_eagerly``) and reuses it on every batch.
    """

    def _init_trainer(self):
        self._distribute_strategy = current_strategy()
        self.optimizer = None
        self.loss = None  # compile's loss argument, as given (Keras 3)
        self.compiled_loss = None
        self.compiled_metrics = None
        self._loss_tracker = None
        self.stop_training = False
        self.history = None
        self._run_eagerly = False
        self._jit_compile = None  # None: never set, read as "auto" resolves on TF's CPU (False)
        self.steps_per_execution = 1  # batches per step call as the callbacks see them (Keras 3)
        self._reset_step_functions()

    def _reset_step_functions(self):
        self.train_function = self.test_function = self.predict_function = None
        self._gathering_functions = {}

    # -- compile ----------------------------------------------------------------------------
    def compile(self, optimizer="rmsprop", loss=None, metrics=None, loss_weights=None,
                weighted_metrics=None, run_eagerly=None, steps_per_execution=None, jit_compile=None,
                **kwargs):
        """Configures training: the optimizer, the loss(es) and the metrics to report.

        Args:
            optimizer: a name (``'adam'``, ``'sgd'``, ...) or a keras Optimizer.
            loss: a name (``'mse'``, ``'sparse_categorical_crossentropy'``, ...), a `Loss`, a
                function ``(y_true, y_pred) -> per-example losses``, or a list/dict of those
                (one per output; dict keys are output layer names).
            metrics: names (``'accuracy'`` picks the right accuracy from the shapes),
                `Metric` instances or functions; a list, or a list/dict per output.
            loss_weights: scalars weighting each output's loss (list or dict).
            run_eagerly: run the steps as plain Python instead of compiling them.
        """
        if kwargs:
            raise TypeError(f"compile got unexpected keyword arguments: {sorted(kwargs)}.")
        with self._scope():
            self._compile(optimizer, loss, metrics, loss_weights, weighted_metrics, run_eagerly)
        # Keras 3 on TF's CPU resolves jit_compile="auto" to False; a step function runs one batch a
        # call here, while the callbacks see `steps_per_execution` batches as one (see _fit_loop)
        if jit_compile is None or jit_compile == "auto":
            jit_compile = False
        if jit_compile and run_eagerly:
            warnings.warn("If `run_eagerly` is True, then `jit_compile` cannot also be True. "
                          "Disabling `jit_compile`.", UserWarning, stacklevel=2)
            jit_compile = False
        self.jit_compile = jit_compile
        self.steps_per_execution = 1 if steps_per_execution is None else steps_per_execution
        self._compile_args.steps_per_execution = self.steps_per_execution
        self._compile_args.jit_compile = jit_compile

    @property
    def compiled(self):
        """Whether ``compile`` was called (Keras 3)."""
        return getattr(self, "_compile_args", None) is not None

    def _compile(self, optimizer, loss, metrics, loss_weights, weighted_metrics, run_eagerly):
        self._compile_args = CompileArgs(optimizer, loss, metrics, loss_weights, weighted_metrics,
                                         bool(run_eagerly))
        self.optimizer = optimizers_module.get(optimizer)
        if (self.dtype_policy.name == "mixed_float16"
                and not isinstance(self.optimizer, optimizers_module.LossScaleOptimizer)):
            self.optimizer = optimizers_module.LossScaleOptimizer(self.optimizer)  # as Keras 3's compile
        names = self._output_names()
        # a compile without a loss (or without metrics) keeps those of an earlier compile, as Keras 3's
        # does: recompiling with a new optimizer only still reports the loss and metrics
        if loss is not None:
            self.loss = loss
            self.compiled_loss = LossesContainer(loss, loss_weights, names)
        # Keras 3 tracks the loss whenever the model is compiled: a compute_loss override or add_loss terms
        # give it one without a compiled loss
        self._loss_tracker = (self.compiled_loss.loss_metric if self.compiled_loss is not None
                              else Mean(name="loss"))
        if metrics is not None or weighted_metrics is not None or self.compiled_metrics is None:
            self.compiled_metrics = MetricsContainer(metrics, names, weighted_metrics)
        self._weighted_metrics = weighted_metrics
        self._run_eagerly = bool(run_eagerly)
        self._reset_step_functions()

    @property
    def distribute_strategy(self):
        """The strategy whose scope the model was created in (the default strategy otherwise)."""
        if self._distribute_strategy is not None:
            return self._distribute_strategy
        # deferred: companion.distribute (multiprocessing) loads on first use, not on `import companion.keras`
        from companion.distribute import get_strategy

        return get_strategy()

    @property
    def run_eagerly(self):
        return self._run_eagerly

    @property
    def jit_compile(self):
        """What ``compile`` (or an assignment) set: ``"auto"`` at compile and an unset value read as
        Keras 3 on TF's CPU resolves them (False); an assigned value is kept as given."""
        value = getattr(self, "_jit_compile", None)
        return False if value is None else value

    @jit_compile.setter
    def jit_compile(self, value):
        self._jit_compile = value

    def get_compile_config(self):
        """The arguments ``compile`` was given, serialized (Keras 3's keys); ``{}`` before ``compile``."""
        return compile_config(self) or {}

    def compile_from_config(self, config):
        """Compiles the model as `get_compile_config`'s dict says (``{}`` or None: does nothing)."""
        if config:
            compile_from_config(self, config)

    @run_eagerly.setter
    def run_eagerly(self, value):
        self._run_eagerly = bool(value)
        self._reset_step_functions()

    @property
    def metrics(self):
        """Keras 3's list: once compiled, the ``loss`` tracker, ``compile_metrics`` (a `CompileMetrics`
        holding every compiled metric) when ``metrics`` or ``weighted_metrics`` were given and each
        output's loss tracker; then the metrics held in the model's attributes, then those of each
        layer under it that is not a model itself (its ``metrics``, so a metric two levels down is
        listed twice, as Keras 3 lists it)."""
        tracked = self._tracked_metrics()
        if self._loss_tracker is None:
            return tracked
        container = self._compile_metrics()
        outputs = self.compiled_loss.metrics[1:] if self.compiled_loss is not None else []
        return [self._loss_tracker] + ([container] if container is not None else []) + outputs + tracked

    def _tracked_metrics(self):
        """The metrics of `metrics` held in attributes (the model's, its layers'), walked again only
        after a layer attribute changed: the steps read `metrics` per batch."""
        generation = attribute_generation()
        cached = self.__dict__.get("_metrics_cache")
        if cached is None or cached[0] != generation:
            tracked = list(self._own_metrics()) + [m for layer in self._flat_layers()[1:]
                                                   if not isinstance(layer, Trainer) for m in layer.metrics]
            cached = self.__dict__["_metrics_cache"] = (attribute_generation(), tracked)
        return list(cached[1])

    def _compile_metrics(self):
        args = getattr(self, "_compile_args", None)
        if self.compiled_metrics is None or args is None or not self.compiled_metrics.given:
            return None
        if getattr(self.compiled_metrics, "_as_metric", None) is None:
            self.compiled_metrics._as_metric = CompileMetrics(self.compiled_metrics, self._per_output)
        return self.compiled_metrics._as_metric

    def _flat_metrics(self):
        """Every metric object one by one: the entries of `metrics`, a `CompileMetrics` opened up."""
        return [m for entry in self.metrics for m in (entry.metrics if isinstance(entry, CompileMetrics)
                                                       else [entry])]

    def get_metrics_result(self):
        """Every metric's current value by name (``compile_metrics`` opened up), as its ``result()``
        gives it (tensors, as Keras 3.15 returns them; the logs of fit and evaluate are made Python
        numbers by the callbacks)."""
        results = {}
        for metric in self.metrics:
            value = metric.result()
            results.update(value if isinstance(value, dict) else {metric.name: value})
        return results

    @property
    def metrics_names(self):
        """Keras 3's names: ``'loss'`` when compiled, then ``'compile_metrics'`` (the container of
        every compiled metric) when ``metrics`` or ``weighted_metrics`` were given, then each
        output's ``{output}_loss``; the names of `metrics` when a subclass overrides it. The logs
        still name each metric."""
        return [m.name for m in self.metrics]

    @property
    def _log_names(self):
        """The order of the values `evaluate` returns as a list: the loss, then each metric."""
        return [m.name for m in self._flat_metrics()]

    def _list_order(self):
        """The names Keras 3 lists first when it turns logs into a list (``_flatten_metrics_in_order``):
        each of `metrics`, a `CompileMetrics` by its metrics' own names (unprefixed for several
        outputs, so their logs ``{output}_{name}`` come after, sorted with the other keys)."""
        names = []
        for entry in self.metrics:
            names += entry.keras_names() if isinstance(entry, CompileMetrics) else [entry.name]
        return names

    def reset_metrics(self):
        for metric in self._flat_metrics():
            metric.reset_state()

    # -- the steps ------------------------------------------------------------------------------
    def train_step(self, data):
        """One optimizer step on a batch; returns the metrics' results (Keras 2's train_step)."""
        x, y, sample_weight = _data_adapter.unpack_x_y_sample_weight(data)
        with GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self._compute_loss(x, y, y_pred, sample_weight, training=True)
            self._track_loss(loss, y_pred)
            loss = self.optimizer.scale_loss(loss)
        self.optimizer.minimize(loss, self.trainable_variables, tape=tape)
        return self.compute_metrics(x, y, y_pred, sample_weight)

    def test_step(self, data):
        """Updates the loss and metrics on a batch without training."""
        x, y, sample_weight = _data_adapter.unpack_x_y_sample_weight(data)
        y_pred = self(x, training=False)
        self._track_loss(self._compute_loss(x, y, y_pred, sample_weight, training=False), y_pred)
        return self.compute_metrics(x, y, y_pred, sample_weight)

    def predict_step(self, data):
        x, _, _ = _data_adapter.unpack_x_y_sample_weight(data)
        return self(x, training=False)

    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
        """The compiled loss of the batch plus the model's ``losses`` (regularization and
        ``add_loss`` terms): Keras 3's ``compute_loss``. Without a compiled loss, the ``losses``
        alone (an error when there are none)."""
        if self.compiled_loss is None:
            extra = self.losses
            if not extra:
                raise ValueError(f"Model {self.name!r} has no loss to compute: compile() got no `loss` "
                                 "and the model has no add_loss/regularization terms. Pass a `loss` "
                                 "argument to compile(), or override compute_loss or train_step.")
            terms = [reduce_sum(cast(term, "float32") if not term.dtype.is_floating else term)
                     for term in extra]
            return terms[0] if len(terms) == 1 else add_n([cast(t, terms[0].dtype) for t in terms])
        if y is None:
            raise ValueError(f"None values not supported.\nModel {self.name!r} needs labels to compute its "
                             "loss: pass y to fit/evaluate, or a dataset of (x, y) tuples.")
        return self.compiled_loss(self._per_output(y, "y"), self._per_output(y_pred, "output"),
                                  sample_weight, regularization_losses=self.losses)

    def _compute_loss(self, x, y, y_pred, sample_weight, training):
        """`compute_loss`, passing ``training`` only to an override that takes it (Keras 3.3 added it)."""
        compute = self.compute_loss
        try:
            takes_training = "training" in inspect.signature(compute).parameters
        except (TypeError, ValueError):
            takes_training = False
        if takes_training:
            return compute(x, y, y_pred, sample_weight, training=training)
        return compute(x, y, y_pred, sample_weight)

    def _track_loss(self, loss, y_pred):
        """The default steps' update of the ``loss`` tracker (a custom step updates it itself)."""
        if self._loss_tracker is not None and loss is not None:
            track_loss(self._loss_tracker, loss, _leaves(y_pred))

    def compute_metrics(self, x, y, y_pred, sample_weight):
        if y is not None:
            self.compiled_metrics.update_state(self._per_output(y, "y"),
                                               self._per_output(y_pred, "output"), sample_weight)
        return {m.name: m.result() for m in self._flat_metrics()}

    def make_train_function(self):
        if self.train_function is None:
            self.train_function = self._compiled(self._step("train_step"))
        return self.train_function

    def make_test_function(self):
        if self.test_function is None:
            self.test_function = self._compiled(self._step("test_step"))
        return self.test_function

    def make_predict_function(self):
        if self.predict_function is None:
            self.predict_function = self._compiled(self._step("predict_step"))
        return self.predict_function

    def _step(self, step_name):
        """The step on a global batch: the method itself, or under a strategy's scope the method
        run on every replica's share by ``strategy.run`` (Keras's distributed fit)."""
        step = getattr(self, step_name)
        strategy = self._distribute_strategy
        if strategy is None:
            return step
        return replica_step(strategy, step, predict=step_name == "predict_step")

    def _gathering(self, step_name):
        """``step_name``'s step for array inputs, and its cursor Variable.

        The compiled step takes all the arrays, the epoch's row order and a batch size; it
        reads the batch's rows at the cursor and advances it, so a batch needs no transfer
        from the host (the order is sent once per epoch).
        """
        cursor = self.__dict__.get("_batch_cursor")
        if cursor is None:
            cursor = self.__dict__["_batch_cursor"] = Variable(
                lambda: np.zeros((), np.int64), trainable=False, name="batch_cursor")
        found = self._gathering_functions.get(step_name)
        if found is None:
            step = self._step(step_name)

            def gathered(arrays, order, size):
                rows = gather(order, cursor + range_op(size, dtype="int64"))
                cursor.assign_add(size)
                return step(map_structure(lambda a: gather(a, rows), arrays))

            found = self._gathering_functions[step_name] = self._compiled(gathered)
        return found, cursor

    def _compiled(self, step):
        # Keras 3 compiles its steps without AutoGraph (`do_not_convert`): an error keeps its own form
        compiled = step if self._run_eagerly else function(step, autograph=False)

        def run(*data):
            return self._in_metric_order(compiled(*data))

        return run

    def _in_metric_order(self, logs):
        """Compiled steps return dicts with sorted keys; Keras lists the loss first."""
        if not isinstance(logs, dict):
            return logs
        names = self._log_names
        if list(logs) == names:
            return logs
        ordered = {k: logs[k] for k in names if k in logs}
        ordered.update((k, v) for k, v in logs.items() if k not in ordered)
        return ordered

    # -- loops ------------------------------------------------------------------------------------
    def fit(self, x=None, y=None, batch_size=None, epochs=1, verbose="auto", callbacks=None,
            validation_split=0.0, validation_data=None, shuffle=True, class_weight=None,
            sample_weight=None, initial_epoch=0, steps_per_epoch=None, validation_steps=None,
            validation_batch_size=None, validation_freq=1, **kwargs):
        """Trains for ``epochs`` epochs and returns a `History` (``.history``, ``.params``).

        ``verbose``: 0 silent, 1 a progress bar per epoch updated in place, 2 one line
        per epoch (``'auto'`` is 1). ``validation_split`` holds out the last fraction of
        array inputs; ``validation_data`` is ``(x, y)``, ``(x, y, sample_weight)`` or a
        Dataset. Metrics of the validation data are logged with a ``val_`` prefix.
        ``sample_weight`` weighs each example's loss (and the ``weighted_metrics``);
        ``class_weight`` (``{class: weight}``, single-output models) gives each training
        example the weight of its label's class, as Keras 3 does.
        """
        self._assert_compiled("fit")
        _reject(kwargs, "fit")
        with self._scope():
            loop = FitLoop(self, x, y, batch_size=batch_size, epochs=epochs, verbose=_verbosity(verbose),
                           callbacks=callbacks, validation_split=validation_split,
                           validation_data=validation_data, shuffle=shuffle, sample_weight=sample_weight,
                           class_weight=class_weight, initial_epoch=initial_epoch,
                           steps_per_epoch=steps_per_epoch, validation_steps=validation_steps,
                           validation_batch_size=validation_batch_size, validation_freq=validation_freq)
            return loop.run()

    def evaluate(self, x=None, y=None, batch_size=None, verbose="auto", sample_weight=None, steps=None,
                 callbacks=None, return_dict=False, **kwargs):
        """The loss and metrics over the data: a scalar (loss only), a list, or a dict."""
        self._assert_compiled("evaluate")
        _reject(kwargs, "evaluate")
        with self._scope():
            logs = run_evaluate(self, x, y, batch_size, _verbosity(verbose), sample_weight, steps,
                                callbacks)
        return logs if return_dict else flatten_logs(logs, self._list_order())

    def predict(self, x, batch_size=None, verbose="auto", steps=None, callbacks=None, **kwargs):
        """The model's outputs on ``x`` as NumPy arrays (batches concatenated)."""
        _reject(kwargs, "predict")
        with self._scope():
            return run_predict(self, x, batch_size, _verbosity(verbose), steps, callbacks)

    def train_on_batch(self, x, y=None, sample_weight=None, class_weight=None, return_dict=False):
        """One training step on one batch; returns the loss and metrics of that batch (the metrics
        are reset first, as in Keras 3)."""
        self._assert_compiled("train_on_batch")
        x, y, sample_weight = _class_weight.apply(x, y, sample_weight, class_weight, False, "train_on_batch")
        train_function = self.make_train_function()
        self.reset_metrics()
        logs = to_python(train_function(_batch(x, y, sample_weight)))
        return logs if return_dict else flatten_logs(logs, self._list_order())

    def test_on_batch(self, x, y=None, sample_weight=None, return_dict=False):
        """The loss and metrics of one batch, without training (the metrics are reset first)."""
        self._assert_compiled("test_on_batch")
        test_function = self.make_test_function()
        self.reset_metrics()
        logs = to_python(test_function(_batch(x, y, sample_weight)))
        return logs if return_dict else flatten_logs(logs, self._list_order())

    def predict_on_batch(self, x):
        outputs = self.make_predict_function()((_data_adapter.as_batch_input(x),))
        return map_structure(lambda t: np.asarray(t), outputs)

    # -- helpers ----------------------------------------------------------------------------------
    def _scope(self):
        """The scope of the model's strategy (data-parallel steps), or nothing to enter."""
        strategy = self._distribute_strategy
        return strategy.scope() if strategy is not None else contextlib.nullcontext()

    def _assert_compiled(self, caller):
        if self.optimizer is None:
            raise ValueError("You must call `compile()` before using the model.\n"  # Keras 3's class and line
                             f"Compile model {self.name!r} before calling {caller}(): call "
                             "model.compile(optimizer=..., loss=...) first.")

    def _build_step_state(self, x, y, train):
        """Keras 3's build before a step first traces: the optimizer's slots for the trainable
        weights (``train``) and the compiled metrics resolved from the labels' shapes (arrays, or a
        dataset's element spec) and the outputs' (a model with known outputs). The step's first
        trace then creates no Variables, so TF's rule does not trace it a second time."""
        strategy = self._distribute_strategy
        with strategy.scope() if strategy is not None else contextlib.nullcontext():
            if train and self.optimizer is not None and self.built:
                self.optimizer.build(self.trainable_variables)
            outputs = self.outputs
            if self.compiled_metrics is None or self.compiled_metrics.built or outputs is None:
                return
            labels = _label_shapes(x, y)
            if labels is None:
                return
            labels = self._per_output(labels, "y")
            if len(labels) == len(outputs) and all(isinstance(label, _Shaped) for label in labels):
                self.compiled_metrics.build(labels, outputs)

    def _per_output(self, values, what):
        names = self._output_names()
        if isinstance(values, dict):
            missing = [n for n in names if n not in values]
            if missing:
                raise ValueError(f"Model {self.name!r}: the {what} dict lacks entries for outputs "
                                 f"{missing}. Output names: {names}; keys received: {list(values)}.")
            return [values[n] for n in names]
        if len(names) == 1:
            return [values[0] if isinstance(values, (list, tuple)) and len(values) == 1 else values]
        if not isinstance(values, (list, tuple)) or len(values) != len(names):
            raise ValueError(f"Model {self.name!r} has {len(names)} outputs {names}, so {what} must be "
                             f"a list of {len(names)} or a dict keyed by output name. Received: "
                             f"{type(values).__name__}.")
        return list(values)


class _Shaped:
    """A label known by its shape alone (what resolving a metric such as ``'accuracy'`` reads)."""

    def __init__(self, shape):
        self.shape = shape


def _label_shapes(x, y):
    """The labels' structure with a `_Shaped` per array, from arrays or a dataset of
    ``(x, y, ...)`` tuples; None when unknown (the metrics are then resolved while tracing)."""
    if _data_adapter.is_dataset(x):
        spec = x.element_spec
        if not isinstance(spec, tuple) or len(spec) < 2:
            return None
        y = spec[1]
    elif y is None:
        return None

    def shape_of(leaf):
        shape = getattr(leaf, "shape", None)
        if shape is None or getattr(shape, "rank", 0) is None:
            return None
        return _Shaped(tuple(shape))

    if isinstance(y, dict):
        return {k: shape_of(v) for k, v in y.items()}
    if isinstance(y, (list, tuple)):
        return [shape_of(v) for v in y]
    return shape_of(y)


def _batch(x, y, sample_weight):
    x = _data_adapter.as_batch_input(x)
    y = None if y is None else _data_adapter.as_batch_input(y)
    w = None if sample_weight is None else _data_adapter.as_batch_input(sample_weight)
    return tuple(v for v in (x, y, w) if v is not None)


def _leaves(structure):
    found = []
    map_structure(found.append, structure)
    return found


def _verbosity(verbose):
    if verbose == "auto":
        return 1
    if verbose not in (0, 1, 2):
        raise ValueError(f"`verbose` must be 0, 1, 2 or 'auto'. Received: verbose={verbose!r}")
    return verbose


def _reject(kwargs, caller):
    if kwargs:
        raise TypeError(f"{caller} got unexpected keyword arguments: {sorted(kwargs)}.")
