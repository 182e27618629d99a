"""`Orthogonal`: a random orthogonal matrix (the recurrent kernels' default), as Keras draws it."""

import numpy as np

from companion._ops._array import reshape, transpose
from companion._ops._linalg import diag_part, qr
from companion._ops._math import sign
from companion.keras.initializers._initializer import Initializer, RandomNormal, _float
from companion.keras.random._seed_generator import keras_default_seed


class Orthogonal(Initializer):
    """``gain`` times a random orthogonal matrix: the Q of the QR decomposition of a normal sample.

    A shape of rank above 2 is treated as ``(prod(shape[:-1]), shape[-1])``; a wide matrix gets
    orthonormal rows, a tall one orthonormal columns. Keras's recipe (signs fixed by R's diagonal);
    the samples come from companion's random streams, not TF's.

    Example:
        >>> import numpy as np, companion as tf
        >>> q = tf.keras.initializers.Orthogonal(seed=1)((3, 3)).numpy()
        >>> np.allclose(q @ q.T, np.eye(3), atol=1e-5)
        True
    """

    def __init__(self, gain=1.0, seed=None):
        self.gain = gain
        self.seed, self._init_seed = keras_default_seed(seed), seed

    def __call__(self, shape, dtype=None, **kwargs):
        shape = tuple(int(d) for d in shape)
        if len(shape) < 2:
            raise ValueError("The Orthogonal initializer needs a shape of rank 2 or more (a matrix). "
                             f"Received: shape={shape}")
        dtype = _float(dtype)
        rows, cols = int(np.prod(shape[:-1])), shape[-1]
        flat = (max(rows, cols), min(rows, cols))
        sample = RandomNormal(0.0, 1.0, self.seed)(flat, dtype)
        q, r = qr(sample)
        q = q * sign(diag_part(r))
        if rows < cols:
            q = transpose(q)
        return reshape(q * self.gain, shape)

    def get_config(self):
        return {"seed": self._init_seed, "gain": self.gain}


__all__ = ["Orthogonal"]
