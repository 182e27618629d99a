"""`Metric`: the base class of Keras metrics, whose state lives in companion Variables."""

import functools
import threading

import numpy as np

from companion._core import _dtypes
from companion._core._context import current_replica
from companion._core._variable import Variable
from companion._core._variable_aggregation import VariableAggregation, VariableSynchronization
from companion.keras.backend._name_scope import name_scope
from companion.keras.backend._variable import KerasVariable
from companion.keras.layers._naming import unique_name


class Metric:
    """Base class of metrics, TensorFlow's ``tf.keras.metrics.Metric``.

    A metric accumulates state in Variables (created with `add_weight`, or assigned as
    attributes) through ``update_state``; ``result`` computes the value from that state.
    Updates go through ``assign``/``assign_add``, so a metric works eagerly and inside
    `companion.function` alike.

    Args:
        name: the metric's name (default: the class name in snake_case).
        dtype: the dtype of its result (default float32).

    Example:
        >>> import companion as tf
        >>> class Count(tf.keras.metrics.Metric):
        ...     def __init__(self, name="count", **kwargs):
        ...         super().__init__(name=name, **kwargs)
        ...         self.n = self.add_weight(name="n", dtype="int32")
        ...     def update_state(self, values):
        ...         self.n.assign_add(tf.size(values))
        ...     def result(self):
        ...         return self.n.value()
        >>> count = Count()
        >>> print(count([1.0, 2.0, 3.0]))
        companion.Tensor(3, shape=(), dtype=int32)
    """

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "update_state" in cls.__dict__:
            cls.update_state = _summed_over_replicas(cls.__dict__["update_state"])

    _is_keras_metric = True  # layers list the metrics in their attributes (Layer.metrics)
    _direction = None  # "up"/"down": whether larger values are better (callbacks' mode="auto"); unknown

    def __init__(self, name=None, dtype=None, **kwargs):
        # Keras 3's auto_name: unnamed metrics share the layers' counters ('auc', then 'auc_1')
        self.name = name or unique_name(type(self).__name__)
        self._dtype = _dtypes.as_dtype(dtype or _dtypes.float32)
        self._weights = []

    @property
    def dtype(self):
        """The result's dtype by name (``'float32'``), as Keras 3 reports it."""
        return self._dtype.name

    def add_variable(self, shape, initializer, dtype=None, aggregation="sum", name=None):
        """Keras 3's way to create a state Variable: `add_weight` with ``shape`` and ``initializer`` first."""
        return self.add_weight(shape=shape, initializer=initializer, dtype=dtype, name=name)

    def add_weight(self, shape=(), initializer="zeros", dtype=None, name=None, **kwargs):
        """Creates a non-trainable Variable holding part of the metric's state.

        The arguments come in Keras 3's order (``shape`` first); a string first argument is
        taken as the name, as Keras 2's ``add_weight(name, shape)`` passed it.

        Args:
            shape: its shape (a scalar by default).
            initializer: ``'zeros'``, ``'ones'`` or a callable ``(shape, dtype) -> value``.
            dtype: its dtype (default: the metric's dtype).
            name: the variable's name.
        """
        if isinstance(shape, str):  # Keras 2's positional name
            shape, name = (), shape
        dtype = _dtypes.as_dtype(dtype or self._dtype)
        shape = tuple(shape or ())
        with name_scope(self.name.replace("/", "_"), caller=self):  # Keras 3 path: 'mean/total'
            variable = KerasVariable(_initial_value(initializer, shape, dtype), trainable=False, name=name,
                                     dtype=dtype, aggregation=VariableAggregation.SUM,
                                     synchronization=VariableSynchronization.ON_READ)
        variable._metric_state = True  # in Strategy.run, the replicas' changes add up
        self._weights.append(variable)
        return variable

    def update_state(self, *args, **kwargs):
        """Accumulates statistics. Subclasses must override it."""
        raise NotImplementedError(f"{type(self).__name__} must implement update_state(...).")

    def result(self):
        """The metric's value from its state. Subclasses must override it."""
        raise NotImplementedError(f"{type(self).__name__} must implement result().")

    def reset_state(self):
        """Sets every state variable back to zero (calls an overridden `reset_states`)."""
        if type(self).reset_states is not Metric.reset_states:
            return self.reset_states()
        for variable in self.variables:
            variable.assign(np.zeros(tuple(variable.shape), variable.dtype.as_numpy_dtype))
        return None

    def reset_states(self):
        """The older name of `reset_state`."""
        return self.reset_state()

    def __call__(self, *args, **kwargs):
        """Updates the state with the arguments of ``update_state``, then returns `result`."""
        self.update_state(*args, **kwargs)
        return self.result()

    @property
    def variables(self):
        """The state Variables: those from `add_weight`, then those assigned as attributes."""
        found = list(self._weights)
        for value in vars(self).values():
            if isinstance(value, Variable) and not any(value is v for v in found):
                found.append(value)
        return found

    weights = non_trainable_weights = non_trainable_variables = variables

    @property
    def trainable_weights(self):
        return []

    trainable_variables = trainable_weights

    def get_config(self):
        return {"name": self.name, "dtype": self._dtype.name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}>"  # Keras 3's, unquoted


_updating = threading.local()  # ids of the metrics whose update_state is running on this thread


def _summed_over_replicas(update_state):
    """``update_state`` that, inside Keras fit's replica step (`global_metric_reads`), adds every
    replica's change of the state to every replica's state (the replica context's
    ``all_reduce``), so `result` in a replica is the global value that fit logs, and the state
    leaves the replica program as it is. Elsewhere (a custom loop's `Strategy.run`, as TF 2.21:
    a replica reads its own state, summed when ``run`` returns) or with one replica, the method
    itself."""

    @functools.wraps(update_state)
    def update(self, *args, **kwargs):
        replica = current_replica()
        running = _updating.__dict__.setdefault("ids", set())
        if replica is None or replica.num_replicas_in_sync == 1 or id(self) in running \
                or not getattr(replica, "metrics_summed_on_update", False):
            return update_state(self, *args, **kwargs)  # (a subclass's super() call: done by the outer one)
        variables = self.variables
        before = [variable.read_value() for variable in variables]
        running.add(id(self))
        try:
            result = update_state(self, *args, **kwargs)
        finally:
            running.discard(id(self))
        changes = replica.all_reduce("SUM", [v.read_value() - old for v, old in zip(variables, before)])
        for variable, old, change in zip(variables, before, changes):
            variable.assign(old + change)
        return result

    return update


def _initial_value(initializer, shape, dtype):
    if initializer in ("zeros", "Zeros", None):
        return np.zeros(shape, dtype.as_numpy_dtype)
    if initializer in ("ones", "Ones"):
        return np.ones(shape, dtype.as_numpy_dtype)
    if callable(initializer):
        return initializer(shape, dtype=dtype)
    raise ValueError(f"Metric.add_weight: unknown initializer {initializer!r}. Use 'zeros', 'ones' or a "
                     "callable (shape, dtype) -> initial value.")


def output_dim(metric_name, y_true_shape, y_pred_shape):
    """The known last size of 2-D ``(batch, output_dim)`` inputs, which shapes a metric's state
    (F1Score, R2Score), or a ValueError naming the shapes received."""
    y_true_shape, y_pred_shape = tuple(y_true_shape), tuple(y_pred_shape)
    if len(y_pred_shape) != 2 or len(y_true_shape) != 2 or y_pred_shape[-1] is None:
        raise ValueError(f"{metric_name} expects 2D inputs with shape (batch_size, output_dim), output_dim "
                         f"known. Received input shapes: y_pred.shape={y_pred_shape} and "
                         f"y_true.shape={y_true_shape}.")
    return y_pred_shape[-1]
