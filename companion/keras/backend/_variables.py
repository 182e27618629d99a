"""Backend Variables: making one (`variable`), reading and writing values, and in-place updates.

`get_value`/`set_value` work on any Variable, Keras weights and optimizer hyper-parameters
included (``K.set_value(model.optimizer.learning_rate, 1e-3)``).
"""

import numpy as np

from companion import Variable, as_dtype, cast, init_scope, is_tensor
from companion.keras.backend._config import floatx
from companion.keras.backend._tensor_kinds import to_dense
from companion.sparse import SparseTensor


def variable(value, dtype=None, name=None, constraint=None):
    """A `Variable` holding ``value`` as ``dtype`` (`floatx` by default).

    A SciPy sparse matrix (anything with ``tocoo()``) becomes a `SparseTensor` instead.

    Example:
        >>> import companion as tf
        >>> v = tf.keras.backend.variable([[1, 2], [3, 4]])
        >>> v.dtype, v.numpy().tolist()
        (companion.float32, [[1.0, 2.0], [3.0, 4.0]])
    """
    if dtype is None:
        dtype = floatx()
    if hasattr(value, "tocoo"):
        coo = value.tocoo()
        indices = np.stack([coo.row, coo.col], axis=1).astype(np.int64)
        return SparseTensor(indices=indices, values=coo.data, dense_shape=coo.shape)
    return Variable(value, dtype=as_dtype(dtype), name=name, constraint=constraint)


def get_value(x):
    """The value of Variable or tensor ``x`` as a NumPy array (anything else is returned as it is).

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.get_value(tf.Variable([1.0, 2.0]))
        array([1., 2.], dtype=float32)
        >>> tf.keras.backend.get_value(3.0)
        3.0
    """
    if not is_tensor(x):
        return x
    with init_scope():  # a Variable read inside a function: its current value
        return x.numpy()


def eval(x):
    """The value of ``x`` as a NumPy array (a `SparseTensor` made dense first).

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.eval(tf.constant([1, 2]))
        array([1, 2], dtype=int32)
    """
    return get_value(to_dense(x))


def batch_get_value(tensors):
    """The values of a list of Variables or tensors, as NumPy arrays.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.batch_get_value([tf.Variable(1.0), tf.constant([2, 3])])
        [np.float32(1.0), array([2, 3], dtype=int32)]
    """
    return [x.numpy() for x in tensors]


def _assign(x, value):
    if not hasattr(x, "assign"):
        raise AttributeError(f"set_value() writes Variables (a tensor's value cannot change). Received: "
                             f"{type(x).__name__} {x!r}")
    x.assign(np.asarray(value, dtype=as_dtype(x.dtype).as_numpy_dtype))


def set_value(x, value):
    """Writes ``value`` (a number or array, converted to ``x``'s dtype) into Variable ``x``.

    Raises:
        AttributeError: ``x`` is not a Variable.

    Example:
        >>> import companion as tf
        >>> opt = tf.keras.optimizers.SGD(learning_rate=0.1)
        >>> tf.keras.backend.set_value(opt.learning_rate, 0.01)
        >>> float(tf.keras.backend.get_value(opt.learning_rate))
        0.009999999776482582
    """
    _assign(x, value)


def batch_set_value(tuples):
    """`set_value` for each ``(variable, value)`` pair.

    Example:
        >>> import companion as tf
        >>> a, b = tf.Variable(0.0), tf.Variable([0, 0])
        >>> tf.keras.backend.batch_set_value([(a, 1.5), (b, [1, 2])])
        >>> a.numpy(), b.numpy()
        (np.float32(1.5), array([1, 2], dtype=int32))
    """
    for x, value in tuples:
        _assign(x, value)


def update(x, new_x):
    """Sets Variable ``x`` to ``new_x``; returns ``x``.

    Example:
        >>> import companion as tf
        >>> v = tf.Variable([1.0, 2.0])
        >>> tf.keras.backend.update(v, [5.0, 6.0]).numpy()
        array([5., 6.], dtype=float32)
    """
    return x.assign(new_x)


def update_add(x, increment):
    """Adds ``increment`` to Variable ``x``; returns ``x``.

    Example:
        >>> import companion as tf
        >>> v = tf.Variable([1.0, 2.0])
        >>> tf.keras.backend.update_add(v, [0.5, 0.5]).numpy()
        array([1.5, 2.5], dtype=float32)
    """
    return x.assign_add(increment)


def update_sub(x, decrement):
    """Subtracts ``decrement`` from Variable ``x``; returns ``x``.

    Example:
        >>> import companion as tf
        >>> v = tf.Variable([1.0, 2.0])
        >>> tf.keras.backend.update_sub(v, [0.5, 0.5]).numpy()
        array([0.5, 1.5], dtype=float32)
    """
    return x.assign_sub(decrement)


def moving_average_update(x, value, momentum):
    """``x = momentum * x + (1 - momentum) * value`` in place (a running mean); returns ``x``.

    Example:
        >>> import companion as tf
        >>> v = tf.Variable(10.0)
        >>> float(tf.keras.backend.moving_average_update(v, 0.0, 0.9).numpy())
        9.0
    """
    momentum = cast(momentum, x.dtype)
    value = cast(value, x.dtype)
    return x.assign_sub((x - value) * (1 - momentum))
