"""`LossScaleOptimizer`: dynamic loss scaling around another optimizer, Keras 3's.

float16 gradients underflow; scaling the loss by a large factor scales every gradient with it.
This optimizer multiplies the loss (`scale_loss`), divides the gradients back, and applies them
with its inner optimizer when all are finite. A step with a non-finite gradient is skipped (the
weights, the inner optimizer's slots and ``iterations`` keep their values) and halves the scale;
``dynamic_growth_steps`` finite steps in a row double it. The decision is taken on tensors (a
select on every value the step wrote), so it is the same eagerly and in a compiled step, and under
a strategy all replicas decide together on the summed count of non-finite gradients.
"""

from companion._core import _dtypes
from companion._core._convert import as_input
from companion._core._indexed_slices import IndexedSlices
from companion._core._tensor import Tensor
from companion._ops._math import cast, equal, is_finite, logical_and, multiply
from companion._ops._reduce import reduce_sum
from companion._ops._select import where
from companion.keras.backend._name_scope import name_scope
from companion.keras.backend._variable import KerasVariable
from companion.keras.layers._tracking import unique
from companion.keras.optimizers._optimizer import Optimizer, _summed_over_replicas

_UNSUPPORTED = ("weight_decay", "clipnorm", "global_clipnorm", "clipvalue", "use_ema", "ema_momentum",
                "ema_overwrite_frequency", "loss_scale_factor", "gradient_accumulation_steps")


class LossScaleOptimizer(Optimizer):
    """Scales the loss to keep float16 gradients from underflowing (``mixed_float16`` training).

    ``fit`` wraps a model's optimizer in one when the model's policy is ``mixed_float16``. In a
    custom loop, differentiate ``optimizer.scale_loss(loss)``; `apply_gradients` unscales.

    Example:
        >>> import companion as tf
        >>> opt = tf.keras.optimizers.LossScaleOptimizer(tf.keras.optimizers.SGD(0.1), initial_scale=8.0)
        >>> w = tf.Variable(1.0)
        >>> with tf.GradientTape() as tape:
        ...     loss = opt.scale_loss(w * w)
        >>> _ = opt.apply_gradients([(tape.gradient(loss, w), w)])
        >>> round(float(w.numpy()), 6), float(opt.dynamic_scale.numpy())
        (0.8, 8.0)
        >>> _ = opt.apply_gradients([(tf.constant(float("inf")), w)])  # skipped, scale halved
        >>> round(float(w.numpy()), 6), float(opt.dynamic_scale.numpy())
        (0.8, 4.0)
    """

    def __init__(self, inner_optimizer, initial_scale=2.0 ** 15, dynamic_growth_steps=2000, name=None,
                 **kwargs):
        if not kwargs.pop("dynamic", True):
            raise ValueError("LossScaleOptimizer no longer supports `dynamic=False`. Instead, set "
                             "`loss_scale_factor` directly on the `inner_optimizer`.")
        for key in _UNSUPPORTED:
            if kwargs.pop(key, None) not in (None, False, 0.99):
                raise ValueError(f"LossScaleOptimizer does not support `{key}`. Instead, set `{key}` on "
                                 "the `inner_optimizer`.")
        if kwargs:
            raise ValueError(f"LossScaleOptimizer does not support arguments: {sorted(kwargs)}.")
        if not isinstance(inner_optimizer, Optimizer):
            raise TypeError("LossScaleOptimizer wraps a keras optimizer instance (e.g. "
                            "keras.optimizers.Adam()). Received: "
                            f"inner_optimizer={inner_optimizer!r}")
        if not float(initial_scale) > 0:
            raise ValueError(f"`initial_scale` must be a positive number. Received: "
                             f"initial_scale={initial_scale!r}")
        if isinstance(dynamic_growth_steps, bool) or not int(dynamic_growth_steps) >= 1:
            raise ValueError(f"`dynamic_growth_steps` must be a positive integer. Received: "
                             f"dynamic_growth_steps={dynamic_growth_steps!r}")
        super().__init__(learning_rate=0.0, name=name)
        self.inner_optimizer = inner_optimizer
        self.initial_scale = float(initial_scale)
        self.dynamic_growth_steps = int(dynamic_growth_steps)
        self.inner_optimizer.loss_scale_factor = None
        self.built = False

    def build(self, var_list):
        """Creates the scale's state (``step_counter``, ``dynamic_scale``) and the inner slots."""
        if not self.built:
            with name_scope(self.name, caller=self):
                self.step_counter = KerasVariable(0, dtype="int64", trainable=False, name="step_counter")
                self.dynamic_scale = KerasVariable(self.initial_scale, dtype="float32", trainable=False,
                                                   name="dynamic_scale")
            self.built = True
        self.inner_optimizer.build(var_list)

    @property
    def variables(self):
        own = [self.step_counter, self.dynamic_scale] if self.built else []
        return own + self.inner_optimizer.variables

    @property
    def iterations(self):
        return self.inner_optimizer.iterations

    @property
    def learning_rate(self):
        return self.inner_optimizer.learning_rate

    @learning_rate.setter
    def learning_rate(self, value):
        self.inner_optimizer.learning_rate = value

    def scale_loss(self, loss):
        """``loss`` times the current scale: differentiate this. Before the first step the loss keeps
        its dtype; afterwards the scale is a float32 Variable, and a half-precision loss is cast up."""
        loss = as_input(loss)
        if not self.built:  # a Python number: the loss keeps its dtype (Keras 3)
            return multiply(loss, cast(self.initial_scale, loss.dtype))
        if loss.dtype != _dtypes.float64:
            loss = cast(loss, _dtypes.float32)
        return multiply(loss, self.dynamic_scale.value())

    def apply_gradients(self, grads_and_vars, name=None, **kwargs):
        """Unscales the gradients and applies them with the inner optimizer when all are finite;
        otherwise keeps every value and halves the scale. Returns ``iterations``."""
        pairs = [(g, v) for g, v in grads_and_vars if g is not None]
        variables = [v for _, v in pairs]
        self.build(variables)
        nonfinite = [reduce_sum(cast(~is_finite(_values(g)), _dtypes.float32)) for g, _ in pairs]
        count = sum(nonfinite[1:], nonfinite[0]) if nonfinite else cast(0.0, _dtypes.float32)
        finite = equal(Tensor(_summed_over_replicas([as_input(count)._value])[0]), 0.0)
        scale = self.dynamic_scale.value()
        kept = [(v, v.value()) for v in unique(variables + self.inner_optimizer.variables)]
        self.inner_optimizer.apply_gradients([(_unscaled(g, scale), v) for g, v in pairs])
        for variable, old in kept:
            variable.assign(where(finite, variable.value(), old))
        counter = self.step_counter.value()
        grow = logical_and(finite, equal(counter, self.dynamic_growth_steps - 1))
        self.step_counter.assign(where(finite, where(grow, cast(0, _dtypes.int64), counter + 1),
                                       cast(0, _dtypes.int64)))
        self.dynamic_scale.assign(where(finite, where(grow, scale * 2.0, scale), scale * 0.5))
        return self.iterations

    def finalize_variable_values(self, var_list):
        self.inner_optimizer.finalize_variable_values(var_list)

    def get_config(self):
        # deferred: the registry imports every optimizer module, this one included
        from companion.keras.optimizers._registry import serialize

        return {"name": self.name, "inner_optimizer": serialize(self.inner_optimizer),
                "initial_scale": self.initial_scale, "dynamic_growth_steps": self.dynamic_growth_steps}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        # deferred: the registry imports every optimizer module, this one included
        from companion.keras.optimizers._registry import deserialize

        config = dict(config)
        config["inner_optimizer"] = deserialize(config["inner_optimizer"], custom_objects)
        return cls(**config)


def _values(grad):
    return as_input(grad.values if isinstance(grad, IndexedSlices) else grad)


def _unscaled(grad, scale):
    if isinstance(grad, IndexedSlices):
        values = as_input(grad.values)
        return IndexedSlices(values / cast(scale, values.dtype), grad.indices, grad.dense_shape)
    grad = as_input(grad)
    return grad / cast(scale, grad.dtype)

