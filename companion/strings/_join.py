"""Joining strings: `join` (element-wise), `reduce_join` (along an axis) and `format` (a template)."""

import sys

import numpy as np

from companion._core._convert import as_input
from companion.strings._values import numbers_of, string_tensor, strings_of


def join(inputs, separator="", name=None):
    """Joins the strings of ``inputs`` element by element (scalars are broadcast), with ``separator``.

    Example:
        >>> import companion as tf
        >>> print(tf.strings.join([tf.constant(["a", "b"]), "!"], separator="-"))
        companion.Tensor([b'a-!' b'b-!'], shape=(2,), dtype=string)
    """
    sep = _bytes(separator)
    arrays = np.broadcast_arrays(*[strings_of(x, "strings.join") for x in inputs])
    if not arrays:
        return string_tensor(np.asarray(b"", dtype=object))
    return string_tensor(_join_rows(arrays, sep))


def reduce_join(inputs, axis=None, keepdims=False, separator="", name=None):
    """Joins the strings along ``axis`` (all of them when ``axis`` is None), with ``separator``."""
    strings = strings_of(inputs, "strings.reduce_join")
    axes = range(strings.ndim) if axis is None else np.atleast_1d(numbers_of(axis, "reduce_join"))
    axes = tuple(sorted(int(a) % max(strings.ndim, 1) for a in axes))
    kept = [a for a in range(strings.ndim) if a not in axes]
    moved = np.transpose(strings, kept + list(axes)).reshape([strings.shape[a] for a in kept] + [-1])
    joined = _join_rows(list(np.moveaxis(moved, -1, 0)), _bytes(separator)) if moved.shape[-1] else \
        np.full(moved.shape[:-1], b"", dtype=object)
    if keepdims:
        joined = np.expand_dims(joined, axes)
    return string_tensor(joined)


def format(template, inputs, placeholder="{}", summarize=3, name=None):  # noqa: A001 - TF's name
    """``template`` with each ``placeholder`` replaced by the next tensor of ``inputs``, as TF shows it.

    Example:
        >>> import companion as tf
        >>> print(tf.strings.format("x={} y={}", (tf.constant(3), tf.constant([1.5, 2.0]))).numpy())
        b'x=3 y=[1.5 2]'
    """
    inputs = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
    pieces = template.split(placeholder)
    if len(pieces) - 1 != len(inputs):
        raise ValueError(f"strings.format: the template has {len(pieces) - 1} placeholders {placeholder!r} "
                         f"but {len(inputs)} inputs were given. Received: template={template!r}")
    shown = [_summary(value, summarize) for value in inputs]
    text = pieces[0] + "".join(s + piece for s, piece in zip(shown, pieces[1:]))
    return string_tensor(np.asarray(text.encode("utf-8"), dtype=object))


def _join_rows(arrays, sep):
    """Element-wise ``sep.join`` of same-shaped object arrays."""
    arrays = [np.asarray(a, dtype=object) for a in arrays]
    out = np.empty(arrays[0].shape, dtype=object)
    for index in np.ndindex(out.shape):
        out[index] = sep.join(a[index] for a in arrays)
    return out


def _summary(value, summarize):
    tensor = as_input(value)
    is_text = tensor.dtype.name == "string"
    array = np.asarray(tensor._value) if is_text else numbers_of(tensor, "strings.format")
    formatter = {"float_kind": lambda x: np.format_float_positional(x, trim="-"),
                 "object": lambda b: '"' + b.decode("utf-8", "replace") + '"',
                 "bool": lambda b: str(int(b)),  # TF shows booleans as 1 and 0
                 "int_kind": str}  # and pads no column
    if array.ndim == 0:
        return formatter["object"](array[()]) if array.dtype == object else np.array2string(
            array, formatter=formatter)
    threshold = sys.maxsize if summarize < 0 else 2 * summarize
    return np.array2string(array, separator=" ", threshold=threshold, edgeitems=max(summarize, 1),
                           formatter=formatter, max_line_width=sys.maxsize)


def _bytes(value):
    return value.encode("utf-8") if isinstance(value, str) else bytes(value)
