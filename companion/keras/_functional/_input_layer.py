"""`InputLayer` and `Input`: the entry points of a functional model."""

import warnings

import numpy as np

from companion._core import _dtypes
from companion.keras._functional._keras_tensor import KerasTensor
from companion.keras._functional._node import Node
from companion.keras.layers._layer import Layer


class InputLayer(Layer):
    """The layer behind `Input`: it holds a model input's shape, dtype and name.

    Args:
        shape: the shape of one example (without the batch axis); ``input_shape=`` is its
            deprecated spelling (Keras 3 warns).
        batch_size: an optional fixed batch size.
        dtype: the input's dtype (default float32).
        name: the input's name (used to match dict inputs).
        batch_shape: the full shape, batch axis first, instead of the two above (Keras 2's
            ``batch_input_shape``, as older configs hold it, is read too).

    Example:
        >>> import companion as tf
        >>> layer = tf.keras.layers.InputLayer(shape=(28, 28), name="pixels")
        >>> layer.output
        <KerasTensor shape=(None, 28, 28), dtype=float32, sparse=False, ragged=False, name=pixels>
    """

    def __init__(self, shape=None, batch_size=None, dtype=None, sparse=None, ragged=None, batch_shape=None,
                 input_tensor=None, optional=False, name=None, *, input_shape=None, batch_input_shape=None,
                 **kwargs):
        tensor_name = name  # Keras 3 names an unnamed Input's tensor keras_tensor, keras_tensor_1, ...
        super().__init__(name=name, dtype=dtype, **kwargs)
        for what, value in (("sparse", sparse), ("ragged", ragged), ("optional", optional),
                            ("input_tensor", input_tensor)):
            if value not in (None, False):
                raise NotImplementedError(f"companion's InputLayer has no {what} inputs: leave {what} "
                                          f"unset. Received: {what}={value!r}")
        if input_shape is not None:
            warnings.warn("Argument `input_shape` is deprecated. Use `shape` instead.", stacklevel=1)
            shape = shape if shape is not None else input_shape
        if batch_shape is None:
            batch_shape = batch_input_shape  # Keras 2's name, in configs written before Keras 3
        self._batch_input_shape = _batch_shape(shape, batch_size, batch_shape)
        self._input_dtype = _dtypes.as_dtype(dtype or "float32")
        tensor = KerasTensor(self._batch_input_shape, self._input_dtype, name=tensor_name)
        tensor._node = Node(self, None, (), {}, tensor)
        self._inbound_nodes = [tensor._node]  # its `output` (and `input`) is this tensor
        self.built = True

    def get_config(self):
        return {"batch_shape": self._batch_input_shape, "dtype": self._input_dtype.name, "sparse": False,
                "ragged": False, "name": self.name, "optional": False}

    def compute_output_shape(self, input_shape):
        return self._batch_input_shape


def Input(shape=None, batch_size=None, dtype=None, sparse=None, ragged=None, batch_shape=None,  # noqa: N802
          name=None, tensor=None, optional=False, **kwargs):
    """A symbolic model input: a `KerasTensor` of ``(batch_size,) + shape``.

    The arguments are Keras 3's, in its order (``dtype`` third); ``sparse``, ``ragged``,
    ``tensor`` and ``optional`` are accepted unset (companion has no such inputs: set, they
    raise `InputLayer`'s NotImplementedError).

    Example:
        >>> import companion as tf
        >>> tf.keras.Input(shape=(784,), name="digits")
        <KerasTensor shape=(None, 784), dtype=float32, sparse=False, ragged=False, name=digits>
    """
    batch_shape = kwargs.pop("batch_input_shape", batch_shape)
    if kwargs:
        raise TypeError(f"Input got unexpected keyword arguments: {sorted(kwargs)}. Use shape, "
                        "batch_size, dtype, sparse, ragged, batch_shape, name, tensor or optional.")
    return InputLayer(shape=shape, batch_size=batch_size, dtype=dtype, sparse=sparse, ragged=ragged,
                      batch_shape=batch_shape, input_tensor=tensor, optional=optional, name=name).output


def _batch_shape(input_shape, batch_size, batch_input_shape):
    if batch_input_shape is not None:
        return tuple(batch_input_shape)
    if input_shape is None:
        raise ValueError("An Input needs its shape: pass shape=(...) (one example's shape, without "
                         "the batch axis) or batch_shape=(batch, ...). Received neither.")
    if isinstance(input_shape, int | np.integer):  # Keras 3 refuses a bare size
        raise ValueError(f"Cannot convert '{input_shape}' to a shape.\nA shape is a tuple: pass "
                         f"shape=({input_shape},) for examples of {input_shape} values.")
    try:
        dims = tuple(input_shape)
    except TypeError:
        raise TypeError(f"Input shape must be a tuple of ints or None. Received: shape={input_shape!r}"
                        ) from None
    for d in dims:
        if d is not None and (isinstance(d, bool) or not isinstance(d, int | np.integer) or d < 0):
            raise ValueError(f"Input shape entries must be non-negative ints or None. Received: "
                             f"shape={input_shape!r}")
    return (batch_size,) + tuple(None if d is None else int(d) for d in dims)  # NumPy ints as TF takes them
