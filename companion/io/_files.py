"""`read_file` and `write_file`: a whole file as a scalar string tensor, and back."""

import os

from companion._core._convert import constant, is_tensor
from companion._core._errors import NotFoundError


def read_file(filename, name=None):
    """The contents of ``filename`` as a scalar string tensor (``tf.io.read_file``).

    Example:
        >>> import os, tempfile
        >>> import companion as tf
        >>> path = os.path.join(tempfile.mkdtemp(), "hello.txt")
        >>> tf.io.write_file(path, b"hello")
        >>> tf.io.read_file(path).numpy()
        b'hello'
    """
    path = _path(filename)
    try:
        with open(path, "rb") as file:
            return constant(file.read())
    except FileNotFoundError:
        raise NotFoundError(f"read_file: no such file {path!r} (working directory {os.getcwd()!r})."
                            ) from None


def write_file(filename, contents, name=None):
    """Writes ``contents`` (bytes, str or a scalar string tensor) to ``filename``, replacing it."""
    data = contents.numpy() if is_tensor(contents) else contents
    if isinstance(data, str):
        data = data.encode("utf-8")
    if not isinstance(data, (bytes, bytearray)):
        raise TypeError(f"write_file takes bytes, str or a scalar string tensor. Received "
                        f"{type(data).__name__}: {data!r:.60}")
    with open(_path(filename), "wb") as file:
        file.write(data)


def _path(filename):
    value = filename.numpy() if is_tensor(filename) else filename
    return os.fsdecode(value) if isinstance(value, bytes) else os.fspath(value)
