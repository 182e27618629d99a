"""Backend gradients: `stop_gradient`, and `gradients` (``tf.gradients``, which companion does not have)."""

from companion import gradients as _gradients
from companion import stop_gradient as _stop_gradient


def gradients(loss, variables):
    """Symbolic gradients (``tf.gradients``): not available in companion, use a `GradientTape`.

    TensorFlow 2 computes them only while a ``tf.function`` is traced (eagerly it raises
    RuntimeError); companion's ``tf.gradients`` has no graph to differentiate after the fact
    and raises RuntimeError in both cases, naming `GradientTape` as the replacement.

    Raises:
        RuntimeError: always.

    Example:
        >>> import companion as tf
        >>> v = tf.Variable(3.0)
        >>> try:
        ...     tf.keras.backend.gradients(v * v, [v])
        ... except RuntimeError as e:
        ...     print("RuntimeError")
        RuntimeError
    """
    return _gradients(loss, variables)


def stop_gradient(variables):
    """``variables`` (a tensor, or a list or tuple of them) treated as constants by gradients.

    For a list or tuple the result is a lazy ``map`` object over them, as in Keras.

    Example:
        >>> import companion as tf
        >>> x = tf.Variable(2.0)
        >>> with tf.GradientTape() as tape:
        ...     y = x * tf.keras.backend.stop_gradient(x)
        >>> float(tape.gradient(y, x))
        2.0
    """
    if isinstance(variables, (list, tuple)):
        return map(_stop_gradient, variables)
    return _stop_gradient(variables)
