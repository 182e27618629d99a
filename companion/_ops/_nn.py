"""Input checks shared by the `companion.nn` ops (the ops themselves live in ``_nn_*.py``)."""

import numbers

from companion._core._convert import as_input, binary_inputs
from companion._core._errors import InvalidArgumentError

__all__ = []  # TensorFlow exports none of its tf.nn ops at top level beyond sigmoid/tanh (in _math)

_CHANNELS_LAST = {1: "NWC", 2: "NHWC", 3: "NDHWC"}
_CHANNELS_FIRST = {1: "NCW", 2: "NCHW", 3: "NCDHW"}


def float_input(x, op_name, arg="features", error=TypeError):
    """``x`` as a tensor input (Variables kept); raises ``error`` unless it is floating-point."""
    x = as_input(x)
    if not x.dtype.is_floating:
        raise error(f"{op_name} needs a floating-point tensor for `{arg}`. Received dtype "
                        f"{x.dtype.name}: {x!s}. Convert it first, e.g. companion.cast({arg}, "
                        "companion.float32).")
    return x


def float_pair(x, y, op_name, names):
    """Two float inputs of one dtype (a Python value adopts the other's dtype)."""
    x, y = binary_inputs(x, y, op_name)
    float_input(x, op_name, names[0])
    return x, y


def shape_of(x):
    """The static shape of a Tensor or Variable, as a tuple of ints."""
    return tuple(x._v.shape)


def check_axis(axis, rank, op_name):
    """``axis`` as an int in ``[-rank, rank)``; raises InvalidArgumentError otherwise."""
    axis = -1 if axis is None else int(axis)
    if not -rank <= axis < rank:
        raise InvalidArgumentError(f"{op_name}: axis={axis} is out of range for a tensor of rank "
                                   f"{rank}; expected an axis in [{-rank}, {rank}).")
    return axis


def check_rank(x, ranks, op_name, arg):
    """Raises ValueError unless ``x``'s rank is one of ``ranks``."""
    if x.ndim not in ranks:
        wanted = " or ".join(str(r) for r in ranks)
        raise ValueError(f"{op_name}: `{arg}` must have rank {wanted}. Received a tensor of shape "
                         f"{shape_of(x)} (rank {x.ndim}).")


def channels_last(data_format, n_spatial, op_name):
    """True for NHWC-style formats, False for NCHW-style ones; ValueError for anything else."""
    last = _CHANNELS_LAST[n_spatial]
    first = _CHANNELS_FIRST[n_spatial]
    if data_format is None or data_format == last:
        return True
    if data_format == first:
        return False
    raise ValueError(f"{op_name}: data_format must be '{last}' or '{first}' for a rank-{n_spatial + 2} "
                     f"input. Received: data_format={data_format!r}")


def spatial_tuple(value, n_spatial, last, op_name, arg):
    """A TF ``ksize``/``strides``/``dilations`` value expanded to one int per spatial dimension.

    Accepts an int, or a list of 1, ``n_spatial`` or ``n_spatial + 2`` ints (in the last
    form, the batch and channel entries must be 1).
    """
    values = [value] if isinstance(value, numbers.Integral) else list(value)
    if len(values) == n_spatial + 2:
        outer = (values[0], values[-1]) if last else (values[0], values[1])
        if outer != (1, 1):
            raise ValueError(f"{op_name}: `{arg}` must be 1 in the batch and channel dimensions. "
                             f"Received: {arg}={value!r}")
        values = values[1:-1] if last else values[2:]
    if len(values) == 1:
        values = values * n_spatial
    if len(values) != n_spatial or not all(int(v) >= 1 for v in values):
        raise ValueError(f"{op_name}: `{arg}` must be a positive int or a list of 1, {n_spatial} or "
                         f"{n_spatial + 2} positive ints. Received: {arg}={value!r}")
    return tuple(int(v) for v in values)


def check_padding(padding, op_name):
    """``padding`` as ``'SAME'`` or ``'VALID'`` (case-insensitive); ValueError otherwise."""
    if isinstance(padding, str) and padding.upper() in ("SAME", "VALID"):
        return padding.upper()
    raise ValueError(f"{op_name}: padding must be 'SAME' or 'VALID'. Received: padding={padding!r}")
