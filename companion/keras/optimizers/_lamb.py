"""`Lamb`: Adam's step rescaled per variable by the trust ratio ``|w| / |step|`` (You et al., 2019)."""

import jax.numpy as jnp

from companion.keras.optimizers._optimizer import Optimizer


class Lamb(Optimizer):
    """LAMB, TensorFlow's ``tf.keras.optimizers.Lamb`` (Keras 3's update, step ``t`` 1-based)::

        m += (g - m) * (1 - beta_1);  v += (g**2 - v) * (1 - beta_2)
        update = m / (1 - beta_1**t) / (sqrt(v / (1 - beta_2**t)) + epsilon)
        w -= (|w| / |update| if both norms > 0 else 1) * lr * update

    Example:
        >>> import companion as tf
        >>> opt = tf.keras.optimizers.Lamb(learning_rate=0.1)
        >>> var = tf.Variable(1.0)
        >>> opt.minimize(lambda: var ** 2 / 2.0, [var])
        >>> round(float(var.numpy()), 4)
        0.9
    """

    _slot_names = ("momentum", "velocity")

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, name=None, **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        self.beta_1, self.beta_2, self.epsilon = float(beta_1), float(beta_2), float(epsilon)

    def _update(self, var, grad, slots, lr, step):
        m = slots["momentum"] + (grad - slots["momentum"]) * (1 - self.beta_1)
        v = slots["velocity"] + (jnp.square(grad) - slots["velocity"]) * (1 - self.beta_2)
        update = m / (1.0 - self.beta_1 ** step) / (jnp.sqrt(v / (1.0 - self.beta_2 ** step)) + self.epsilon)
        w_norm = jnp.sqrt(jnp.sum(jnp.square(var)))
        u_norm = jnp.sqrt(jnp.sum(jnp.square(update)))
        ratio = jnp.where((w_norm > 0) & (u_norm > 0), w_norm / jnp.where(u_norm > 0, u_norm, 1), 1.0)
        return var - ratio * lr * update, {"momentum": m, "velocity": v}

    def get_config(self):
        return {**super().get_config(), "beta_1": self.beta_1, "beta_2": self.beta_2,
                "epsilon": self.epsilon}
