"""`AdamW`: Adam with decoupled weight decay."""

from companion.keras.optimizers._adam import Adam


class AdamW(Adam):
    """AdamW, TensorFlow's ``tf.keras.optimizers.AdamW``.

    Update rule: first the decoupled weight decay ``w = w - w * weight_decay * lr``
    (Keras applies it before the step), then `Adam`'s rule.

    Example:
        >>> import companion as tf
        >>> opt = tf.keras.optimizers.AdamW(learning_rate=0.1, weight_decay=0.5)
        >>> var = tf.Variable(1.0)
        >>> _ = opt.apply_gradients([(tf.constant(0.0), var)])
        >>> round(float(var.numpy()), 4)
        0.95
    """

    def __init__(self, learning_rate=0.001, weight_decay=0.004, beta_1=0.9, beta_2=0.999,
                 epsilon=1e-7, amsgrad=False, name=None, **kwargs):
        if weight_decay is None or weight_decay < 0:
            raise ValueError("`weight_decay` must be a non-negative float for AdamW. "
                             f"Received: weight_decay={weight_decay!r}")
        super().__init__(learning_rate=learning_rate, beta_1=beta_1, beta_2=beta_2, epsilon=epsilon,
                         amsgrad=amsgrad, name=name, weight_decay=weight_decay, **kwargs)
