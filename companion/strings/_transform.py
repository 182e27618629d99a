"""Element-wise string ops: length, upper/lower, strip, substr, regular expressions."""

import re

from companion._core import _dtypes
from companion._core._errors import RuntimeCheckError
from companion.strings._values import each, number_tensor, numbers_of, string_tensor, strings_of, text


def length(input, unit="BYTE", name=None):  # noqa: A002 - TensorFlow's argument name
    """The length of each string in bytes (``unit="BYTE"``) or Unicode characters (``"UTF8_CHAR"``).

    Example:
        >>> import companion as tf
        >>> print(tf.strings.length(["héllo"]), tf.strings.length(["héllo"], unit="UTF8_CHAR"))
        companion.Tensor([6], shape=(1,), dtype=int32) companion.Tensor([5], shape=(1,), dtype=int32)
    """
    count = {"BYTE": len, "UTF8_CHAR": lambda b: len(b.decode("utf-8", errors="replace"))}.get(unit)
    if count is None:
        raise ValueError(f"strings.length: unit must be 'BYTE' or 'UTF8_CHAR'. Received: unit={unit!r}")
    return number_tensor(each(count, strings_of(input, "strings.length"), _dtypes.int32._np), _dtypes.int32)


def upper(input, encoding="", name=None):  # noqa: A002
    """Each string in upper case (ASCII letters only unless ``encoding="utf-8"``, as TF)."""
    return _map_text(input, "strings.upper", encoding, str.upper, bytes.upper)


def lower(input, encoding="", name=None):  # noqa: A002
    """Each string in lower case (ASCII letters only unless ``encoding="utf-8"``, as TF)."""
    return _map_text(input, "strings.lower", encoding, str.lower, bytes.lower)


def strip(input, name=None):  # noqa: A002
    """Each string without leading and trailing whitespace."""
    return string_tensor(each(bytes.strip, strings_of(input, "strings.strip")))


def substr(input, pos, len, unit="BYTE", name=None):  # noqa: A002
    """``len`` bytes (or UTF-8 characters) of each string from ``pos`` (negative: from the end)."""

    strings = strings_of(input, "strings.substr")
    start, size = int(numbers_of(pos, "strings.substr")), int(numbers_of(len, "strings.substr"))

    def cut(item):
        value = item if unit == "BYTE" else item.decode("utf-8")
        begin = start + builtin_len(value) if start < 0 else start
        if not 0 <= begin <= builtin_len(value):
            raise RuntimeCheckError(f"strings.substr: pos {start} is out of range for {item!r} "
                                    f"(length {builtin_len(value)}). Received: pos={start}")
        piece = value[begin:begin + size]
        return piece if unit == "BYTE" else piece.encode("utf-8")

    return string_tensor(each(cut, strings))


def regex_replace(input, pattern, rewrite, replace_global=True, name=None):  # noqa: A002
    r"""Replaces matches of the RE2-style ``pattern`` with ``rewrite`` (``\1`` names a group)."""
    compiled = re.compile(_pattern(pattern).encode("utf-8"))
    replacement = _pattern(rewrite).encode("utf-8")
    count = 0 if replace_global else 1
    return string_tensor(each(lambda b: compiled.sub(replacement, b, count=count),
                              strings_of(input, "strings.regex_replace")))


def regex_full_match(input, pattern, name=None):  # noqa: A002
    """True where the whole string matches ``pattern``."""
    compiled = re.compile(_pattern(pattern).encode("utf-8"))
    matched = each(lambda b: compiled.fullmatch(b) is not None, strings_of(input, "strings.regex_full_match"),
                   bool)
    return number_tensor(matched, _dtypes.bool)


builtin_len = len


def _map_text(input, what, encoding, on_text, on_bytes):  # noqa: A002
    if encoding.lower().replace("-", "") == "utf8":
        return string_tensor(each(lambda b: on_text(b.decode("utf-8")).encode("utf-8"),
                                  strings_of(input, what)))
    return string_tensor(each(on_bytes, strings_of(input, what)))  # bytes methods change ASCII only


def _pattern(value):
    return text(value.numpy() if hasattr(value, "numpy") else value)
