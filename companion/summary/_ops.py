"""The summary ops: `scalar`, `histogram`, `image`, `text` and the generic `write`.

Each builds the same ``Summary`` value TensorFlow 2 writes (a tensor plus the TensorBoard
plugin's metadata: ``scalars``, ``histograms``, ``images``, ``text``), using the
``tensorboard`` package's own proto builders where it has them.
"""

import io

import numpy as np

from companion._core._errors import UnimplementedError
from companion._core._tensor import Tensor
from companion.summary._record import emit

DEFAULT_BUCKET_COUNT = 30


def scalar(name, data, step=None, description=None):
    """Writes a scalar (stored as float32) under ``name`` at ``step``.

    Args:
        name: the tag (prefixed by the open `companion.name_scope`s).
        data: a real number or scalar tensor.
        step: an int64-castable step; default: `experimental.get_step()` (must be set).
        description: Markdown shown in TensorBoard.

    Returns:
        A boolean tensor: True when written, False without a default writer or when
        `record_if` is off.
    """
    _check_scalar(data)
    return emit(name, [data], step, lambda tag, value: _scalar_pb(tag, value, description))


def histogram(name, data, step=None, buckets=None, description=None):
    """Writes a histogram of ``data`` (any shape) with ``buckets`` buckets (default 30).

    Buckets split ``[min, max]`` evenly; TensorBoard stores ``[left, right, count]`` rows
    as float64, as TensorFlow computes them.
    """
    # deferred: tensorboard loads on first use, kept off `import companion`
    from tensorboard.plugins.histogram.summary_v2 import histogram_pb

    buckets = DEFAULT_BUCKET_COUNT if buckets is None else int(buckets)
    return emit(name, [data], step,
                lambda tag, value: histogram_pb(tag, value, buckets=buckets, description=description))


def image(name, data, step=None, max_outputs=3, description=None):
    """Writes up to ``max_outputs`` images of a ``[k, h, w, c]`` batch as PNGs (c = 1, 2, 3, 4).

    Floats are clipped to ``[0, 1]`` and scaled to 0..255 as ``tf.image.convert_image_dtype``
    does; uint8 is written as is.
    """
    shape = _shape_of(data)
    if len(shape) != 4:
        raise ValueError(f"Tensor {name} must have rank 4 ([k, height, width, channels]).  Received rank "
                         f"{len(shape)}, shape {tuple(shape)}")
    if shape[-1] not in (1, 2, 3, 4):
        raise ValueError(f"image: the last dimension (channels) must be 1, 2, 3 or 4. Received shape "
                         f"{tuple(shape)}")
    return emit(name, [data], step, lambda tag, value: _image_pb(tag, value, int(max_outputs), description))


def text(name, data, step=None, description=None):
    """Writes a string tensor (any shape; Markdown) under ``name`` at ``step``."""
    # deferred: tensorboard loads on first use, kept off `import companion`
    from tensorboard.plugins.text.summary_v2 import text_pb

    return emit(name, [data], step,
                lambda tag, value: text_pb(tag, _strings(value), description=description))


def write(tag, tensor, step=None, metadata=None, name=None):
    """Writes ``tensor`` with the given ``SummaryMetadata`` (a proto, bytes or None) under ``tag``.

    The low-level op that the others build on, for plugins companion has no op for.
    """
    return emit(tag, [tensor], step, lambda tag_, value: _tensor_pb(tag_, value, metadata))


# -- Summary protos -----------------------------------------------------------------------

def _scalar_pb(tag, value, description):
    # deferred: tensorboard loads on first use, kept off `import companion`
    from tensorboard.plugins.scalar.summary_v2 import scalar_pb

    return scalar_pb(tag, np.asarray(value).astype(np.float32), description=description)


def _image_pb(tag, batch, max_outputs, description):
    # deferred: Pillow and tensorboard load on first use, kept off `import companion`
    from PIL import Image
    from tensorboard.compat.proto import summary_pb2
    from tensorboard.plugins.image import metadata
    from tensorboard.util import tensor_util

    pixels = _to_uint8(np.asarray(batch))
    height, width = pixels.shape[1:3]
    encoded = [str(width).encode(), str(height).encode()]
    for frame in pixels[:max(max_outputs, 0)]:
        buffer = io.BytesIO()
        Image.fromarray(frame[..., 0] if frame.shape[-1] == 1 else frame).save(buffer, format="PNG")
        encoded.append(buffer.getvalue())
    proto = tensor_util.make_tensor_proto(np.array(encoded, dtype=object))
    summary = summary_pb2.Summary()
    summary.value.add(tag=tag, metadata=metadata.create_summary_metadata(display_name=None,
                                                                          description=description),
                      tensor=proto)
    return summary


def _tensor_pb(tag, value, metadata):
    # deferred: tensorboard loads on first use, kept off `import companion`
    from tensorboard.compat.proto import summary_pb2
    from tensorboard.util import tensor_util

    array = np.asarray(value)
    if array.dtype.kind in "US":
        array = np.vectorize(lambda s: s.encode() if isinstance(s, str) else s, otypes=[object])(array)
    summary = summary_pb2.Summary()
    entry = summary.value.add(tag=tag, tensor=tensor_util.make_tensor_proto(array))
    if isinstance(metadata, bytes):
        entry.metadata.ParseFromString(metadata)
    elif metadata is not None:
        entry.metadata.CopyFrom(metadata)
    return summary


def _to_uint8(pixels):
    if pixels.dtype == np.uint8:
        return pixels
    if pixels.dtype.kind == "f":  # convert_image_dtype(..., saturate=True): x * 255.5, truncated
        return (np.clip(pixels, 0.0, 1.0) * 255.5).astype(np.uint8)
    if pixels.dtype == np.bool_:
        return pixels.astype(np.uint8) * 255
    return np.clip(pixels, 0, 255).astype(np.uint8)


def _strings(value):
    array = np.asarray(value)
    if array.dtype == object:
        return np.vectorize(lambda s: s.decode("utf-8") if isinstance(s, bytes) else str(s),
                            otypes=[object])(array).astype(str)
    return array.astype(str)


def _shape_of(data):
    if getattr(data, "_is_variable", False) or isinstance(data, Tensor):
        return tuple(data.shape)
    return np.shape(data)


def _check_scalar(data):
    shape = _shape_of(data)
    if tuple(shape) != ():
        raise ValueError(f"Expected scalar shape, saw shape: {tuple(shape)}.")
    if isinstance(data, (str, bytes)) or (isinstance(data, Tensor) and data.dtype.name == "string"):
        raise UnimplementedError(None, None, "Cast string to float is not supported: a scalar summary "
                                 f"needs a number. Received: {data!r}")


__all__ = ["histogram", "image", "scalar", "text", "write"]
