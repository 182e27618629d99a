"""Conversions between numbers and their text: `as_string` and `to_number`."""

from companion._core import _dtypes
from companion._core._convert import as_input
from companion._core._errors import InvalidArgumentError, RuntimeCheckError
from companion.strings._values import each, number_tensor, numbers_of, string_tensor, strings_of


def as_string(input, precision=-1, scientific=False, shortest=False, width=-1, fill="",  # noqa: A002
              name=None):
    """Each number as text, formatted as TF's ``printf``-style rules give it.

    Floats get 6 decimals by default (``precision`` changes that), ``scientific`` uses ``%e``,
    ``shortest`` uses ``%g``; ``width`` pads to that many characters with ``fill`` (``"0"`` or
    spaces); booleans become ``true``/``false``; strings pass through.

    Example:
        >>> import companion as tf
        >>> print(tf.strings.as_string([1.5, 1 / 3], precision=2))
        companion.Tensor([b'1.50' b'0.33'], shape=(2,), dtype=string)
    """

    tensor = as_input(input)
    if tensor.dtype == _dtypes.string:
        return tensor
    values = numbers_of(tensor, "strings.as_string")
    if tensor.dtype.is_bool:
        return string_tensor(each(lambda b: (b"true" if b else b"false").rjust(max(width, 0)), values))
    spec = _spec(tensor.dtype, precision, scientific, shortest)
    pad = "0" if fill == "0" else ""
    spec = f"%{pad}{width if width > 0 else ''}{spec}"
    return string_tensor(each(lambda v: (spec % v).encode("ascii"), values))


def to_number(input, out_type=_dtypes.float32, name=None):  # noqa: A002
    """Parses each string as a number of ``out_type`` (float32 by default).

    Raises:
        InvalidArgumentError: a string is not a number of that type (TF's class).
    """
    out_type = _dtypes.as_dtype(out_type)
    parse = float if out_type.is_floating else int

    def parsed(item):
        try:
            return parse(item.decode("utf-8").strip())
        except ValueError:
            raise RuntimeCheckError(f"strings.to_number: {item!r} is not a valid {out_type.name} "
                                    "number. Clean the text first (e.g. strings.regex_replace).") from None

    return number_tensor(each(parsed, strings_of(input, "strings.to_number"), out_type._np), out_type)


def _spec(dtype, precision, scientific, shortest):
    if dtype.is_integer:
        return "d"
    if not dtype.is_floating:
        raise InvalidArgumentError(f"strings.as_string does not support dtype {dtype.name}.")
    letter = "e" if scientific else "g" if shortest else "f"
    return f".{precision}{letter}" if precision >= 0 else letter


__all__ = ["as_string", "to_number"]
