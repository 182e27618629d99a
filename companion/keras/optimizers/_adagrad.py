"""`Adagrad`: per-coordinate step sizes from the accumulated squared gradients."""

import jax.numpy as jnp
import numpy as np

from companion.keras.optimizers._optimizer import Optimizer, _slot_like


class Adagrad(Optimizer):
    """Adagrad, TensorFlow's ``tf.keras.optimizers.Adagrad``.

    Update rule for variable ``w`` with gradient ``g`` (Keras's; ``acc`` starts at
    ``initial_accumulator_value``)::

        acc = acc + g**2
        w = w - lr * g / sqrt(acc + epsilon)

    Example:
        >>> import companion as tf
        >>> opt = tf.keras.optimizers.Adagrad(learning_rate=0.1)
        >>> var = tf.Variable(1.0)
        >>> opt.minimize(lambda: var ** 2 / 2.0, [var])
        >>> round(float(var.numpy()), 4)
        0.9047
    """

    _slot_names = ("accumulator",)

    def __init__(self, learning_rate=0.001, initial_accumulator_value=0.1, epsilon=1e-7,
                 name=None, **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        self.initial_accumulator_value = float(initial_accumulator_value)
        self.epsilon = float(epsilon)

    def _new_slot(self, var, name):
        fill = self.initial_accumulator_value
        return _slot_like(var, name, lambda shape, dtype: np.full(shape, fill, dtype))

    def _update(self, var, grad, slots, lr, step):
        acc = slots["accumulator"] + self._square(grad)
        return var - lr * grad / jnp.sqrt(acc + self.epsilon), {"accumulator": acc}

    def get_config(self):
        return {**super().get_config(), "initial_accumulator_value": self.initial_accumulator_value,
                "epsilon": self.epsilon}
