"""`RMSprop`: gradients divided by a running root mean square (optax's ``scale_by_rms``)."""

import jax.numpy as jnp
import optax

from companion.keras.optimizers._optimizer import Optimizer


class RMSprop(Optimizer):
    """RMSprop, TensorFlow's ``tf.keras.optimizers.RMSprop``.

    Update rule for variable ``w`` with gradient ``g`` (Keras's; epsilon inside the root)::

        ms = rho * ms + (1 - rho) * g**2
        mg = rho * mg + (1 - rho) * g                      (centered=True only)
        denominator = ms - mg**2 + epsilon  if centered  else  ms + epsilon
        increment = lr * g / sqrt(denominator)
        mom = momentum * mom + increment;  w = w - mom     (momentum > 0)
        w = w - increment                                  (momentum == 0)

    The moving averages and scaling are optax's ``scale_by_rms`` / ``scale_by_stddev``
    with ``eps_in_sqrt=True``, which compute exactly these.

    Example:
        >>> import companion as tf
        >>> opt = tf.keras.optimizers.RMSprop(learning_rate=0.1)
        >>> var = tf.Variable(10.0)
        >>> opt.minimize(lambda: var ** 2 / 2.0, [var])
        >>> round(float(var.numpy()), 5)
        9.68377
    """

    def __init__(self, learning_rate=0.001, rho=0.9, momentum=0.0, epsilon=1e-7, centered=False,
                 name=None, **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        self.rho = float(rho)
        self.momentum = float(momentum)
        self.epsilon = float(epsilon)
        self.centered = bool(centered)
        names = ("velocity",) + (("momentum",) if self.momentum > 0 else ())
        self._slot_names = names + (("average_gradient",) if self.centered else ())

    def _update(self, var, grad, slots, lr, step):
        scaled, new = self._scaled(grad, slots)
        increment = lr * scaled
        if self.momentum > 0:
            new["momentum"] = self.momentum * slots["momentum"] + increment
            return var - new["momentum"], new
        return var - increment, new

    def _scaled(self, grad, slots):
        """``g / sqrt(denominator)`` and the new moving averages, computed by optax (written out for
        an `IndexedSlices` gradient, whose squares optax cannot be given)."""
        if getattr(self, "_grad_square", None) is not None:
            velocity = self.rho * slots["velocity"] + (1 - self.rho) * self._square(grad)
            new = {"velocity": velocity}
            if self.centered:
                new["average_gradient"] = self.rho * slots["average_gradient"] + (1 - self.rho) * grad
                velocity = velocity - jnp.square(new["average_gradient"])
            return grad / jnp.sqrt(velocity + self.epsilon), new
        if self.centered:
            tx = optax.scale_by_stddev(decay=self.rho, eps=self.epsilon, eps_in_sqrt=True)
            state = optax.ScaleByRStdDevState(mu=slots["average_gradient"], nu=slots["velocity"])
            scaled, state = tx.update(grad, state)
            return scaled, {"velocity": state.nu, "average_gradient": state.mu}
        tx = optax.scale_by_rms(decay=self.rho, eps=self.epsilon, eps_in_sqrt=True)
        scaled, state = tx.update(grad, optax.ScaleByRmsState(nu=slots["velocity"]))
        return scaled, {"velocity": state.nu}

    def get_config(self):
        return {**super().get_config(), "rho": self.rho, "momentum": self.momentum,
                "epsilon": self.epsilon, "centered": self.centered}
