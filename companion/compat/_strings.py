"""`compat.as_bytes`, `as_text`, `as_str`, `as_str_any`, `path_to_str`: TF's text/bytes helpers."""

import os


def as_bytes(bytes_or_text, encoding="utf-8"):
    """``bytes_or_text`` as ``bytes``: text is encoded with ``encoding``.

    Example:
        >>> import companion as tf
        >>> tf.compat.as_bytes("héllo")
        b'h\\xc3\\xa9llo'
    """
    if isinstance(bytes_or_text, bytearray):
        return bytes(bytes_or_text)
    if isinstance(bytes_or_text, str):
        return bytes_or_text.encode(encoding)
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text
    raise TypeError(f"compat.as_bytes expected binary or unicode string, got {bytes_or_text!r} "
                    f"({type(bytes_or_text).__name__}). Pass a str, bytes or bytearray.")


def as_text(bytes_or_text, encoding="utf-8"):
    """``bytes_or_text`` as ``str``: bytes are decoded with ``encoding``.

    Example:
        >>> import companion as tf
        >>> tf.compat.as_text(b"h\\xc3\\xa9llo")
        'héllo'
    """
    if isinstance(bytes_or_text, str):
        return bytes_or_text
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text.decode(encoding)
    raise TypeError(f"compat.as_text expected binary or unicode string, got {bytes_or_text!r} "
                    f"({type(bytes_or_text).__name__}). Pass a str or bytes (str(value) for other values).")


as_str = as_text


def as_str_any(value, encoding="utf-8"):
    """``value`` as ``str``: bytes decoded, anything else through ``str()``.

    Example:
        >>> import companion as tf
        >>> tf.compat.as_str_any(b"abc"), tf.compat.as_str_any(3)
        ('abc', '3')
    """
    if isinstance(value, bytes):
        return as_str(value, encoding=encoding)
    return str(value)


def path_to_str(path):
    """A path-like object as its string (``os.fspath``); anything else unchanged.

    Example:
        >>> import pathlib
        >>> import companion as tf
        >>> tf.compat.path_to_str(pathlib.Path("logs") / "run1")
        'logs/run1'
    """
    if isinstance(path, os.PathLike):
        return os.fspath(path)
    return path
