"""What kind of tensor a value is: symbolic (a Keras functional input), sparse, or dense."""

from companion.keras._functional._keras_tensor import KerasTensor
from companion.sparse import SparseTensor
from companion.sparse import to_dense as _sparse_to_dense


def is_keras_tensor(x):
    """Whether ``x`` is a symbolic `KerasTensor` (a ``keras.Input`` or a layer's output on one).

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.is_keras_tensor(tf.keras.Input(shape=(2,)))
        True
        >>> tf.keras.backend.is_keras_tensor(tf.zeros([2]))
        False
    """
    return isinstance(x, KerasTensor)


def is_sparse(tensor):
    """Whether ``tensor`` is a `SparseTensor`.

    Example:
        >>> import companion as tf
        >>> sparse = tf.SparseTensor(indices=[[0, 0]], values=[1.0], dense_shape=[2, 2])
        >>> tf.keras.backend.is_sparse(sparse), tf.keras.backend.is_sparse(tf.zeros([2, 2]))
        (True, False)
    """
    return isinstance(tensor, SparseTensor)


def to_dense(tensor):
    """A `SparseTensor` as a dense tensor (zeros where no value is stored); other values as they are.

    Example:
        >>> import companion as tf
        >>> sparse = tf.SparseTensor(indices=[[0, 1]], values=[5.0], dense_shape=[2, 2])
        >>> tf.keras.backend.to_dense(sparse).numpy()
        array([[0., 5.],
               [0., 0.]], dtype=float32)
    """
    if is_sparse(tensor):
        return _sparse_to_dense(tensor)
    return tensor
