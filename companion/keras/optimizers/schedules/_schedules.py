"""Learning-rate schedules: functions of the step count, with Keras's formulas."""

import math

import jax.numpy as jnp

from companion._core._convert import as_input
from companion._core._tensor import Tensor
from companion.keras import _registry


class LearningRateSchedule:
    """Base class: ``schedule(step)`` returns the float32 learning rate at ``step``.

    Subclasses implement ``_at(step)`` on a float32 ``jax`` array and `get_config`.
    """

    def __call__(self, step):
        step = as_input(step)._value.astype(jnp.float32)
        return Tensor(self._at(step))

    def _at(self, step):
        raise NotImplementedError(f"{type(self).__name__} must implement _at(step).")

    def get_config(self):
        raise NotImplementedError(f"{type(self).__name__} must implement get_config().")

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class _RateDecay(LearningRateSchedule):
    """A decay by ``decay_rate`` per ``decay_steps`` steps (the progress ``step / decay_steps``
    floored with ``staircase=True``); subclasses say how the rate applies (`_decayed`)."""

    _default_name = None

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False, name=None):
        _check_positive("decay_steps", decay_steps)
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.decay_rate = decay_rate
        self.staircase = staircase
        self.name = self._default_name if name is None else name

    def _at(self, step):
        p = step / jnp.float32(self.decay_steps)
        if self.staircase:
            p = jnp.floor(p)
        return self._decayed(jnp.float32(self.initial_learning_rate), jnp.float32(self.decay_rate), p)

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate, "decay_steps": self.decay_steps,
                "decay_rate": self.decay_rate, "staircase": self.staircase, "name": self.name}


class ExponentialDecay(_RateDecay):
    """``initial_learning_rate * decay_rate ** (step / decay_steps)``.

    With ``staircase=True`` the exponent is ``floor(step / decay_steps)``.

    Example:
        >>> import companion as tf
        >>> schedule = tf.keras.optimizers.schedules.ExponentialDecay(0.1, 10, 0.5)
        >>> round(float(schedule(20)), 6)
        0.025
    """

    _default_name = "ExponentialDecay"

    @staticmethod
    def _decayed(initial, rate, progress):
        return initial * jnp.power(rate, progress)


class PiecewiseConstantDecay(LearningRateSchedule):
    """``values[0]`` while ``step <= boundaries[0]``, ``values[i]`` while
    ``boundaries[i-1] < step <= boundaries[i]``, and ``values[-1]`` after the last boundary.

    Example:
        >>> import companion as tf
        >>> schedule = tf.keras.optimizers.schedules.PiecewiseConstantDecay([10, 20], [1.0, 0.5, 0.1])
        >>> [float(schedule(s)) for s in (10, 11, 21)]
        [1.0, 0.5, 0.10000000149011612]
    """

    def __init__(self, boundaries, values, name="PiecewiseConstant"):
        if len(values) != len(boundaries) + 1:
            raise ValueError("`values` must have one more element than `boundaries`. Received: "
                             f"boundaries={boundaries!r}, values={values!r}")
        self.boundaries = list(boundaries)
        self.values = list(values)
        self.name = name

    def _at(self, step):
        boundaries = jnp.asarray(self.boundaries, jnp.float32)
        index = jnp.searchsorted(boundaries, step, side="left")
        return jnp.asarray(self.values, jnp.float32)[index]

    def get_config(self):
        return {"boundaries": self.boundaries, "values": self.values, "name": self.name}


class CosineDecay(LearningRateSchedule):
    """Cosine decay from ``initial_learning_rate`` to ``alpha`` times it over ``decay_steps``.

    Without warmup: ``lr(step) = initial * ((1 - alpha) * c + alpha)`` with
    ``c = 0.5 * (1 + cos(pi * min(step, decay_steps) / decay_steps))``. With
    ``warmup_target``: a linear ramp from ``initial_learning_rate`` to ``warmup_target``
    over ``warmup_steps``, then the cosine decay of ``warmup_target``.

    Example:
        >>> import companion as tf
        >>> schedule = tf.keras.optimizers.schedules.CosineDecay(1.0, 10)
        >>> [round(float(schedule(s)), 6) for s in (0, 5, 10, 20)]
        [1.0, 0.5, 0.0, 0.0]
    """

    def __init__(self, initial_learning_rate, decay_steps, alpha=0.0, name="CosineDecay",
                 warmup_target=None, warmup_steps=0):
        _check_positive("decay_steps", decay_steps)
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.alpha = alpha
        self.name = name
        self.warmup_target = warmup_target
        self.warmup_steps = warmup_steps

    def _at(self, step):
        if self.warmup_target is None:
            return self._decay(jnp.minimum(step, self.decay_steps), self.initial_learning_rate)
        step = jnp.minimum(step, self.decay_steps + self.warmup_steps)
        warmup_steps = max(self.warmup_steps, 1)
        ramp = (self.warmup_target - self.initial_learning_rate) * (step / warmup_steps)
        warmup = jnp.float32(self.initial_learning_rate) + ramp.astype(jnp.float32)
        decayed = self._decay(step - self.warmup_steps, self.warmup_target)
        return jnp.where(step < self.warmup_steps, warmup, decayed)

    def _decay(self, step, initial):
        fraction = step / jnp.float32(self.decay_steps)
        cosine = 0.5 * (1.0 + jnp.cos(jnp.float32(math.pi) * fraction))
        return (jnp.float32((1 - self.alpha)) * cosine + jnp.float32(self.alpha)) * jnp.float32(initial)

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate, "decay_steps": self.decay_steps,
                "alpha": self.alpha, "name": self.name, "warmup_target": self.warmup_target,
                "warmup_steps": self.warmup_steps}


class PolynomialDecay(LearningRateSchedule):
    """From ``initial_learning_rate`` to ``end_learning_rate`` over ``decay_steps`` along
    ``(1 - step / decay_steps) ** power``, then constant; with ``cycle=True`` it decays again
    over each multiple of ``decay_steps``.

    Example:
        >>> import companion as tf
        >>> schedule = tf.keras.optimizers.schedules.PolynomialDecay(1.0, 10, 0.1)
        >>> [round(float(schedule(s)), 4) for s in (0, 5, 20)]
        [1.0, 0.55, 0.1]
    """

    def __init__(self, initial_learning_rate, decay_steps, end_learning_rate=0.0001, power=1.0,
                 cycle=False, name="PolynomialDecay"):
        _check_positive("decay_steps", decay_steps)
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.end_learning_rate = end_learning_rate
        self.power = power
        self.cycle = cycle
        self.name = name

    def _at(self, step):
        decay_steps = jnp.float32(self.decay_steps)
        if self.cycle:
            decay_steps = decay_steps * jnp.where(step == 0, 1.0, jnp.ceil(step / decay_steps))
        else:
            step = jnp.minimum(step, decay_steps)
        start, end = jnp.float32(self.initial_learning_rate), jnp.float32(self.end_learning_rate)
        return (start - end) * jnp.power(1 - step / decay_steps, jnp.float32(self.power)) + end

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate, "decay_steps": self.decay_steps,
                "end_learning_rate": self.end_learning_rate, "power": self.power, "cycle": self.cycle,
                "name": self.name}


class InverseTimeDecay(_RateDecay):
    """``initial_learning_rate / (1 + decay_rate * step / decay_steps)`` (the quotient floored
    with ``staircase=True``).

    Example:
        >>> import companion as tf
        >>> schedule = tf.keras.optimizers.schedules.InverseTimeDecay(1.0, 10, 0.5)
        >>> round(float(schedule(20)), 4)
        0.5
    """

    _default_name = "InverseTimeDecay"

    @staticmethod
    def _decayed(initial, rate, progress):
        return initial / (1 + rate * progress)


class CosineDecayRestarts(LearningRateSchedule):
    """Cosine decay with warm restarts (SGDR): periods of ``first_decay_steps``, each ``t_mul``
    times longer than the last and starting ``m_mul`` times lower; ``alpha`` is the floor.

    Example:
        >>> import companion as tf
        >>> schedule = tf.keras.optimizers.schedules.CosineDecayRestarts(1.0, 10)
        >>> [round(float(schedule(s)), 4) for s in (0, 5, 10)]
        [1.0, 0.5, 1.0]
    """

    def __init__(self, initial_learning_rate, first_decay_steps, t_mul=2.0, m_mul=1.0, alpha=0.0,
                 name="SGDRDecay"):
        _check_positive("first_decay_steps", first_decay_steps)
        self.initial_learning_rate = initial_learning_rate
        self.first_decay_steps = first_decay_steps
        self.t_mul = t_mul
        self.m_mul = m_mul
        self.alpha = alpha
        self.name = name

    def _at(self, step):
        fraction = step / jnp.float32(self.first_decay_steps)
        t_mul = jnp.float32(self.t_mul)
        if self.t_mul == 1.0:
            restart = jnp.floor(fraction)
            fraction = fraction - restart
        else:
            restart = jnp.floor(jnp.log(1 - fraction * (1 - t_mul)) / jnp.log(t_mul))
            done = (1 - t_mul ** restart) / (1 - t_mul)
            fraction = (fraction - done) / t_mul ** restart
        cosine = 0.5 * jnp.float32(self.m_mul) ** restart * (1 + jnp.cos(jnp.float32(math.pi) * fraction))
        alpha = jnp.float32(self.alpha)
        return jnp.float32(self.initial_learning_rate) * ((1 - alpha) * cosine + alpha)

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "first_decay_steps": self.first_decay_steps, "t_mul": self.t_mul, "m_mul": self.m_mul,
                "alpha": self.alpha, "name": self.name}


def serialize(schedule):
    """Keras 3's ``{"module", "class_name", "config", "registered_name"}`` for a schedule."""
    return _registry.serialize(schedule, object, None, "keras.optimizers.schedules")


def deserialize(config, custom_objects=None):
    """The schedule described by `serialize`'s dictionary."""
    classes = {cls.__name__: cls for cls in (ExponentialDecay, PiecewiseConstantDecay, CosineDecay,
                                             PolynomialDecay, InverseTimeDecay, CosineDecayRestarts)}
    classes.update(custom_objects or {})
    name = config.get("class_name")
    if name not in classes:
        raise ValueError(f"Unknown learning rate schedule {name!r}. Known: {sorted(classes)}; pass "
                         "custom ones in `custom_objects`.")
    return classes[name].from_config(config["config"])


def _check_positive(name, value):
    if not value > 0:
        raise ValueError(f"`{name}` must be positive. Received: {name}={value!r}")
