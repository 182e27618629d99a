"""`Adamax`: Adam with the infinity norm of past gradients in place of their second moment."""

import jax.numpy as jnp

from companion.keras.optimizers._optimizer import Optimizer


class Adamax(Optimizer):
    """Adamax, TensorFlow's ``tf.keras.optimizers.Adamax``.

    Update rule at step ``t`` (1-based) for variable ``w`` with gradient ``g`` (Keras's)::

        m = m + (g - m) * (1 - beta_1)
        u = max(beta_2 * u, abs(g))
        w = w - lr / (1 - beta_1**t) * m / (u + epsilon)

    Example:
        >>> import companion as tf
        >>> opt = tf.keras.optimizers.Adamax(learning_rate=0.1)
        >>> var = tf.Variable(1.0)
        >>> opt.minimize(lambda: var ** 2 / 2.0, [var])
        >>> round(float(var.numpy()), 4)
        0.9
    """

    _slot_names = ("m", "u")

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, name=None, **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        self.beta_1 = float(beta_1)
        self.beta_2 = float(beta_2)
        self.epsilon = float(epsilon)

    def _update(self, var, grad, slots, lr, step):
        m = slots["m"] + (grad - slots["m"]) * (1 - self.beta_1)
        u = jnp.maximum(self.beta_2 * slots["u"], jnp.abs(grad))
        return var - lr / (1 - self.beta_1 ** step) * m / (u + self.epsilon), {"m": m, "u": u}

    def get_config(self):
        return {**super().get_config(), "beta_1": self.beta_1, "beta_2": self.beta_2,
                "epsilon": self.epsilon}
