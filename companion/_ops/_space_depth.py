"""`space_to_depth` and `depth_to_space`: blocks of pixels moved into channels and back (a reshape,
a transpose and a reshape: differentiable, and cheap for XLA)."""

from companion._core._convert import as_input
from companion._core._errors import InvalidArgumentError
from companion._ops._array import reshape, transpose
from companion._ops._nn import shape_of
from companion._ops._static import static_int


def _layout(input, block_size, data_format, op_name):  # noqa: A002
    x = as_input(input)
    size = static_int(block_size, f"{op_name}: block_size")
    if size < 2:
        raise ValueError(f"{op_name}: block_size must be at least 2. Received: {block_size!r}")
    if x.ndim != 4:
        raise InvalidArgumentError(f"{op_name} needs a 4-D input. Received shape {shape_of(x)}")
    if data_format not in ("NHWC", "NCHW"):
        raise ValueError(f"{op_name}: data_format must be 'NHWC' or 'NCHW'. Received: {data_format!r}")
    return (transpose(x, [0, 2, 3, 1]) if data_format == "NCHW" else x), size


def _restore(y, data_format):
    return transpose(y, [0, 3, 1, 2]) if data_format == "NCHW" else y


def space_to_depth(input, block_size, data_format="NHWC", name=None):  # noqa: A002
    """Each ``block_size`` x ``block_size`` block of pixels becomes one pixel with ``block_size**2``
    times the channels (TF's order: the block's rows, then its columns, then the channels).

    Example:
        >>> import companion as tf
        >>> print(tf.nn.space_to_depth(tf.reshape(tf.range(4), [1, 2, 2, 1]), 2))
        companion.Tensor([[[[0 1 2 3]]]], shape=(1, 1, 1, 4), dtype=int32)
    """
    x, size = _layout(input, block_size, data_format, "space_to_depth")
    batch, height, width, channels = shape_of(x)
    if height % size or width % size:
        raise InvalidArgumentError(f"space_to_depth: height and width ({height}, {width}) must be multiples "
                                   f"of block_size {size}.")
    blocks = reshape(x, [batch, height // size, size, width // size, size, channels])
    moved = transpose(blocks, [0, 1, 3, 2, 4, 5])
    packed = reshape(moved, [batch, height // size, width // size, size * size * channels])
    return _restore(packed, data_format)


def depth_to_space(input, block_size, data_format="NHWC", name=None):  # noqa: A002
    """The inverse of `space_to_depth`: channels spread into ``block_size`` x ``block_size`` blocks."""
    x, size = _layout(input, block_size, data_format, "depth_to_space")
    batch, height, width, channels = shape_of(x)
    if channels % (size * size):
        raise InvalidArgumentError(f"depth_to_space: the channels ({channels}) must be a multiple of "
                                   f"block_size**2 = {size * size}.")
    depth = channels // (size * size)
    blocks = reshape(x, [batch, height, width, size, size, depth])
    moved = transpose(blocks, [0, 1, 3, 2, 4, 5])
    return _restore(reshape(moved, [batch, height * size, width * size, depth]), data_format)
