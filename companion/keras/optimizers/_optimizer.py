"""`Optimizer`: the Keras optimizer facade over small pure per-variable update rules."""


import re

import jax
import jax.numpy as jnp
import numpy as np

from companion._core import _dtypes
from companion._core._context import current_replica, state
from companion._core._convert import as_input, convert_to_tensor
from companion._core._indexed_slices import IndexedSlices
from companion._core._op import Op
from companion._core._tensor import Tensor
from companion._core._variable import Variable
from companion._ops._creation import zeros_like
from companion._ops._math import cast, equal, floordiv, floormod
from companion._ops._select import where
from companion._tape._gradient_tape import GradientTape
from companion.keras.backend._name_scope import name_scope
from companion.keras.backend._variable import KerasVariable
from companion.keras.layers._naming import unique_name
from companion.keras.optimizers import _clipping, schedules
from companion.keras.optimizers.schedules import LearningRateSchedule
from companion.keras.optimizers.schedules import deserialize as _deserialize_schedule
from companion.train import _deferred


class Optimizer:
    """Base class of Keras optimizers, TensorFlow's ``tf.keras.optimizers.Optimizer``.

    A subclass names its slots (``_slot_names``) and writes one pure update rule,
    ``_update(var, grad, slots, lr, step) -> (new_var, new_slots)`` on ``jax`` arrays
    (``step`` is the 1-based step count). The base class keeps all state in companion
    Variables (``iterations``, ``learning_rate`` and the slots, created on the first
    `apply_gradients` for each variable), so an optimizer works eagerly and inside
    `companion.function`. Eagerly the rule runs compiled, one program for all variables.

    Gradients are clipped first (``clipnorm`` per gradient, ``global_clipnorm`` over all
    of them, or ``clipvalue`` element-wise), and the learning rate of step ``t`` is
    ``learning_rate`` or ``learning_rate(iterations)`` for a schedule, read before
    ``iterations`` is incremented, as in Keras.

    Example:
        >>> import companion as tf
        >>> opt = tf.keras.optimizers.SGD(learning_rate=0.1)
        >>> var = tf.Variable(1.0)
        >>> opt.minimize(lambda: var ** 2, [var])
        >>> round(float(var.numpy()), 6)
        0.8
    """

    _slot_names = ()

    def __init__(self, learning_rate=0.001, clipnorm=None, clipvalue=None, global_clipnorm=None,
                 name=None, **kwargs):
        _check_clipping(clipnorm, clipvalue, global_clipnorm)
        _check_kwargs(kwargs)
        decay = kwargs.get("weight_decay")
        if decay is not None and (not isinstance(decay, (int, float)) or isinstance(decay, bool)):
            raise TypeError(f"`weight_decay` must be a float (or None). Received: weight_decay={decay!r}")
        self.weight_decay = None if decay is None else float(decay)
        self.loss_scale_factor = _loss_scale_factor(kwargs.get("loss_scale_factor"))
        self.gradient_accumulation_steps = _accumulation_steps(kwargs.get("gradient_accumulation_steps"))
        self._accumulators = {}  # var.ref() -> the Variable summing its gradients between updates
        self._excluded_from_decay, self._excluded_name_pattern = set(), None
        self.use_ema = bool(kwargs.get("use_ema", False))
        self.ema_momentum = kwargs.get("ema_momentum", 0.99)
        self.ema_overwrite_frequency = kwargs.get("ema_overwrite_frequency")
        if self.use_ema:
            _check_ema(self.ema_momentum, self.ema_overwrite_frequency)
        self.name = name or unique_name(type(self).__name__)  # Keras 3: 'adam', 'adam_1', 'rm_sprop'
        self.clipnorm = clipnorm
        self.clipvalue = clipvalue
        self.global_clipnorm = global_clipnorm
        with name_scope(self.name, caller=self):  # Keras 3 paths: 'adam/iteration'
            self._iterations = KerasVariable(np.zeros((), np.int64), trainable=False, name="iteration",
                                             aggregation="only_first_replica")
        self._learning_rate = self._make_learning_rate(learning_rate)
        self._slots = {}  # var.ref() -> {slot name: Variable}
        self._slot_list = []
        self._step_op = None  # the eager update as an Op (`_eager_step`)
        self.built = False  # Keras 3: True once `build` (or the first step) has made the slots

    # -- the public state -----------------------------------------------------------------
    @property
    def iterations(self):
        """The number of steps taken so far, an int64 Variable (with gradient accumulation, the
        number of updates: calls // ``gradient_accumulation_steps``, a Tensor)."""
        if self.gradient_accumulation_steps:
            return floordiv(self._iterations.value(), self.gradient_accumulation_steps)
        return self._iterations

    @iterations.setter
    def iterations(self, value):
        self._iterations.assign(value)

    @property
    def learning_rate(self):
        """The learning rate: a float32 Variable, or the schedule's value at ``iterations``."""
        if isinstance(self._learning_rate, LearningRateSchedule):
            return self._learning_rate(self._iterations)
        return self._learning_rate

    @learning_rate.setter
    def learning_rate(self, value):
        if isinstance(value, LearningRateSchedule) or not isinstance(self._learning_rate, Variable):
            self._learning_rate = self._make_learning_rate(value)
        else:
            self._learning_rate.assign(_as_float(value))

    lr = learning_rate

    @property
    def variables(self):
        """``iterations``, the learning-rate Variable (unless a schedule), then every slot."""
        lr = [self._learning_rate] if isinstance(self._learning_rate, Variable) else []
        return [self._iterations, *lr, *self._accumulators.values(), *self._slot_list]

    def get_slot(self, var, slot_name):
        """The slot Variable ``slot_name`` (e.g. ``"m"``) kept for ``var``."""
        return self._slots[var.ref()][slot_name]

    def get_slot_names(self):
        return list(self._slot_names)

    def exclude_from_weight_decay(self, var_list=None, var_names=None):
        """Keeps ``var_list``'s Variables, and every Variable whose name contains one of ``var_names``
        (e.g. ``["bias"]``), out of the decoupled weight decay. Call it before the first step."""
        if self._slots:
            raise ValueError("`exclude_from_weight_decay()` can only be configured before the optimizer "
                             "is built.")
        self._excluded_from_decay = {v.ref() for v in (var_list or [])}
        self._excluded_name_pattern = re.compile("|".join(set(var_names))) if var_names else None

    def _decay_flags(self, variables):
        """Per variable, whether the decoupled weight decay applies (Keras 3's `_use_weight_decay`)."""
        if not self.weight_decay:
            return ()
        pattern = self._excluded_name_pattern
        return tuple(v.ref() not in self._excluded_from_decay and
                     (pattern is None or pattern.search(v.name) is None) for v in variables)

    def build(self, var_list):
        """Creates the slots for every Variable in ``var_list`` now (Keras 3's ``build``), so a
        `function` that applies gradients to them creates no Variables when it first traces."""
        for variable in var_list:
            if self.gradient_accumulation_steps:
                self._accumulator_for(variable)
            self._slots_for(variable)
        self.built = True

    # -- taking steps -----------------------------------------------------------------------
    def apply_gradients(self, grads_and_vars, name=None, **kwargs):
        """Applies one step to each ``(gradient, variable)`` pair; None gradients are skipped.

        Returns the ``iterations`` Variable (incremented once per call).

        With ``gradient_accumulation_steps=N`` (Keras 3), the gradients of N calls are averaged:
        the variables change on every N-th call only, ``iterations`` counts those updates, and a
        learning-rate schedule sees every call.
        """
        pairs = [(g, v) for g, v in grads_and_vars if g is not None]
        if not pairs:
            return self._iterations
        variables = [_checked_variable(v) for _, v in pairs]
        self.built = True
        if self.loss_scale_factor is not None:  # `scale_loss` multiplied the loss: undo it here
            pairs = [(_divided(g, self.loss_scale_factor), v) for g, v in pairs]
        if self.gradient_accumulation_steps:
            self._accumulate(pairs, variables)
        else:
            self._iterations._set_value(self._apply_pairs(pairs, variables, self._iterations))
        return self._iterations

    def _apply_pairs(self, pairs, variables, counter):
        """Updates ``variables`` by ``pairs`` as step ``counter + 1``; returns that step's count."""
        if self.clipvalue is not None:  # Keras clips each slice of an IndexedSlices gradient
            pairs = [(_clipped_slices(g, self.clipvalue), v) for g, v in pairs]
        squares = [_slice_squares(g, v) for g, v in pairs]
        slots = [self._slots_for(v) for v in variables]
        if state.staging:
            grads = _summed_over_replicas([_cast(as_input(g)._value, v._v.dtype) for g, v in pairs])
            present = [sq for sq in squares if sq is not None]
            if present:  # each replica's slices are squared before they are summed, as the gradients
                summed = iter(_summed_over_replicas(present))
                squares = [None if sq is None else next(summed) for sq in squares]
            arrays = ([v._value for v in variables], grads, [{k: s._value for k, s in d.items()}
                      for d in slots], self._current_learning_rate()._value, counter._value, squares)
            new_vars, new_slots, step = self._counted_step(*arrays, decays=self._decay_flags(variables))
        else:  # the stored values as they are (a deferred one stays pending: `_core._deferred`)
            arrays = ([v._v for v in variables], [as_input(g)._v for g, _ in pairs],
                      [{k: s._v for k, s in d.items()} for d in slots], self._current_learning_rate()._v,
                      counter._v, squares)
            new_vars, new_slots, step = self._eager_step(arrays, self._decay_flags(variables))
        _write_back(variables, slots, new_vars, new_slots)
        for var in variables:  # after the update, as Keras (Dense(kernel_constraint=), Variable(constraint=))
            if var.constraint is not None:
                var.assign(var.constraint(var))
        return step

    def _accumulate(self, pairs, variables):
        """Keras 3's gradient accumulation: every call adds its gradients to per-variable
        accumulators; every N-th call applies their average (then clipped, decayed, ...) and clears
        them. The choice is a select on every value the update wrote, the same eagerly and compiled."""
        replica = current_replica()
        if state.staging and replica is not None and replica.num_replicas_in_sync > 1:
            raise NotImplementedError("gradient_accumulation_steps inside a multi-replica step is not "
                                      "supported by companion: accumulate in your own loop, or train "
                                      "with one replica.")
        steps = self.gradient_accumulation_steps
        real = self._iterations.value()
        update = equal(floormod(real + 1, steps), 0)
        accumulators = [self._accumulator_for(v) for v in variables]
        grads = [cast(convert_to_tensor(g), v.dtype) for g, v in pairs]
        averaged = [(g + acc.value()) / cast(steps, g.dtype) for g, acc in zip(grads, accumulators)]
        slots = [slot for v in variables for slot in self._slots_for(v).values()]
        kept = [(x, x.value()) for x in variables + slots]
        self._apply_pairs(list(zip(averaged, variables)), variables, floordiv(real, steps))
        for x, old in kept:
            x.assign(where(update, x.value(), old))
        for acc, grad in zip(accumulators, grads):
            acc.assign(where(update, zeros_like(grad), acc.value() + grad))
        self._iterations.assign_add(1)

    def _accumulator_for(self, var):
        found = self._accumulators.get(var.ref())
        if found is None:
            with name_scope(self.name, caller=self):
                found = self._accumulators[var.ref()] = _slot_like(var, "gradient_accumulator", np.zeros)
        return found

    def scale_loss(self, loss):
        """``loss`` times ``loss_scale_factor`` (unchanged without one); `apply_gradients` divides
        the gradients back. Differentiate the scaled loss in a custom loop, as Keras 3's fit does."""
        return loss if self.loss_scale_factor is None else loss * self.loss_scale_factor

    def minimize(self, loss, var_list, tape=None):
        """Takes one step minimizing ``loss``.

        ``loss`` is a zero-argument callable (differentiated here), or a tensor computed
        under ``tape``; ``var_list`` is a list of Variables or a callable returning one.
        """
        grads, var_list = self._gradients(loss, var_list, tape)
        self.apply_gradients(zip(grads, var_list))

    def compute_gradients(self, loss, var_list, tape=None):
        """The ``(gradient, variable)`` pairs `minimize` would apply."""
        grads, var_list = self._gradients(loss, var_list, tape)
        return list(zip(grads, var_list))

    # -- configuration ----------------------------------------------------------------------
    def get_config(self):
        """The constructor arguments; a schedule is stored serialized, as Keras 3's
        ``{"module", "class_name", "config", "registered_name"}``."""
        lr = self._learning_rate
        if isinstance(lr, LearningRateSchedule):
            lr = schedules.serialize(lr)
        else:
            lr = float(lr.numpy())
        # Keras 3's keys and order; the ones companion does not implement hold their defaults
        return {"name": self.name, "learning_rate": lr,
                "weight_decay": self.weight_decay, "clipnorm": self.clipnorm,
                "global_clipnorm": self.global_clipnorm, "clipvalue": self.clipvalue,
                "use_ema": self.use_ema, "ema_momentum": self.ema_momentum,
                "ema_overwrite_frequency": self.ema_overwrite_frequency,
                "loss_scale_factor": self.loss_scale_factor,
                "gradient_accumulation_steps": self.gradient_accumulation_steps}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        if isinstance(config.get("learning_rate"), dict):
            config["learning_rate"] = _deserialize_schedule(config["learning_rate"], custom_objects)
        return cls(**config)

    def __repr__(self):
        return f"<companion.keras.optimizers.{type(self).__name__} name={self.name!r}>"

    # -- what subclasses provide ----------------------------------------------------------
    def _update(self, var, grad, slots, lr, step):
        raise NotImplementedError(f"{type(self).__name__} must implement _update(var, grad, "
                                  "slots, lr, step) -> (new_var, new_slots).")

    # -- helpers ----------------------------------------------------------------------------
    def _make_learning_rate(self, value):
        if isinstance(value, LearningRateSchedule):
            return value
        if callable(value):
            raise TypeError("`learning_rate` must be a float or a keras.optimizers.schedules."
                            f"LearningRateSchedule. Received: learning_rate={value!r}")
        with name_scope(self.name, caller=self):
            return KerasVariable(_as_float(value), trainable=False, dtype=_dtypes.float32,
                                 name="learning_rate", aggregation="only_first_replica")

    def _current_learning_rate(self):
        """The learning rate now, as a Tensor or Variable."""
        if isinstance(self._learning_rate, LearningRateSchedule):
            return as_input(self._learning_rate(self._iterations))
        return self._learning_rate

    def _slots_for(self, var):
        slots = self._slots.get(var.ref())
        if slots is None:
            with name_scope(self.name, caller=self):  # paths 'adam/sequential_dense_kernel_momentum'
                slots = {name: self._new_slot(var, name) for name in self._slot_names}
                if self.use_ema:
                    slots["average"] = _slot_like(var, "average", np.zeros)
            self._slots[var.ref()] = slots
            self._slot_list.extend(slots.values())
            _deferred.slots_created(self, var, slots)  # restores pending checkpoint values
        return slots

    def _new_slot(self, var, name):
        """The slot Variable ``name`` for ``var``: zeros of its shape and dtype (overridable)."""
        return _slot_like(var, name, np.zeros)  # made on the host: no compile per shape

    def _eager_step(self, arrays, decays=()):
        """`_counted_step` as one `Op` on the flattened arrays: one dispatch per call, and an op
        a deferred batch (forward, gradients, this update) can run as one program."""
        leaves, treedef = jax.tree_util.tree_flatten(arrays)
        if self._step_op is None:
            self._step_op = Op(f"{self.name}/apply_gradients", _flat_step(self._counted_step),
                               static=("treedef", "decays"))
        outputs = self._step_op.apply([Tensor(a) for a in leaves], {"treedef": treedef, "decays": decays})
        variables, _, slots = arrays[:3]
        structure = jax.tree_util.tree_structure((variables, slots, 0))
        return jax.tree_util.tree_unflatten(structure, [o._v for o in outputs])

    def _counted_step(self, variables, grads, slots, lr, iterations, squares=None, decays=()):
        """`_step` numbered ``iterations + 1``, also returning that count: one program per eager
        call, where counting outside it took two more dispatches."""
        step = iterations + 1
        new_vars, new_slots = self._step(variables, grads, slots, lr, step, squares, decays)
        return new_vars, new_slots, step

    def _step(self, variables, grads, slots, lr, step, squares=None, decays=()):
        squares = [None] * len(grads) if squares is None else squares
        grads, squares = _clipping.clip(grads, self.clipnorm, self.clipvalue, self.global_clipnorm, squares)
        if decays:  # Keras 3's decoupled weight decay, after clipping and before the update rule
            variables = [var - var * jnp.asarray(self.weight_decay, var.dtype) * lr.astype(var.dtype)
                         if decay else var for var, decay in zip(variables, decays)]
        new_vars, new_slots = [], []
        for var, grad, slot, square in zip(variables, grads, slots, squares):
            self._grad_square = square  # read by `_square` while this variable's update is traced
            rule_slots = {name: value for name, value in slot.items() if name != "average"}
            new_var, new_slot = self._update(var, grad, rule_slots, lr.astype(var.dtype),
                                             step.astype(var.dtype))
            if self.use_ema:
                previous = {**new_slot, "average": slot["average"]}
                new_var, new_slot = self._moving_average(new_var, previous, step)
            new_vars.append(new_var)
            new_slots.append(new_slot)
        self._grad_square = None
        return new_vars, new_slots

    def _moving_average(self, var, slots, step):
        """Keras 3's EMA after the update: the first step copies the variable, later ones blend it in
        with ``ema_momentum``; every ``ema_overwrite_frequency`` steps the variable takes the average."""
        momentum = (step != 1).astype(var.dtype) * jnp.asarray(self.ema_momentum, var.dtype)
        average = momentum * slots["average"] + (1 - momentum) * var
        if self.ema_overwrite_frequency:
            var = jnp.where(step % self.ema_overwrite_frequency == 0, average, var)
        return var, {**slots, "average": average}

    def finalize_variable_values(self, var_list):
        """With ``use_ema``, sets each Variable of ``var_list`` to its moving average (``fit`` calls it
        when training ends, as Keras does)."""
        if not self.use_ema:
            return
        for variable in var_list:
            slots = self._slots.get(variable.ref())
            if slots is not None:
                variable.assign(slots["average"])

    def _square(self, grad):
        """The squared gradient an update rule uses, Keras's ``ops.square(gradient)``.

        For an `IndexedSlices` gradient Keras squares each slice before they are added into rows,
        so a row looked up twice gets ``a**2 + b**2``, not ``(a + b)**2``: kept the same here.
        """
        square = getattr(self, "_grad_square", None)
        return jnp.square(grad) if square is None else square.astype(grad.dtype)

    def _gradients(self, loss, var_list, tape):
        if callable(var_list):
            var_list = var_list()
        var_list = list(var_list)
        if callable(loss):
            with GradientTape() as tape:
                for var in var_list:
                    tape.watch(var)
                loss = loss()
        elif tape is None:
            raise ValueError("minimize: `tape` is required when `loss` is a tensor (pass the "
                             "GradientTape that recorded it), or pass a zero-argument callable "
                             f"returning the loss. Received: loss={loss!r}, tape=None")
        return tape.gradient(loss, var_list), var_list


def _flat_step(counted_step):
    def step(*leaves, treedef, decays):
        variables, grads, slots, lr, iterations, squares = jax.tree_util.tree_unflatten(treedef, leaves)
        grads = [_cast(g, v.dtype) for g, v in zip(grads, variables)]
        return tuple(jax.tree_util.tree_leaves(counted_step(variables, grads, slots, lr, iterations,
                                                            squares, decays)))

    return step


def _summed_over_replicas(grads):
    """Inside `Strategy.run`, each replica's gradients summed over all replicas (as TF does),
    by the replica context's ``all_reduce``."""
    replica = current_replica()
    if replica is None or replica.num_replicas_in_sync == 1:
        return grads
    return [t._value for t in replica.all_reduce("SUM", [Tensor(g) for g in grads])]


def _slice_squares(grad, variable):
    """For an `IndexedSlices` gradient, each slice squared and added into its row; else None."""
    if not isinstance(grad, IndexedSlices):
        return None
    values = as_input(grad.values)._value.astype(variable._v.dtype)
    indices = as_input(grad.indices)._value
    return jnp.zeros(variable._v.shape, values.dtype).at[indices].add(jnp.square(values))


def _divided(grad, factor):
    if isinstance(grad, IndexedSlices):
        return IndexedSlices(as_input(grad.values) / factor, grad.indices, grad.dense_shape)
    return as_input(grad) / factor


def _accumulation_steps(value):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 2:
        raise ValueError(f"`gradient_accumulation_steps` must be an integer >= 2 (or None). Received: "
                         f"gradient_accumulation_steps={value!r}")
    return int(value)


def _loss_scale_factor(value):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise ValueError(f"`loss_scale_factor` must be a positive number or None. Received: "
                         f"loss_scale_factor={value!r}")
    return float(value)


def _clipped_slices(grad, clipvalue):
    if not isinstance(grad, IndexedSlices):
        return grad
    values = as_input(grad.values)
    clipped = Tensor(jnp.clip(values._value, -clipvalue, clipvalue))
    return IndexedSlices(clipped, grad.indices, grad.dense_shape)


def _cast(array, dtype):
    return array if array.dtype == dtype else array.astype(dtype)


def _write_back(variables, slots, new_vars, new_slots):
    for var, slot, new_var, new_slot in zip(variables, slots, new_vars, new_slots):
        var._set_value(new_var)
        for name, value in new_slot.items():
            slot[name]._set_value(value)


def _slot_like(var, name, fill, shape=None):
    """A non-trainable Variable ``fill(shape, dtype)`` named after ``var`` (made eagerly)."""
    shape = tuple(var._v.shape) if shape is None else shape
    dtype = var._v.dtype
    name = f"{_base_name(var)}_{_KERAS_SLOT_NAMES.get(name, name)}"
    return KerasVariable(lambda shape, dtype: fill(shape, dtype.as_numpy_dtype), shape=shape, dtype=dtype,
                         trainable=False, name=name)


# Keras 3's names of the slots companion keys as TF 2's optimizers did
_KERAS_SLOT_NAMES = {"m": "momentum", "v": "velocity", "vhat": "velocity_hat", "u": "norm"}


def _base_name(var):
    """Keras 3 names a slot after its variable's path, '/' as '_' ('sequential_dense_kernel'); a plain
    Variable has no path: its full name then, ':' as '_' ('w_0' for tf.Variable(..., name='w'))."""
    return getattr(var, "path", var.name).replace("/", "_").replace(":", "_")


def _checked_variable(var):
    if not getattr(var, "_is_variable", False):
        raise TypeError("apply_gradients expects (gradient, Variable) pairs; a plain tensor "
                        f"cannot be updated. Received: {var!r}")
    return var


def _as_float(value):
    try:
        return float(value)
    except (TypeError, ValueError):
        raise TypeError("`learning_rate` must be a float or a keras.optimizers.schedules."
                        f"LearningRateSchedule. Received: learning_rate={value!r}") from None


def _check_clipping(clipnorm, clipvalue, global_clipnorm):
    given = {k: v for k, v in [("clipnorm", clipnorm), ("clipvalue", clipvalue),
                               ("global_clipnorm", global_clipnorm)] if v is not None}
    if len(given) > 1:
        raise ValueError("Only one of `clipnorm`, `clipvalue` and `global_clipnorm` can be set. "
                         f"Received: {given}")
    for key, value in given.items():
        if not value > 0:
            raise ValueError(f"`{key}` must be a positive number. Received: {key}={value!r}")


_IGNORED = {"weight_decay", "use_ema", "ema_momentum", "ema_overwrite_frequency",
            "jit_compile", "is_legacy_optimizer", "loss_scale_factor",
            "gradient_accumulation_steps", "decay"}


def _check_ema(momentum, frequency):
    if isinstance(momentum, bool) or not isinstance(momentum, (int, float)) or not 0 <= momentum <= 1:
        raise ValueError(f"`ema_momentum` must be in the range [0, 1]. Received: ema_momentum={momentum!r}")
    if frequency and (isinstance(frequency, bool) or not isinstance(frequency, int) or frequency < 1):
        raise ValueError(f"`ema_overwrite_frequency` must be an integer >= 1 or None. Received: "
                         f"ema_overwrite_frequency={frequency!r}")


def _check_kwargs(kwargs):
    unknown = set(kwargs) - _IGNORED
    if unknown:
        raise TypeError(f"Unexpected keyword argument(s) for an optimizer: {sorted(unknown)}")
    for key in ("decay",):
        if kwargs.get(key):
            raise NotImplementedError(f"`{key}` is not supported by companion optimizers yet "
                                      f"(use AdamW for weight decay). Received: {key}={kwargs[key]!r}")
