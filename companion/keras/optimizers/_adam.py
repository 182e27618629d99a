"""`Adam`: adaptive moment estimation, with Keras's bias correction folded into the step size."""

import jax.numpy as jnp

from companion.keras.optimizers._optimizer import Optimizer


class Adam(Optimizer):
    """Adam, TensorFlow's ``tf.keras.optimizers.Adam``.

    Update rule at step ``t`` (1-based) for variable ``w`` with gradient ``g`` (Keras's)::

        m = m + (g - m) * (1 - beta_1)
        v = v + (g**2 - v) * (1 - beta_2)
        v_hat = max(v_hat, v);  v = v_hat                  (amsgrad=True only)
        lr_t = lr * sqrt(1 - beta_2**t) / (1 - beta_1**t)
        w = w - lr_t * m / (sqrt(v) + epsilon)

    Example:
        >>> import companion as tf
        >>> opt = tf.keras.optimizers.Adam(learning_rate=0.1)
        >>> var = tf.Variable(1.0)
        >>> opt.minimize(lambda: var ** 2 / 2.0, [var])
        >>> round(float(var.numpy()), 4)
        0.9
    """

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 amsgrad=False, name=None, **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        self.beta_1 = float(beta_1)
        self.beta_2 = float(beta_2)
        self.epsilon = float(epsilon)
        self.amsgrad = bool(amsgrad)
        self._slot_names = ("m", "v", "vhat") if self.amsgrad else ("m", "v")

    def _update(self, var, grad, slots, lr, step):
        new = adam_moments(grad, slots, self.beta_1, self.beta_2, self.amsgrad, self._square(grad))
        v = new["vhat"] if self.amsgrad else new["v"]
        lr_t = lr * jnp.sqrt(1 - self.beta_2 ** step) / (1 - self.beta_1 ** step)
        return var - lr_t * new["m"] / (jnp.sqrt(v) + self.epsilon), new

    def get_config(self):
        return {**super().get_config(), "beta_1": self.beta_1, "beta_2": self.beta_2,
                "epsilon": self.epsilon, "amsgrad": self.amsgrad}


def adam_moments(grad, slots, beta_1, beta_2, amsgrad, square):
    """Adam's moment updates (shared with AdamW): the new ``m``, ``v`` (and ``vhat``);
    ``square`` is the squared gradient (`Optimizer._square`)."""
    m = slots["m"] + (grad - slots["m"]) * (1 - beta_1)
    v = slots["v"] + (square - slots["v"]) * (1 - beta_2)
    if amsgrad:
        return {"m": m, "v": v, "vhat": jnp.maximum(slots["vhat"], v)}
    return {"m": m, "v": v}
