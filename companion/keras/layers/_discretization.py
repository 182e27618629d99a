"""`Discretization`: numbers to bucket ids by boundaries, given or adapted from data (Keras 3's
weighted quantile summary: each batch summarized at ``epsilon`` resolution, summaries merged, the
boundaries read at ``1 / num_bins`` steps)."""

import jax.numpy as jnp
import numpy as np

from companion._core._convert import as_input
from companion._core._op import op
from companion.keras.layers._category_encoding import _encode
from companion.keras.layers._layer import Layer

_MODES = ("int", "one_hot", "multi_hot", "count")


@op("digitize", static=("boundaries",))
def _digitize(values, boundaries):
    return jnp.searchsorted(jnp.asarray(boundaries, values.dtype), values, side="right").astype(jnp.int32)


def _summary(values, epsilon):
    """Every ``step``-th sorted value (``step`` = size * epsilon, at least 1), each weighing ``step``."""
    values = np.sort(np.reshape(values, [-1]))
    step = max(values.size * epsilon, 1)
    points = values[int(step - 1)::int(step)]
    return np.stack([points, np.full_like(points, step)])


def _compress(summary, epsilon):
    """The summary re-sampled at the cumulative-weight fractions epsilon, 2 epsilon, ..., 1."""
    if summary.shape[1] * epsilon < 1:
        return summary
    fractions = epsilon + np.arange(0.0, 1.0, epsilon)
    cumulative = summary[1].cumsum()
    positions = cumulative / cumulative[-1]
    points = np.interp(fractions, positions, summary[0])
    weights = np.interp(fractions, positions, cumulative)
    return np.stack((points, weights - np.concatenate(([0.0], weights[:-1])))).astype("float32")


class Discretization(Layer):
    """Bucket ids of numbers: ``i`` where ``bin_boundaries[i-1] <= x < bin_boundaries[i]`` (``"int"``,
    int32), or their one-hot / multi-hot / count encodings. With ``num_bins``, `adapt` learns
    ``num_bins - 1`` boundaries at the data's quantiles (approximated at ``epsilon``).

    Example:
        >>> import companion as tf
        >>> tf.keras.layers.Discretization(bin_boundaries=[0.0, 1.0, 2.0])([[-1.5, 1.0, 3.4, 0.5]]).numpy()
        array([[0, 2, 3, 1]], dtype=int32)
    """

    def __init__(self, bin_boundaries=None, num_bins=None, epsilon=0.01, output_mode="int", sparse=False,
                 dtype=None, name=None, **kwargs):
        super().__init__(name=name, dtype=dtype, **kwargs)
        if sparse:
            raise ValueError("Discretization(sparse=True) is not supported by companion (no sparse tensors).")
        if output_mode not in _MODES:
            raise ValueError(f"Invalid value for argument `output_mode`. Expected one of {_MODES}. Received: "
                             f"output_mode={output_mode!r}")
        if num_bins is not None and num_bins < 0:
            raise ValueError("`num_bins` must be greater than or equal to 0. Received: "
                             f"`num_bins={num_bins}`")
        if num_bins is not None and bin_boundaries is not None:
            raise ValueError(f"Both `num_bins` and `bin_boundaries` should not be set. Received: "
                             f"`num_bins={num_bins}` and `bin_boundaries={bin_boundaries}`")
        if num_bins is None and bin_boundaries is None:
            raise ValueError("You need to set either `num_bins` or `bin_boundaries`.")
        self.bin_boundaries = None if bin_boundaries is None else list(bin_boundaries)
        self.num_bins, self.epsilon, self.output_mode, self.sparse = num_bins, epsilon, output_mode, False
        self.summary = None if self.bin_boundaries else np.array([[], []], dtype="float32")
        self._autocast = False

    def adapt(self, data, steps=None):
        """Learns ``num_bins - 1`` boundaries from ``data`` (an array, a tensor, or a Dataset/iterable of
        batches, ``steps`` of them at most)."""
        if self.num_bins is None:
            raise ValueError("Cannot adapt a Discretization layer that has been initialized with "
                             "`bin_boundaries`, use `num_bins` instead.")
        self.summary = np.array([[], []], dtype="float32")
        batches = [data] if isinstance(data, np.ndarray) or hasattr(data, "numpy") else data
        for index, batch in enumerate(batches):
            if steps is not None and index >= steps:
                break
            self.update_state(batch)
        self.finalize_state()

    def update_state(self, data):
        values = np.asarray(data.numpy() if hasattr(data, "numpy") else data, dtype="float32")
        merged = np.concatenate((_summary(values, self.epsilon), self.summary), axis=1)
        merged = merged[:, np.argsort(merged[0], kind="stable")]
        self.summary = _compress(merged, self.epsilon)

    def finalize_state(self):
        if self.num_bins is not None:
            self.bin_boundaries = _compress(self.summary, 1.0 / self.num_bins)[0, :-1].tolist()

    def reset_state(self):
        if self.num_bins is not None:
            self.summary = np.array([[], []], dtype="float32")

    def call(self, inputs):
        if self.bin_boundaries is None:
            raise ValueError("You need to either pass the `bin_boundaries` argument at construction time or "
                             "call `adapt(dataset)` before you can start using the `Discretization` layer.")
        values = as_input(inputs)
        ids = _digitize(values, boundaries=tuple(float(b) for b in self.bin_boundaries))
        if self.output_mode == "int":
            return ids
        depth = len(self.bin_boundaries) + 1
        return _encode(ids, as_input(1.0, "float32"), depth=depth, mode=self.output_mode)

    def compute_output_shape(self, input_shape):
        shape = tuple(input_shape)
        if self.output_mode == "int":
            return shape
        depth = len(self.bin_boundaries) + 1 if self.bin_boundaries is not None else self.num_bins
        if self.output_mode == "one_hot":
            return shape[:-1] + (depth,) if shape and shape[-1] == 1 and len(shape) > 1 else shape + (depth,)
        return (shape[0],) + shape[2:] + (depth,) if len(shape) >= 2 else (depth,)

    def get_config(self):
        return {"bin_boundaries": self.bin_boundaries, "num_bins": self.num_bins, "epsilon": self.epsilon,
                "output_mode": self.output_mode, "sparse": self.sparse, "name": self.name,
                "dtype": self._dtype.name}
