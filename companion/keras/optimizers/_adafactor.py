"""`Adafactor`: Adam-like steps with a factored second moment (Shazeer and Stern, 2018), Keras 3's."""

import jax.numpy as jnp
import numpy as np

from companion.keras.optimizers._optimizer import Optimizer, _slot_like
from companion.keras.optimizers.schedules import LearningRateSchedule


class Adafactor(Optimizer):
    """Adafactor, TensorFlow's ``tf.keras.optimizers.Adafactor`` (Keras 3's update).

    For a weight of rank >= 2 the second moment is kept as a row factor ``r`` (the mean of
    ``g**2 + epsilon_1`` over the last axis) and a column factor ``c`` (over the second last),
    so a ``(m, n)`` kernel stores ``m + n`` numbers instead of ``m * n``::

        t = iterations + 1;  rho = min(lr, 1 / sqrt(t));  beta_2 = 1 - t ** beta_2_decay
        r = beta_2 * r + (1 - beta_2) * mean(g**2 + epsilon_1, axis=-1)
        c = beta_2 * c + (1 - beta_2) * mean(g**2 + epsilon_1, axis=-2)
        v = (r / mean(r, axis=-1))[..., None] * c[..., None, :]      (rank < 2: v = beta_2 * v + ...)
        u = g / sqrt(v);  u = u / max(1, rms(u) / clip_threshold)
        w = w - max(epsilon_2, rms(w)) * rho * u

    With ``relative_step`` (the default) a constant learning rate is also capped at ``1 / sqrt(t)``.

    Example:
        >>> import companion as tf
        >>> opt = tf.keras.optimizers.Adafactor(learning_rate=0.5)
        >>> var = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
        >>> opt.minimize(lambda: tf.reduce_sum(var ** 2), [var])
        >>> [r.name for r in opt.variables[2:]][:2], var.shape
        (['Variable_0_r', 'Variable_0_c'], TensorShape([2, 2]))
    """

    _slot_names = ("r", "c", "velocity")

    def __init__(self, learning_rate=0.001, beta_2_decay=-0.8, epsilon_1=1e-30, epsilon_2=1e-3,
                 clip_threshold=1.0, relative_step=True, name=None, **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        self.beta_2_decay = float(beta_2_decay)
        self.epsilon_1 = float(epsilon_1)
        self.epsilon_2 = float(epsilon_2)
        self.clip_threshold = float(clip_threshold)
        self.relative_step = bool(relative_step)

    def _new_slot(self, var, name):
        shape = tuple(var._v.shape)
        if name == "velocity":
            return _slot_like(var, name, np.zeros)
        if len(shape) < 2:  # nothing to factor: a scalar placeholder, as Keras keeps one
            return _slot_like(var, name, np.zeros, shape=())
        factored = shape[:-1] if name == "r" else shape[:-2] + shape[-1:]
        return _slot_like(var, name, np.zeros, shape=factored)

    def _update(self, var, grad, slots, lr, step):
        if self.relative_step and not isinstance(self._learning_rate, LearningRateSchedule):
            lr = jnp.minimum(lr, 1.0 / jnp.sqrt(step))
        rho = jnp.minimum(lr, 1.0 / jnp.sqrt(step))
        alpha = jnp.maximum(jnp.asarray(self.epsilon_2, var.dtype), _rms(var)) * rho
        square = jnp.square(grad) + jnp.asarray(self.epsilon_1, var.dtype)
        beta_2 = 1.0 - jnp.power(step, jnp.asarray(self.beta_2_decay, var.dtype))
        r, c = slots["r"], slots["c"]
        if var.ndim >= 2:
            r = beta_2 * r + (1.0 - beta_2) * jnp.mean(square, axis=-1)
            c = beta_2 * c + (1.0 - beta_2) * jnp.mean(square, axis=-2)
            v = (r / jnp.mean(r, axis=-1, keepdims=True))[..., None] * c[..., None, :]
        else:
            v = beta_2 * slots["velocity"] + (1.0 - beta_2) * square
        u = grad / jnp.sqrt(v)
        u = u / jnp.maximum(1.0, _rms(u) / self.clip_threshold)
        return var - alpha * u, {"r": r, "c": c, "velocity": v}

    def get_config(self):
        return {**super().get_config(), "beta_2_decay": self.beta_2_decay, "epsilon_1": self.epsilon_1,
                "epsilon_2": self.epsilon_2, "clip_threshold": self.clip_threshold,
                "relative_step": self.relative_step}


def _rms(x):
    return jnp.sqrt(jnp.mean(jnp.square(x)))
