"""`frame` (overlapping windows of a signal) and `overlap_and_add` (its adjoint: frames summed back
into a signal), as gathers and a segment sum: differentiable, inside `function` too."""

import numpy as np

from companion._core._convert import as_input, constant
from companion._ops._array import concat, reshape, transpose
from companion._ops._counting import unsorted_segment_sum
from companion._ops._select import gather
from companion._ops._static import normalize_axis, static_int


def frame(signal, frame_length, frame_step, pad_end=False, pad_value=0, axis=-1, name=None):
    """Windows of ``frame_length`` samples every ``frame_step`` samples along ``axis``: the axis
    becomes ``[frames, frame_length]``. With ``pad_end``, the signal is padded with ``pad_value`` so
    that windows starting before its end are kept.

    Example:
        >>> import companion as tf
        >>> print(tf.signal.frame(tf.range(6), 3, 2))
        companion.Tensor(
        [[0 1 2]
         [2 3 4]], shape=(2, 3), dtype=int32)
    """
    x = as_input(signal)
    length = static_int(frame_length, "frame: frame_length")
    step = static_int(frame_step, "frame: frame_step")
    if length <= 0 or step <= 0:
        raise ValueError(f"frame: frame_length and frame_step must be positive. Received {length} and "
                         f"{step}.")
    axis = normalize_axis(axis, x.ndim, "frame")
    samples = x.shape[axis]
    if pad_end:
        frames = -(-samples // step)
        needed = max(0, (frames - 1) * step + length - samples)
        if needed:
            shape = x.shape.as_list()
            shape[axis] = needed
            filler = as_input(pad_value, x.dtype) + constant(np.zeros(shape), dtype=x.dtype)
            x = concat([x, filler], axis=axis)
    else:
        frames = max(0, 1 + (samples - length) // step) if samples >= length else 0
    positions = (np.arange(frames)[:, None] * step + np.arange(length)[None, :]).astype(np.int32)
    taken = gather(x, constant(positions.reshape(-1)), axis=axis)
    shape = x.shape.as_list()
    return reshape(taken, shape[:axis] + [frames, length] + shape[axis + 1:])


def overlap_and_add(signal, frame_step, name=None):
    """Sums ``[..., frames, frame_length]`` frames placed ``frame_step`` apart into a signal of
    ``frame_length + frame_step * (frames - 1)`` samples (the reverse of `frame`)."""
    x = as_input(signal)
    if x.ndim < 2:
        raise ValueError(f"overlap_and_add needs a tensor of rank >= 2 ([..., frames, frame_length]). "
                         f"Received shape {x.shape.as_list()}")
    step = static_int(frame_step, "overlap_and_add: frame_step")
    *outer, frames, length = x.shape.as_list()
    if step <= 0:
        raise ValueError(f"overlap_and_add: frame_step must be positive. Received {step}")
    total = length + step * (frames - 1) if frames else 0
    positions = (np.arange(frames)[:, None] * step + np.arange(length)[None, :]).reshape(-1)
    inner = len(outer)
    moved = transpose(reshape(x, outer + [frames * length]), [inner] + list(range(inner)))
    summed = unsorted_segment_sum(moved, constant(positions.astype(np.int32)), total)
    return transpose(summed, list(range(1, inner + 1)) + [0])
