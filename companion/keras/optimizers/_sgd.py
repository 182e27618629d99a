"""`SGD`: gradient descent with optional (Nesterov) momentum."""

from companion.keras.optimizers._optimizer import Optimizer


class SGD(Optimizer):
    """Gradient descent (with momentum), TensorFlow's ``tf.keras.optimizers.SGD``.

    Update rule for variable ``w`` with gradient ``g`` (Keras's)::

        momentum == 0:  w = w - lr * g
        otherwise:      m = momentum * m - lr * g
                        w = w + m                          (nesterov=False)
                        w = w + momentum * m - lr * g      (nesterov=True)

    Example:
        >>> import companion as tf
        >>> opt = tf.keras.optimizers.SGD(learning_rate=0.1, momentum=0.9)
        >>> var = tf.Variable(1.0)
        >>> opt.minimize(lambda: var ** 2 / 2.0, [var])
        >>> round(float(var.numpy()), 6)
        0.9
    """

    def __init__(self, learning_rate=0.01, momentum=0.0, nesterov=False, name=None, **kwargs):
        if not 0 <= momentum <= 1:
            raise ValueError(f"`momentum` must be in [0, 1]. Received: momentum={momentum!r}")
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        self.momentum = float(momentum)
        self.nesterov = bool(nesterov)
        self._slot_names = ("momentum",) if self.momentum > 0 else ()

    def _update(self, var, grad, slots, lr, step):
        if not self._slot_names:
            return var - lr * grad, {}
        m = self.momentum * slots["momentum"] - lr * grad
        if self.nesterov:
            return var + self.momentum * m - lr * grad, {"momentum": m}
        return var + m, {"momentum": m}

    def get_config(self):
        return {**super().get_config(), "momentum": self.momentum, "nesterov": self.nesterov}
