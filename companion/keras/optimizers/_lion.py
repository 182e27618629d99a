"""`Lion`: the sign of an interpolated momentum as the step (Chen et al., 2023)."""

import jax.numpy as jnp

from companion.keras.optimizers._optimizer import Optimizer


class Lion(Optimizer):
    """Lion, TensorFlow's ``tf.keras.optimizers.Lion`` (Keras 3's update)::

        w = w - lr * sign(beta_1 * m + (1 - beta_1) * g)
        m = beta_2 * m + (1 - beta_2) * g

    Example:
        >>> import companion as tf
        >>> opt = tf.keras.optimizers.Lion(learning_rate=0.1)
        >>> var = tf.Variable(1.0)
        >>> opt.minimize(lambda: var ** 2 / 2.0, [var])
        >>> round(float(var.numpy()), 4)
        0.9
    """

    _slot_names = ("momentum",)

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.99, name=None, **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        if beta_1 <= 0 or beta_1 > 1:
            raise ValueError("Argument `beta_1` must be in the [0, 1] range. Otherwise, the optimizer "
                             f"degenerates to SignSGD. Received: beta_1={beta_1}.")
        self.beta_1, self.beta_2 = float(beta_1), float(beta_2)

    def _update(self, var, grad, slots, lr, step):
        m = slots["momentum"]
        new_var = var - lr * jnp.sign(m * self.beta_1 + grad * (1.0 - self.beta_1))
        return new_var, {"momentum": m * self.beta_2 + grad * (1.0 - self.beta_2)}

    def get_config(self):
        return {**super().get_config(), "beta_1": self.beta_1, "beta_2": self.beta_2}
