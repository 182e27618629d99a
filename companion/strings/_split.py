"""Splitting strings into pieces: `split`, `bytes_split` and the UTF-8 ``unicode_*`` ops."""

import numpy as np

from companion._core import _dtypes
from companion._core._shape import TensorShape
from companion._ops._py_function import note_data_dependent_shape
from companion.ragged._ragged_tensor import RaggedTensor
from companion.strings._values import each, number_tensor, numbers_of, string_tensor, strings_of


def split(input, sep=None, maxsplit=-1, name=None):  # noqa: A002
    """Splits each string at ``sep`` (runs of whitespace when None), at most ``maxsplit`` times.

    A scalar gives a 1-D string tensor; a vector gives a `RaggedTensor` with one row per string
    (TF's shapes).
    """
    separator = None if sep is None else (sep.encode("utf-8") if isinstance(sep, str) else bytes(sep))
    return _pieces(strings_of(input, "strings.split"), lambda b: b.split(separator, maxsplit), _dtypes.string)


def bytes_split(input, name=None):  # noqa: A002
    """Each string cut into single bytes."""
    return _pieces(strings_of(input, "strings.bytes_split"), lambda b: [b[i:i + 1] for i in range(len(b))],
                   _dtypes.string)


def unicode_split(input, input_encoding, errors="replace", replacement_char=65533, name=None):  # noqa: A002
    """Each string cut into its Unicode characters (each a UTF-8 string)."""
    _check_utf8(input_encoding)
    return _pieces(strings_of(input, "strings.unicode_split"),
                   lambda b: [c.encode("utf-8") for c in b.decode("utf-8", errors=errors)], _dtypes.string)


def unicode_decode(input, input_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                   replace_control_characters=False, name=None):
    """Each string as its Unicode code points (int32)."""
    _check_utf8(input_encoding)
    return _pieces(strings_of(input, "strings.unicode_decode"),
                   lambda b: [ord(c) for c in b.decode("utf-8", errors=errors)], _dtypes.int32)


def unicode_encode(input, output_encoding, errors="replace", replacement_char=65533, name=None):  # noqa: A002
    """Code points (int32, the last axis is one string) encoded as UTF-8 strings."""
    _check_utf8(output_encoding)
    if isinstance(input, RaggedTensor):
        return string_tensor(each(lambda row: _encode(row), input.numpy()))
    points = numbers_of(input, "strings.unicode_encode")
    if points.ndim == 0:
        raise ValueError("strings.unicode_encode needs code points of rank >= 1 (one string per row).")
    rows = points.reshape(-1, points.shape[-1])
    out = np.empty(len(rows), dtype=object)
    out[:] = [_encode(row) for row in rows]
    return string_tensor(out.reshape(points.shape[:-1]))


def _pieces(strings, cut, dtype):
    """A 1-D tensor for a scalar input, a `RaggedTensor` for a vector (TF's result types)."""
    if strings.ndim == 0:  # TF's graph knows the pieces' number only when they are cut: (None,)
        pieces = cut(strings[()])
        is_text = dtype == _dtypes.string
        tensor = string_tensor(_object_array(pieces)) if is_text else number_tensor(pieces, dtype)
        return note_data_dependent_shape(tensor, TensorShape([None]))
    if strings.ndim != 1:
        raise ValueError(f"companion's string splitting handles scalars and vectors (TF allows any rank "
                         f"through RaggedTensor). Received a tensor of shape {strings.shape}; reshape it "
                         "to a vector first.")
    rows = [_object_array(cut(item)) if dtype == _dtypes.string else np.asarray(cut(item), dtype._np)
            for item in strings]
    return RaggedTensor.from_rows(rows, dtype)


def _object_array(items):
    out = np.empty(len(items), dtype=object)
    out[:] = items
    return out


def _encode(row):
    return "".join(chr(int(c)) for c in row).encode("utf-8")


def _check_utf8(encoding):
    if str(encoding).upper().replace("-", "") != "UTF8":
        raise NotImplementedError(f"companion's unicode ops handle UTF-8 only. Received: {encoding!r}")
