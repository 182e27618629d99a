"""What ``compile`` turns its ``loss``, ``loss_weights`` and ``metrics`` arguments into."""

from companion._core._context import current_replica
from companion._core._convert import constant
from companion._ops._math import add_n, cast
from companion._ops._reduce import reduce_sum
from companion.keras import losses as losses_module
from companion.keras import metrics as metrics_module
from companion.keras.losses._loss import Loss, LossFunctionWrapper
from companion.keras.metrics._mean_metric_wrapper import MeanMetricWrapper
from companion.keras.metrics._metric import Metric
from companion.keras.metrics._reduce import Mean

_ACCURACY = ("accuracy", "acc")
_CROSSENTROPY = ("crossentropy", "ce")


def per_output(value, output_names, what, allow_broadcast=True, list_per_output=False):
    """``value`` as a list with one entry per output (from a single value, a list or a dict).

    With ``list_per_output`` (``loss``, ``loss_weights``) a list is one entry per output even
    for a single output (Keras 3 takes ``loss_weights=[2.0]`` there); a metrics list is not.
    """
    if isinstance(value, dict):
        unknown = [k for k in value if k not in output_names]
        if unknown:
            raise ValueError(f"compile: `{what}` has keys {unknown} that are not output names. The "
                             f"model's outputs are {output_names}. Received: {what}={value!r}")
        return [value.get(name) for name in output_names]
    if isinstance(value, (list, tuple)) and (len(output_names) > 1 or list_per_output):
        if len(value) != len(output_names):
            raise ValueError(f"compile: `{what}` has {len(value)} entries but the model has "
                             f"{len(output_names)} outputs {output_names}. Received: {what}={value!r}")
        return list(value)
    if not allow_broadcast and len(output_names) > 1 and value is not None:
        return [value] + [None] * (len(output_names) - 1)
    return [value] * len(output_names)


class LossesContainer:
    """The total loss: ``sum(weight_i * loss_i(y_true_i, y_pred_i)) + sum(model.losses)``.

    Keeps, for several outputs, one ``{output}_loss`` Mean per output (updated on each call, as
    Keras 3's ``CompileLoss``); the ``loss`` Mean (``loss_metric``) is the model's loss tracker,
    which the default train/test steps update with `track_loss` (a custom step updates it itself).
    """

    def __init__(self, loss, loss_weights, output_names):
        self._user_loss = loss
        self.output_names = list(output_names)
        self.losses = [_as_loss(fn) for fn in per_output(loss, self.output_names, "loss",
                                                         list_per_output=True)]
        weights = per_output(loss_weights, self.output_names, "loss_weights", list_per_output=True)
        self.weights = [1.0 if w is None else float(w) for w in weights]
        self.loss_metric = Mean(name="loss")
        several = len(self.output_names) > 1
        self.output_metrics = [Mean(name=f"{name}_loss") if several and fn is not None else None
                               for name, fn in zip(self.output_names, self.losses)]

    @property
    def metrics(self):
        return [self.loss_metric] + [m for m in self.output_metrics if m is not None]

    def __call__(self, y_true, y_pred, sample_weight=None, regularization_losses=()):
        share = _ReplicaShare.of(y_pred)
        terms, batch = [], None
        for index, (fn, weight) in enumerate(zip(self.losses, self.weights)):
            if fn is None:
                continue
            value = fn(y_true[index], y_pred[index], sample_weight=share.weights(_pick(sample_weight, index)))
            value = share.scaled(value, fn)
            batch = share.metric_weight(y_pred[index]) if batch is None else batch
            if self.output_metrics[index] is not None:
                self.output_metrics[index].update_state(share.for_metric(value), sample_weight=batch)
            terms.append(value * weight if weight != 1.0 else value)
        if not terms:
            raise ValueError("compile: no loss applies to any output. Pass `loss` for at least one "
                             f"of the outputs {self.output_names}.")
        terms += [share.regularization(cast(r, terms[0].dtype)) for r in regularization_losses]
        return terms[0] if len(terms) == 1 else add_n(terms)


def track_loss(tracker, total, y_pred):
    """Updates the ``loss`` Mean ``tracker`` with a batch's total loss weighted by its size (Keras 3's
    train/test step), as the whole global batch's loss inside a replica of `Strategy.run`."""
    first = next((p for p in y_pred if getattr(p, "shape", None) is not None), None)
    share = _ReplicaShare.of(y_pred)
    batch = share.metric_weight(first) if first is not None else None
    tracker.update_state(share.for_metric(total), sample_weight=batch)


class _ReplicaShare:
    """One replica's part of the loss inside `Strategy.run` (``fit`` under a strategy's scope),
    as Keras scales it for distribution: summed over the replicas (the optimizer's gradient
    ``all_reduce``) the parts give the loss of the whole global batch.

    A ``sum_over_batch_size`` loss is the replica's weighted sum over its real examples divided
    by the global batch's real examples (padding of an uneven final batch weighs nothing);
    ``sum`` losses add up as they are; regularization counts once (divided by the replicas).
    The loss trackers get ``part * replicas`` weighted by ``global examples / replicas``, so
    their metric (summed over the replicas on update) is the global batch's loss weighted by
    its size, as on one device. Outside a replica (or with one) every method is the identity.
    """

    def __init__(self, replica=None, mask=None, local=None):
        self.replica, self.mask, self.local = replica, mask, local
        if replica is None:
            return
        self.replicas = replica.num_replicas_in_sync
        if mask is None:  # Python numbers: constants in the step, no kernels compiled while tracing
            self.real = float(local)
            self.global_real = float(local * self.replicas)
        else:
            self.real = reduce_sum(mask)
            self.global_real = replica.all_reduce("SUM", self.real)

    @classmethod
    def of(cls, y_pred):
        replica = current_replica()
        if replica is None or replica.num_replicas_in_sync == 1:
            return cls()
        first = y_pred[0] if y_pred else None
        if first is None or not first.shape.rank or first.shape[0] is None:
            return cls()
        local = int(first.shape[0])
        mask = replica.example_mask
        if mask is not None and int(mask.shape[0]) != local:
            mask = None
        return cls(replica, None if mask is None else cast(mask, "float32"), local)

    def weights(self, sample_weight):
        if self.mask is None:
            return sample_weight
        if sample_weight is None:
            return self.mask
        return sample_weight * cast(self.mask, getattr(sample_weight, "dtype", "float32"))

    def scaled(self, value, fn):
        if self.replica is None or value.shape.rank:
            return value
        if getattr(fn, "reduction", "sum_over_batch_size") == "sum":
            return value
        return value * _as(self.local / self.global_real, value.dtype)

    def regularization(self, value):
        return value if self.replica is None else value / _as(self.replicas, value.dtype)

    def metric_weight(self, y_pred):
        if self.replica is None:
            return _batch_size(y_pred)
        return _as(self.global_real / self.replicas, y_pred.dtype)

    def for_metric(self, value):
        if self.replica is None or value.shape.rank:
            return value
        return value * _as(self.replicas, value.dtype)


class MetricsContainer:
    """The compiled metrics, one list per output, resolved on the first update.

    ``metrics`` are updated without sample weights and ``weighted_metrics`` with them
    (Keras 3); a weighted metric whose name an unweighted one already has is logged as
    ``weighted_{name}``. ``'accuracy'`` becomes binary, sparse categorical or categorical
    accuracy from the labels' and predictions' shapes, as in Keras. Names are the strings
    given (prefixed by the output name when the model has several outputs).
    """

    def __init__(self, metrics, output_names, weighted_metrics=None):
        self.given = metrics is not None or weighted_metrics is not None  # Keras 3 lists compile_metrics
        self.output_names = list(output_names)
        self._specs = [_as_list(m) for m in per_output(metrics, self.output_names, "metrics")]
        self._weighted_specs = [_as_list(m) for m in per_output(weighted_metrics, self.output_names,
                                                                 "weighted_metrics")]
        self._built = None
        self._weighted = None

    @property
    def metrics(self):
        return [m for group in (self._built or []) + (self._weighted or []) for m in group]

    @property
    def built(self):
        return self._built is not None

    def build(self, y_true, y_pred):
        """Resolves the metrics per output (lists) from the labels' and predictions' shapes: only
        their ``shape`` is read, so specs and Keras tensors do."""
        self._build(y_true, y_pred)

    def update_state(self, y_true, y_pred, sample_weight=None):
        if self._built is None:
            self._build(y_true, y_pred)
        share = _ReplicaShare.of(y_pred)  # the padding of an uneven final batch in Strategy.run
        for index, group in enumerate(self._built):
            for metric in group:
                if share.mask is None:
                    metric.update_state(y_true[index], y_pred[index])
                else:
                    metric.update_state(y_true[index], y_pred[index], sample_weight=share.mask)
        for index, group in enumerate(self._weighted):
            for metric in group:
                metric.update_state(y_true[index], y_pred[index],
                                    sample_weight=share.weights(_pick(sample_weight, index)))

    def _build(self, y_true, y_pred):
        self._built = [[self._resolve(spec, index, y_true[index], y_pred[index]) for spec in specs]
                       for index, specs in enumerate(self._specs)]
        taken = {m.name for group in self._built for m in group}
        self._weighted = [[self._resolve(spec, index, y_true[index], y_pred[index], taken)
                           for spec in specs] for index, specs in enumerate(self._weighted_specs)]
        for index, groups in enumerate(zip(self._built, self._weighted)):
            for metric in groups[0] + groups[1]:  # state shaped by the data (F1Score): made before tracing
                if hasattr(metric, "_build_for_shapes") and hasattr(y_pred[index], "shape"):
                    metric._build_for_shapes(y_true[index].shape, y_pred[index].shape)

    def _resolve(self, spec, index, y_true, y_pred, taken=()):
        prefix = f"{self.output_names[index]}_" if len(self.output_names) > 1 else ""
        if isinstance(spec, Metric):
            base = spec.name[len(prefix):] if prefix and spec.name.startswith(prefix) else spec.name
            spec.name = _weighted_name(prefix, base, taken)
            spec._keras_name = base  # Keras 3's own name for it (what orders evaluate's list)
            return spec
        if isinstance(spec, str):
            fn = _string_metric(spec, y_true, y_pred)
            name = spec
        elif callable(spec):
            fn, name = spec, getattr(spec, "__name__", type(spec).__name__)
        else:
            raise TypeError(f"compile: a metric must be a name, a Metric or a function (y_true, y_pred)."
                            f" Received: {spec!r}")
        if not isinstance(fn, Metric):
            fn = MeanMetricWrapper(fn, name=name)
            if isinstance(spec, str) and fn._direction is None:  # Keras 3 names an accuracy/top-k/cosine
                fn._direction = "up"  # metric class here, maximized; the losses' means are minimized
        fn.name = _weighted_name(prefix, name, taken)
        fn._keras_name = name  # Keras 3's own name for it (what orders evaluate's list)
        return fn


def _weighted_name(prefix, name, taken):
    """``prefix + name``, or ``prefix + 'weighted_' + name`` when an unweighted metric has it."""
    return prefix + ("weighted_" if prefix + name in taken else "") + name


def _string_metric(name, y_true, y_pred):
    if name not in _ACCURACY + _CROSSENTROPY:
        return metrics_module.get(name)
    pred_rank, true_rank = y_pred.shape.rank, len(y_true.shape)
    pred_last = y_pred.shape[-1] if pred_rank else None
    true_last = y_true.shape[-1] if true_rank else None
    binary = pred_last == 1
    sparse = true_rank < pred_rank or (true_last == 1 and pred_last != 1)
    if name in _ACCURACY:
        kind = "binary" if binary else "sparse_categorical" if sparse else "categorical"
        return metrics_module.get(f"{kind}_accuracy")
    kind = "binary" if binary else "sparse_categorical" if sparse else "categorical"
    return losses_module.get(f"{kind}_crossentropy")


def _as_loss(loss):
    if loss is None:
        return None
    if isinstance(loss, str):
        resolved = losses_module.get(loss)
        if isinstance(resolved, Loss):
            return resolved
        return LossFunctionWrapper(resolved, name=resolved.__name__)
    if isinstance(loss, Loss):
        return loss
    if callable(loss):
        return LossFunctionWrapper(_checked_loss(loss), name=getattr(loss, "__name__", "loss"))
    raise TypeError("compile: `loss` must be a loss name (like 'mse'), a keras.losses.Loss, a function "
                    f"(y_true, y_pred) -> per-example losses, or a list/dict of those. Received: {loss!r}")


def _checked_loss(fn):
    name = getattr(fn, "__name__", repr(fn))

    def checked(y_true, y_pred):
        value = fn(y_true, y_pred)
        shape = getattr(value, "shape", None)
        if shape is None:
            raise TypeError(f"Loss function {name!r} returned {value!r}; it must return a tensor "
                            "(one loss per example, or a scalar).")
        dims = list(shape)
        if dims and y_pred.shape.rank and dims[0] != y_pred.shape[0] and dims[0] is not None:
            raise ValueError(f"Loss function {name!r} returned a tensor of shape {tuple(dims)} for a "
                             f"batch of {y_pred.shape[0]} examples: a loss must return one value per "
                             "example (leading axis = batch) or a scalar.")
        return value

    checked.__name__ = name
    return checked


def _as_list(value):
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _pick(sample_weight, index):
    if isinstance(sample_weight, (list, tuple)):
        return sample_weight[index]
    return sample_weight


def _as(value, dtype):
    """``value`` as a tensor of ``dtype``: a Python number is a constant (a cast of one would
    compile a kernel while the step traces), a tensor is cast."""
    if isinstance(value, (int, float)):
        return constant(value, dtype)
    return cast(value, dtype)


def _batch_size(y_pred):
    return _as(y_pred.shape[0] if y_pred.shape.rank else 1, y_pred.dtype)


class CompileMetrics(Metric):
    """Keras 3's ``compile_metrics``: one entry in ``model.metrics`` for every compiled metric.

    Its ``result()`` is a dict (metric name -> value), ``reset_state()`` resets each metric and
    ``variables`` are theirs; ``metrics`` lists them once the first batch has built them.
    """

    def __init__(self, container, split=None):
        super().__init__(name="compile_metrics")
        self._container = container
        self._split = split  # (values, what) -> one entry per output, the model's `_per_output`

    def update_state(self, y_true, y_pred, sample_weight=None):
        """Updates every compiled metric from a batch (Keras 3's ``CompileMetrics.update_state``,
        which a custom ``train_step`` calls as ``metric.update_state(y, y_pred)``)."""
        if self._split is not None:
            y_true, y_pred = self._split(y_true, "y"), self._split(y_pred, "output")
        elif not isinstance(y_pred, (list, tuple)):
            y_true, y_pred = [y_true], [y_pred]
        self._container.update_state(list(y_true), list(y_pred), sample_weight)

    def keras_names(self):
        """The names Keras 3 gives these metrics in ``model.metrics``: without the output's prefix a
        multi-output model adds to their logged names, nor the ``weighted_`` a weighted metric's log
        gets when an unweighted one has its name (what orders evaluate's list: such a name is then
        listed twice, as Keras 3.15 lists it)."""
        return [m._keras_name for groups in (self._container._built or [], self._container._weighted or [])
                for group in groups for m in group]

    @property
    def metrics(self):
        return self._container.metrics

    @property
    def variables(self):
        return [v for metric in self.metrics for v in metric.variables]

    weights = non_trainable_weights = non_trainable_variables = variables

    def result(self):
        results = {}
        for metric in self.metrics:
            value = metric.result()
            results.update(value if isinstance(value, dict) else {metric.name: value})
        return results

    def reset_state(self):
        for metric in self.metrics:
            metric.reset_state()
