"""`GFile`: TensorFlow's file object, on local files (``tf.io.gfile.GFile``)."""

import os

from companion._core import _errors
from companion.io.gfile._errors import tf_errors

_MODES = ("r", "rb", "w", "wb", "a", "ab")


class GFile:
    """A file opened lazily on first use, read as ``str`` (``"r"``) or ``bytes`` (``"rb"``).

    Modes are ``"r"``, ``"rb"``, ``"w"``, ``"wb"``, ``"a"`` and ``"ab"``. ``write`` takes ``str`` or
    ``bytes`` in any writing mode (``str`` is written as UTF-8), as in TensorFlow. A file that does
    not exist raises `NotFoundError` when first read, not when the ``GFile`` is made. Works as a
    context manager and iterates over lines.

    Example:
        >>> import os, tempfile
        >>> import companion as tf
        >>> path = os.path.join(tempfile.mkdtemp(), "notes.txt")
        >>> with tf.io.gfile.GFile(path, "w") as f:
        ...     f.write("first\\nsecond\\n")
        >>> with tf.io.gfile.GFile(path) as f:
        ...     print([line.strip() for line in f])
        ['first', 'second']
    """

    def __init__(self, name, mode="r"):
        if mode not in _MODES:
            raise _errors.InvalidArgumentError(
                f"GFile: mode must be one of {', '.join(repr(m) for m in _MODES)}. Received: mode={mode!r}")
        self._name, self._mode = os.fspath(name), mode
        self._file = None

    name = property(lambda self: self._name, doc="The path this file was opened with.")
    mode = property(lambda self: self._mode, doc="The mode this file was opened with.")

    # -- reading --------------------------------------------------------------------
    def read(self, n=-1):
        """Reads ``n`` bytes (all that is left when ``n`` is -1), decoded in text mode."""
        return self._decoded(self._reader("read").read(n))

    def readline(self):
        """The next line with its ``"\\n"`` (empty at the end of the file)."""
        return self._decoded(self._reader("readline").readline())

    def readlines(self):
        """The remaining lines, as a list."""
        return [self._decoded(line) for line in self._reader("readlines").readlines()]

    def __iter__(self):
        return self

    def __next__(self):
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    next = __next__

    # -- writing --------------------------------------------------------------------
    def write(self, file_content):
        """Appends ``file_content`` (``str`` or ``bytes``) at the current position."""
        if self._mode.startswith("r"):
            raise _errors.PermissionDeniedError(
                f"GFile: {self._name!r} was opened for reading (mode {self._mode!r}); open it with mode "
                "'w' or 'a' to write.")
        data = file_content.encode("utf-8") if isinstance(file_content, str) else bytes(file_content)
        self._open("write").write(data)

    def flush(self):
        """Writes buffered data to the file."""
        if self._file is not None:
            self._file.flush()

    # -- position and size ----------------------------------------------------------------
    def seek(self, offset=None, whence=0, position=None):
        """Moves to byte ``offset`` (TF's old ``position=`` is accepted too) relative to ``whence``."""
        self._open("seek").seek(position if offset is None else offset, whence)

    def tell(self):
        """The current byte position."""
        return self._open("tell").tell()

    def size(self):
        """The file's size in bytes."""
        self.flush()
        with tf_errors("size", self._name):
            return os.path.getsize(self._name)

    def seekable(self):
        """True: local files can seek."""
        return True

    def close(self):
        """Closes the file (using it again reopens it, as TF's GFile does)."""
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()

    def __del__(self):
        if getattr(self, "_file", None) is not None:  # also when __init__ refused the mode
            self.close()

    # -- helpers ----------------------------------------------------------------------
    def _reader(self, what):
        if not self._mode.startswith("r"):
            raise _errors.PermissionDeniedError(
                f"GFile: {self._name!r} was opened for writing (mode {self._mode!r}); open it with mode "
                "'r' or 'rb' to read.")
        return self._open(what)

    def _open(self, what):
        if self._file is None:
            with tf_errors(f"GFile.{what}", self._name):
                self._file = open(self._name, self._mode[0] + "b")  # noqa: SIM115 - closed by close()
        return self._file

    def _decoded(self, data):
        return data if "b" in self._mode else data.decode("utf-8")
