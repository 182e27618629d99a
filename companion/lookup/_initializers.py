"""Table initializers of `companion.lookup`: keys and values from tensors or from a text file."""

import enum
import os

import numpy as np

from companion._core import _dtypes
from companion._core._convert import as_input
from companion._core._errors import NotFoundError, RuntimeCheckError


class TextFileIndex(enum.IntEnum):
    """What a `TextFileInitializer` takes as key or value: the whole line, or its line number."""

    WHOLE_LINE = -2
    LINE_NUMBER = -1


class _Initializer:
    key_dtype = property(lambda self: self._key_dtype)
    value_dtype = property(lambda self: self._value_dtype)

    def pairs(self):
        """``(keys, values)`` as NumPy arrays (object arrays of ``bytes`` for strings)."""
        raise NotImplementedError


def _host(tensor):
    return np.asarray(tensor.numpy()).reshape(-1)


class KeyValueTensorInitializer(_Initializer):
    """A table's contents from a vector of keys and a vector of values of the same length.

    Example:
        >>> import companion as tf
        >>> init = tf.lookup.KeyValueTensorInitializer(["a", "b"], [7, 8])
        >>> init.key_dtype, init.value_dtype
        (companion.string, companion.int32)
    """

    def __init__(self, keys, values, key_dtype=None, value_dtype=None, name=None):
        keys = as_input(keys, key_dtype) if key_dtype is not None else as_input(keys)
        values = as_input(values, value_dtype) if value_dtype is not None else as_input(values)
        if keys.shape.rank != 1 or values.shape.rank != 1 or keys.shape[0] != values.shape[0]:
            raise ValueError(f"KeyValueTensorInitializer: keys and values must be vectors of the same "
                             f"length. "
                             f"Received shapes {keys.shape.as_list()} and {values.shape.as_list()}")
        self._keys, self._values = keys, values
        self._key_dtype, self._value_dtype = keys.dtype, values.dtype

    def pairs(self):
        return _host(self._keys), _host(self._values)


class TextFileInitializer(_Initializer):
    """A table's contents from a text file, one entry per line: ``key_index``/``value_index`` pick a
    field (split at ``delimiter``), the whole line (`TextFileIndex.WHOLE_LINE`) or the line number
    (`TextFileIndex.LINE_NUMBER`)."""

    def __init__(self, filename, key_dtype, key_index, value_dtype, value_index, vocab_size=None,
                 delimiter="\t", name=None, value_index_offset=0):
        self._filename = os.fsdecode(filename.numpy() if hasattr(filename, "numpy") else filename)
        self._key_dtype, self._value_dtype = _dtypes.as_dtype(key_dtype), _dtypes.as_dtype(value_dtype)
        self._key_index, self._value_index = int(key_index), int(value_index)
        self._vocab_size, self._delimiter, self._offset = vocab_size, delimiter, int(value_index_offset)
        for index, dtype, what in ((self._key_index, self._key_dtype, "key"),
                                   (self._value_index, self._value_dtype, "value")):
            if index == TextFileIndex.LINE_NUMBER and not dtype.is_integer:
                raise ValueError(f"TextFileInitializer: a {what} taken from the line number must have an "
                                 f"integer dtype. Received {dtype.name}")

    def _field(self, line, number, index, dtype, offset=0):
        if index == TextFileIndex.LINE_NUMBER:
            return number + offset
        text = line if index == TextFileIndex.WHOLE_LINE else self._split(line, index, number)
        if dtype.name == "string":
            return text.encode("utf-8")
        try:
            return (float if dtype.is_floating else int)(text)
        except ValueError:
            raise RuntimeCheckError(f"TextFileInitializer: {self._filename}, line {number}: {text!r} is "
                                    f"not "
                                    f"a valid {dtype.name}.") from None

    def _split(self, line, index, number):
        fields = line.split(self._delimiter)
        if index >= len(fields):
            raise RuntimeCheckError(f"TextFileInitializer: {self._filename}, line {number} has "
                                    f"{len(fields)} "
                                    f"fields; field {index} was asked for.")
        return fields[index]

    def pairs(self):
        try:
            with open(self._filename, encoding="utf-8") as handle:
                lines = handle.read().splitlines()
        except FileNotFoundError:
            raise NotFoundError(f"TextFileInitializer: {self._filename}; No such file or directory") from None
        if self._vocab_size is not None:
            if len(lines) < self._vocab_size:
                raise RuntimeCheckError(f"TextFileInitializer: invalid vocab_size in {self._filename}: "
                                        f"expected "
                                        f"{self._vocab_size} lines, found {len(lines)}.")
            lines = lines[:self._vocab_size]
        keys = [self._field(line, n, self._key_index, self._key_dtype) for n, line in enumerate(lines)]
        values = [self._field(line, n, self._value_index, self._value_dtype, self._offset)
                  for n, line in enumerate(lines)]
        return _array(keys, self._key_dtype), _array(values, self._value_dtype)


def _array(items, dtype):
    if dtype.name == "string":
        array = np.empty(len(items), dtype=object)
        array[:] = items
        return array
    return np.asarray(items, dtype=dtype.as_numpy_dtype)

