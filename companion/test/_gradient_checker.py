"""`compute_gradient`: TF's gradient checker (``tf.test.compute_gradient``) — the
Jacobian a tape computes beside a central finite-difference one, for checking a gradient."""

import numpy as np

from companion._core._convert import convert_to_tensor
from companion._tape._gradient_tape import GradientTape


def compute_gradient(f, x, delta=None):
    """The theoretical and numerical Jacobians of ``f`` for each argument in ``x``.

    Args:
        f: a function of ``len(x)`` tensors returning one tensor.
        x: a list or tuple of the arguments (tensors, arrays, numbers).
        delta: the finite-difference step (default ``1/1024``, exact in binary, as TF).

    Returns:
        ``(theoretical, numerical)``: two lists with one 2-D NumPy array per argument, of shape
        ``(y_size, x_size)`` (the numbers of elements of ``f(*x)`` and of that argument).

    Example:
        >>> import companion as tf
        >>> theoretical, numerical = tf.test.compute_gradient(lambda v: v * v, [tf.constant([1.0, 2.0])])
        >>> theoretical[0].tolist(), numerical[0].tolist()
        ([[2.0, 0.0], [0.0, 4.0]], [[2.0, 0.0], [0.0, 4.0]])
    """
    if not isinstance(x, (list, tuple)):
        raise ValueError("`x` must be a list or tuple of values convertible to a Tensor (the arguments "
                         f"to `f`), not a {type(x).__name__}. Wrap a single argument: [x].")
    delta = 1.0 / 1024 if delta is None else delta
    values = [np.array(convert_to_tensor(v).numpy()) for v in x]
    for value in values:
        if value.dtype.kind != "f":
            raise TypeError(f"compute_gradient needs real floating-point arguments. Received dtype "
                            f"{value.dtype}; cast it first (complex arguments are not supported).")
    y = np.asarray(convert_to_tensor(f(*[convert_to_tensor(v) for v in values])).numpy())
    theoretical = [_theoretical(f, values, i, y) for i in range(len(values))]
    numerical = [_numerical(f, values, i, y, delta) for i in range(len(values))]
    return theoretical, numerical


def _theoretical(f, values, index, y):
    jacobian = np.zeros((y.size, values[index].size), values[index].dtype)
    for row in range(y.size):
        tensors = [convert_to_tensor(v) for v in values]
        with GradientTape() as tape:
            tape.watch(tensors[index])
            out = f(*tensors)
        seed = np.zeros(y.size, y.dtype)
        seed[row] = 1
        grad = tape.gradient(out, tensors[index], output_gradients=convert_to_tensor(seed.reshape(y.shape)))
        if grad is not None:
            jacobian[row] = np.asarray(convert_to_tensor(grad).numpy()).ravel()
    return jacobian


def _numerical(f, values, index, y, delta):
    x = values[index].copy()
    jacobian = np.zeros((y.size, x.size), x.dtype)
    scale = np.asarray(2 * delta, y.dtype)
    flat = x.reshape(-1)
    for col in range(x.size):
        original = flat[col]
        outputs = []
        for step in (delta, -delta):
            flat[col] = original + x.dtype.type(step)
            args = [convert_to_tensor(x if i == index else v) for i, v in enumerate(values)]
            outputs.append(np.asarray(convert_to_tensor(f(*args)).numpy()))
        flat[col] = original
        jacobian[:, col] = ((outputs[0] - outputs[1]) / scale).ravel()
    return jacobian
