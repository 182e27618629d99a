"""`Normalization`: inputs shifted and scaled to zero mean and unit variance, statistics from `adapt`."""

import numbers

import numpy as np

from companion._core._convert import as_input, constant
from companion._ops._array import reshape
from companion._ops._math import cast, maximum, sqrt
from companion.keras.layers._layer import Layer

_EPSILON = 1e-7  # Keras's backend.epsilon()


class Normalization(Layer):
    """``(inputs - mean) / sqrt(variance)`` per feature, with the statistics computed by `adapt`.

    Args:
        axis: the axis (or axes) that keep their own mean and variance (default ``-1``: one per
            feature); None: one mean and variance for everything.
        mean, variance: fixed statistics instead of `adapt` (broadcast to the kept axes).
        invert: apply the inverse, ``inputs * sqrt(variance) + mean``.

    `adapt(data)` reads a NumPy array, a tensor or a `Dataset` of batches once and stores the
    statistics in the non-trainable weights ``mean``, ``variance`` and ``count`` (saved with the
    model); ``layer.mean`` and ``layer.variance`` are then the statistics in their broadcast shape.

    Example:
        >>> import numpy as np, companion as tf
        >>> layer = tf.keras.layers.Normalization()
        >>> layer.adapt(np.array([[1.0, 10.0], [3.0, 30.0]]))
        >>> layer(np.array([[2.0, 40.0]])).numpy()
        array([[0., 2.]], dtype=float32)
    """

    def __init__(self, axis=-1, mean=None, variance=None, invert=False, **kwargs):
        super().__init__(**kwargs)
        if axis is None:
            self.axis = ()
        elif isinstance(axis, numbers.Integral) and not isinstance(axis, bool):
            self.axis = (int(axis),)
        elif isinstance(axis, (list, tuple)) and all(isinstance(a, numbers.Integral) for a in axis):
            self.axis = tuple(int(a) for a in axis)
        else:
            raise ValueError(f"`axis` must be an int, a tuple of ints or None. Received: axis={axis!r}")
        if (mean is None) != (variance is None):
            raise ValueError("Pass both `mean` and `variance` (fixed statistics) or neither (then call "
                             f"adapt()). Received: mean={mean!r}, variance={variance!r}")
        self.input_mean, self.input_variance = mean, variance
        self.invert = bool(invert)
        self.adapt_mean = self.adapt_variance = self.count = None
        self._fixed = None  # (mean, variance) in their broadcast shape, for fixed statistics
        self.supports_masking = True

    # -- building ---------------------------------------------------------------------------------
    def build(self, input_shape):
        dims = tuple(input_shape)
        rank = len(dims)
        try:
            self._kept = tuple(sorted(a % rank for a in self.axis))
        except ZeroDivisionError:
            self._kept = ()
        if any(not -rank <= a < rank for a in self.axis):
            raise ValueError(f"`axis` {self.axis} is out of range for inputs of rank {rank}. Received: "
                             f"input_shape={input_shape}")
        if any(dims[a] is None for a in self._kept):
            raise ValueError(f"Normalization needs a known size on the kept axes {self._kept}. Received: "
                             f"input_shape={input_shape}")
        self._broadcast = [dims[a] if a in self._kept else 1 for a in range(rank)]
        shape = tuple(dims[a] for a in self._kept)
        if self.input_mean is not None:
            self._fixed = tuple(self._broadcast_values(value, shape)
                                for value in (self.input_mean, self.input_variance))
            return
        self.adapt_mean = self.add_weight(name="mean", shape=shape, initializer="zeros", trainable=False)
        self.adapt_variance = self.add_weight(name="variance", shape=shape, initializer="ones",
                                              trainable=False)
        self.count = self.add_weight(name="count", shape=(), initializer="zeros", dtype="int64",
                                     trainable=False)

    def _broadcast_values(self, value, shape):
        array = np.broadcast_to(np.asarray(value, np.float32), shape)
        return constant(array.reshape(self._broadcast))

    @property
    def mean(self):
        """The mean in its broadcast shape (None before the layer is built)."""
        return self._statistic(0, self.adapt_mean)

    @property
    def variance(self):
        """The variance in its broadcast shape (None before the layer is built)."""
        return self._statistic(1, self.adapt_variance)

    def _statistic(self, index, weight):
        if self._fixed is not None:
            return self._fixed[index]
        return None if weight is None else reshape(weight, self._broadcast)  # read now: loads show

    # -- adapting ----------------------------------------------------------------------------------
    def adapt(self, data, batch_size=None, steps=None):
        """Computes the mean and variance of ``data`` over every axis but the kept ones.

        ``data``: a NumPy array, a tensor, or a `Dataset` (each element a batch; ``steps`` limits
        how many are read). Runs eagerly; the statistics replace any earlier ones.
        """
        if self.input_mean is not None:
            raise ValueError("This Normalization layer has fixed `mean` and `variance`; adapt() cannot "
                             "change them. Create it without them to learn them from data.")
        batches = _batches(data, steps)
        total = squares = None
        count = 0
        for batch in batches:
            batch = np.asarray(batch, np.float64)
            if not self.built:
                self.build(batch.shape)
            reduced = tuple(a for a in range(batch.ndim) if a not in self._kept)
            n = int(np.prod([batch.shape[a] for a in reduced]))
            part, part_squares = batch.sum(axis=reduced), np.square(batch).sum(axis=reduced)
            total = part if total is None else total + part
            squares = part_squares if squares is None else squares + part_squares
            count += n
        if count == 0:
            raise ValueError(f"adapt() got no data: {data!r} is empty. Pass the training features.")
        mean = total / count
        variance = np.maximum(squares / count - np.square(mean), 0.0)
        self.adapt_mean.assign(mean.astype(np.float32))
        self.adapt_variance.assign(variance.astype(np.float32))
        self.count.assign(count)

    # -- calling -----------------------------------------------------------------------------------
    def call(self, inputs):
        inputs = cast(as_input(inputs), self.compute_dtype)
        scale = maximum(sqrt(self.variance), _EPSILON)
        if self.invert:
            return inputs * scale + self.mean
        return (inputs - self.mean) / scale

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        def plain(value):
            return value.tolist() if isinstance(value, np.ndarray) else value

        return {**super().get_config(), "axis": self.axis, "invert": self.invert,
                "mean": plain(self.input_mean), "variance": plain(self.input_variance)}


def _batches(data, steps):
    """NumPy batches of ``data`` (an array, a tensor, or a Dataset of batches)."""
    if hasattr(data, "_node") and hasattr(data, "element_spec"):  # a companion Dataset
        for index, element in enumerate(data.as_numpy_iterator()):
            if steps is not None and index >= steps:
                return
            if isinstance(element, (tuple, dict)):
                raise ValueError("Normalization.adapt() takes a dataset of feature batches, not of "
                                 "(features, labels) pairs: pass dataset.map(lambda x, y: x).")
            yield element
        return
    yield np.asarray(data.numpy() if hasattr(data, "numpy") else data)
