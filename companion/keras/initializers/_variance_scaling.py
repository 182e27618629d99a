"""`VarianceScaling` and its Glorot/He presets, with Keras's fan computations."""

import math

from companion.keras.initializers import _initializer
from companion.keras.initializers._initializer import Initializer
from companion.keras.random._seed_generator import keras_default_seed

_TRUNCATED_STDDEV = 0.87962566103423978  # stddev of N(0, 1) truncated to [-2, 2]


class VarianceScaling(Initializer):
    """Samples with variance ``scale / n``, ``n`` the fan in, fan out or their mean (``mode``).

    ``distribution`` is ``'truncated_normal'`` (stddev ``sqrt(scale / n) / .8796...``),
    ``'untruncated_normal'`` (stddev ``sqrt(scale / n)``) or ``'uniform'`` (in
    ``[-limit, limit]``, ``limit = sqrt(3 * scale / n)``). For a kernel of shape
    ``(*receptive_field, fan_in, fan_out)`` the fans are multiplied by the receptive field size;
    ``input_axes``/``output_axes`` (Keras 3) name the axes whose sizes multiply into each fan instead
    (`EinsumDense` sets them for its kernels).

    Example:
        >>> import companion as tf
        >>> w = tf.keras.initializers.GlorotUniform(seed=1)((30, 20))
        >>> bool(abs(w.numpy()).max() <= (6 / 50) ** 0.5)
        True
    """

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None, input_axes=None,
                 output_axes=None):
        if scale <= 0:
            raise ValueError(f"`scale` must be positive. Received: scale={scale}")
        if mode not in ("fan_in", "fan_out", "fan_avg"):
            raise ValueError(f"`mode` must be 'fan_in', 'fan_out' or 'fan_avg'. Received: mode={mode!r}")
        distribution = distribution.lower()
        if distribution == "normal":
            distribution = "truncated_normal"
        if distribution not in ("truncated_normal", "untruncated_normal", "uniform"):
            raise ValueError("`distribution` must be 'truncated_normal', 'untruncated_normal' or "
                             f"'uniform'. Received: distribution={distribution!r}")
        self.scale, self.mode, self.distribution = scale, mode, distribution
        self.seed, self._init_seed = keras_default_seed(seed), seed
        self.input_axes = None if input_axes is None else list(input_axes)
        self.output_axes = None if output_axes is None else list(output_axes)

    def __call__(self, shape, dtype=None, **kwargs):
        dtype = _initializer._float(dtype)
        fan_in, fan_out = compute_fans(shape, self.input_axes, self.output_axes)
        n = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2.0}[self.mode]
        variance = self.scale / max(1.0, n)
        if self.distribution == "uniform":
            limit = math.sqrt(3.0 * variance)
            return _initializer.uniform(shape, -limit, limit, dtype, self.seed)
        if self.distribution == "untruncated_normal":
            return _initializer.normal(shape, 0.0, math.sqrt(variance), dtype, self.seed)
        stddev = math.sqrt(variance) / _TRUNCATED_STDDEV
        return _initializer.truncated_normal(shape, 0.0, stddev, dtype, self.seed)

    def get_config(self):
        return {"seed": self._init_seed, "scale": self.scale, "mode": self.mode,
                "distribution": self.distribution, "input_axes": self.input_axes,
                "output_axes": self.output_axes}


class GlorotUniform(VarianceScaling):
    """Uniform in ``[-limit, limit]``, ``limit = sqrt(6 / (fan_in + fan_out))`` (Keras's default)."""

    def __init__(self, seed=None, input_axes=None, output_axes=None):
        super().__init__(1.0, "fan_avg", "uniform", seed, input_axes, output_axes)

    def get_config(self):
        return {"seed": self._init_seed, "input_axes": self.input_axes, "output_axes": self.output_axes}


class GlorotNormal(VarianceScaling):
    """Truncated normal with stddev ``sqrt(2 / (fan_in + fan_out))``."""

    def __init__(self, seed=None, input_axes=None, output_axes=None):
        super().__init__(1.0, "fan_avg", "truncated_normal", seed, input_axes, output_axes)

    def get_config(self):
        return {"seed": self._init_seed, "input_axes": self.input_axes, "output_axes": self.output_axes}


class HeNormal(VarianceScaling):
    """Truncated normal with stddev ``sqrt(2 / fan_in)``."""

    def __init__(self, seed=None, input_axes=None, output_axes=None):
        super().__init__(2.0, "fan_in", "truncated_normal", seed, input_axes, output_axes)

    def get_config(self):
        return {"seed": self._init_seed, "input_axes": self.input_axes, "output_axes": self.output_axes}


class HeUniform(VarianceScaling):
    """Uniform in ``[-limit, limit]``, ``limit = sqrt(6 / fan_in)``."""

    def __init__(self, seed=None, input_axes=None, output_axes=None):
        super().__init__(2.0, "fan_in", "uniform", seed, input_axes, output_axes)

    def get_config(self):
        return {"seed": self._init_seed, "input_axes": self.input_axes, "output_axes": self.output_axes}


class LecunNormal(VarianceScaling):
    """Truncated normal with stddev ``sqrt(1 / fan_in)`` (for SELU networks)."""

    def __init__(self, seed=None, input_axes=None, output_axes=None):
        super().__init__(1.0, "fan_in", "truncated_normal", seed, input_axes, output_axes)

    def get_config(self):
        return {"seed": self._init_seed, "input_axes": self.input_axes, "output_axes": self.output_axes}


class LecunUniform(VarianceScaling):
    """Uniform in ``[-limit, limit]``, ``limit = sqrt(3 / fan_in)``."""

    def __init__(self, seed=None, input_axes=None, output_axes=None):
        super().__init__(1.0, "fan_in", "uniform", seed, input_axes, output_axes)

    def get_config(self):
        return {"seed": self._init_seed, "input_axes": self.input_axes, "output_axes": self.output_axes}


def compute_fans(shape, input_axes=None, output_axes=None):
    """Keras's ``(fan_in, fan_out)`` of a weight shape (the products of the sizes of ``input_axes``
    and ``output_axes`` when both are given)."""
    shape = tuple(int(d) for d in shape)
    if input_axes is not None and output_axes is not None:
        return math.prod(shape[a] for a in input_axes), math.prod(shape[a] for a in output_axes)
    if len(shape) < 1:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    receptive_field = math.prod(shape[:-2])
    return shape[-2] * receptive_field, shape[-1] * receptive_field
