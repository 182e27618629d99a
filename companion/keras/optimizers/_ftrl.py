"""`Ftrl`: Follow The Regularized Leader (McMahan et al., 2013), with L1/L2 and shrinkage terms."""

import jax.numpy as jnp
import numpy as np

from companion.keras.optimizers._optimizer import Optimizer, _slot_like


class Ftrl(Optimizer):
    """FTRL-Proximal, TensorFlow's ``tf.keras.optimizers.Ftrl`` (Keras 3's update).

    Per variable ``w``, gradient ``g``, power ``p = learning_rate_power`` (-0.5)::

        acc_new = acc + g**2
        linear += g + 2 * l2_shrinkage * w - (acc_new**-p - acc**-p) / lr * w
        quadratic = acc_new**-p / lr + 2 * (l2 + beta / (2 lr))
        w = (clip(linear, -l1, l1) - linear) / quadratic

    Example:
        >>> import companion as tf
        >>> opt = tf.keras.optimizers.Ftrl(learning_rate=0.1)
        >>> var = tf.Variable(1.0)
        >>> opt.minimize(lambda: var ** 2 / 2.0, [var])
        >>> round(float(var.numpy()), 4)
        0.6031
    """

    _slot_names = ("accumulator", "linear")

    def __init__(self, learning_rate=0.001, learning_rate_power=-0.5, initial_accumulator_value=0.1,
                 l1_regularization_strength=0.0, l2_regularization_strength=0.0,
                 l2_shrinkage_regularization_strength=0.0, beta=0.0, name=None, **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        for what, value in (("initial_accumulator_value", initial_accumulator_value),
                            ("l1_regularization_strength", l1_regularization_strength),
                            ("l2_regularization_strength", l2_regularization_strength),
                            ("l2_shrinkage_regularization_strength", l2_shrinkage_regularization_strength)):
            if value < 0.0:
                raise ValueError(f"`{what}` needs to be positive or zero. Received: {what}={value}.")
        if learning_rate_power > 0.0:
            raise ValueError("`learning_rate_power` needs to be negative or zero. Received: "
                             f"learning_rate_power={learning_rate_power}.")
        self.learning_rate_power = float(learning_rate_power)
        self.initial_accumulator_value = float(initial_accumulator_value)
        self.l1_regularization_strength = float(l1_regularization_strength)
        self.l2_regularization_strength = float(l2_regularization_strength)
        self.l2_shrinkage_regularization_strength = float(l2_shrinkage_regularization_strength)
        self.beta = float(beta)

    def _new_slot(self, var, name):
        fill = self.initial_accumulator_value if name == "accumulator" else 0.0
        return _slot_like(var, name, lambda shape, dtype: np.full(shape, fill, dtype))

    def _update(self, var, grad, slots, lr, step):
        power = -self.learning_rate_power
        accum, linear = slots["accumulator"], slots["linear"]
        l2 = self.l2_regularization_strength + self.beta / (2.0 * lr)
        shrunk = grad + 2 * self.l2_shrinkage_regularization_strength * var
        new_accum = accum + jnp.square(grad)
        linear = linear + shrunk - (jnp.power(new_accum, power) - jnp.power(accum, power)) / lr * var
        quadratic = jnp.power(new_accum, power) / lr + 2 * l2
        l1 = self.l1_regularization_strength
        new_var = (jnp.clip(linear, -l1, l1) - linear) / quadratic
        return new_var, {"accumulator": new_accum, "linear": linear}

    def get_config(self):
        return {**super().get_config(), "learning_rate_power": self.learning_rate_power,
                "initial_accumulator_value": self.initial_accumulator_value,
                "l1_regularization_strength": self.l1_regularization_strength,
                "l2_regularization_strength": self.l2_regularization_strength,
                "l2_shrinkage_regularization_strength": self.l2_shrinkage_regularization_strength,
                "beta": self.beta}
