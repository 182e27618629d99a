"""`Adadelta`: step sizes from running averages of squared gradients and squared updates."""

import jax.numpy as jnp

from companion.keras.optimizers._optimizer import Optimizer


class Adadelta(Optimizer):
    """Adadelta, TensorFlow's ``tf.keras.optimizers.Adadelta``.

    Update rule for variable ``w`` with gradient ``g`` (Keras's)::

        acc_g = rho * acc_g + (1 - rho) * g**2
        delta = -sqrt(acc_d + epsilon) * g / sqrt(acc_g + epsilon)
        acc_d = rho * acc_d + (1 - rho) * delta**2
        w = w + lr * delta

    Example:
        >>> import companion as tf
        >>> opt = tf.keras.optimizers.Adadelta(learning_rate=1.0)
        >>> var = tf.Variable(1.0)
        >>> opt.minimize(lambda: var ** 2 / 2.0, [var])
        >>> round(float(var.numpy()), 5)
        0.99859
    """

    _slot_names = ("accumulated_grad", "accumulated_delta_var")

    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-7, name=None, **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        self.rho = float(rho)
        self.epsilon = float(epsilon)

    def _update(self, var, grad, slots, lr, step):
        rho, eps = self.rho, self.epsilon
        acc_g = rho * slots["accumulated_grad"] + (1 - rho) * self._square(grad)
        ratio = jnp.sqrt(slots["accumulated_delta_var"] + eps) / jnp.sqrt(acc_g + eps)
        delta = -ratio * grad  # ratio ** 2 * square: an IndexedSlices gradient's rows squared per slice
        acc_d = rho * slots["accumulated_delta_var"] + (1 - rho) * jnp.square(ratio) * self._square(grad)
        return var + lr * delta, {"accumulated_grad": acc_g, "accumulated_delta_var": acc_d}

    def get_config(self):
        return {**super().get_config(), "rho": self.rho, "epsilon": self.epsilon}
