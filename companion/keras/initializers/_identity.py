"""`Identity`: a 2-D weight initialized to ``gain`` times the identity matrix (Keras's class)."""

from companion._ops import _creation
from companion.keras.initializers._initializer import Initializer, _float


class Identity(Initializer):
    """``gain`` on the main diagonal, zeros elsewhere, for a 2-D shape (a rectangular one gets
    the leading square's diagonal), as ``keras.initializers.Identity`` gives.

    Example:
        >>> import companion as tf
        >>> tf.keras.initializers.Identity(gain=2.0)((2, 3)).numpy()
        array([[2., 0., 0.],
               [0., 2., 0.]], dtype=float32)
    """

    def __init__(self, gain=1.0):
        self.gain = gain

    def __call__(self, shape, dtype=None, **kwargs):
        shape = tuple(shape)
        if len(shape) != 2:
            raise ValueError("Identity matrix initializer can only be used for 2D matrices (a Dense "
                             f"kernel). Received: shape={shape} of rank {len(shape)}.")
        dtype = _float(dtype)
        return _creation.eye(shape[0], shape[1], dtype=dtype) * self.gain

    def get_config(self):
        return {}  # as Keras 3.15's: the gain is not part of the config


__all__ = ["Identity"]
