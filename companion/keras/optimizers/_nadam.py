"""`Nadam`: Adam with Nesterov momentum (Keras's momentum-cache schedule)."""

import jax.numpy as jnp
import numpy as np

from companion.keras.optimizers._optimizer import Optimizer, _slot_like


class Nadam(Optimizer):
    """Nadam, TensorFlow's ``tf.keras.optimizers.Nadam``.

    Update rule at step ``t`` (1-based) for variable ``w`` with gradient ``g`` (Keras's)::

        u_t = beta_1 * (1 - 0.5 * 0.96**t);  u_next = beta_1 * (1 - 0.5 * 0.96**(t + 1))
        u_product = u_product * u_t                        (starts at 1)
        m = m + (g - m) * (1 - beta_1)
        v = v + (g**2 - v) * (1 - beta_2)
        m_hat = u_next * m / (1 - u_product * u_next) + (1 - u_t) * g / (1 - u_product)
        v_hat = v / (1 - beta_2**t)
        w = w - lr * m_hat / (sqrt(v_hat) + epsilon)

    Keras keeps one ``u_product`` per optimizer; here each variable keeps its own scalar
    copy (the same numbers, in that variable's dtype).

    Example:
        >>> import companion as tf
        >>> opt = tf.keras.optimizers.Nadam(learning_rate=0.1)
        >>> var = tf.Variable(1.0)
        >>> opt.minimize(lambda: var ** 2 / 2.0, [var])
        >>> round(float(var.numpy()), 4)
        0.8937
    """

    _slot_names = ("momentum", "velocity", "u_product")

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 name=None, **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        self.beta_1 = float(beta_1)
        self.beta_2 = float(beta_2)
        self.epsilon = float(epsilon)

    def _new_slot(self, var, name):
        if name == "u_product":
            return _slot_like(var, name, np.ones, shape=())
        return super()._new_slot(var, name)

    def _update(self, var, grad, slots, lr, step):
        b1, b2 = self.beta_1, self.beta_2
        u_t = b1 * (1.0 - 0.5 * jnp.power(0.96, step))
        u_next = b1 * (1.0 - 0.5 * jnp.power(0.96, step + 1))
        u_product = slots["u_product"] * u_t
        m = slots["momentum"] + (grad - slots["momentum"]) * (1 - b1)
        v = slots["velocity"] + (self._square(grad) - slots["velocity"]) * (1 - b2)
        m_hat = u_next * m / (1 - u_product * u_next) + (1 - u_t) * grad / (1 - u_product)
        v_hat = v / (1 - b2 ** step)
        new_var = var - m_hat * lr / (jnp.sqrt(v_hat) + self.epsilon)
        return new_var, {"momentum": m, "velocity": v, "u_product": u_product}

    def get_config(self):
        return {**super().get_config(), "beta_1": self.beta_1, "beta_2": self.beta_2,
                "epsilon": self.epsilon}
