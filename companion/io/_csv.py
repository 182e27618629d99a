"""CSV records: `decode_csv` (``tf.io.decode_csv``) and the field parsing the CSV datasets share.

Parsing runs on the host (XLA has no strings), with Python's `csv` reader: fields split at
``field_delim``, double-quoted fields may hold the delimiter (``""`` is a quote) unless
``use_quote_delim`` is False. An empty field, or one equal to ``na_value``, takes the column's
default; a column without a default (an empty default or a bare dtype) must be present.
"""

import csv

import numpy as np

from companion._core import _dtypes
from companion._core._convert import as_input, constant, is_tensor
from companion._core._errors import RuntimeCheckError
from companion.strings._values import strings_of

_CSV_DTYPES = ("float32", "float64", "int32", "int64", "string")


class Column:
    """One CSV column: its dtype and its default (None: the field is required)."""

    def __init__(self, dtype, default):
        self.dtype, self.default = dtype, default

    def parse(self, field, na_value, where):
        if field == "" or field == na_value:
            if self.default is None:
                raise RuntimeCheckError(f"{where} is required but missing (empty, or the na_value "
                                        f"{na_value!r}). Give the column a default value.")
            return self.default
        if self.dtype == "string":
            return field.encode("utf-8")
        try:
            return (float if self.dtype.startswith("float") else int)(field.strip())
        except ValueError:
            raise RuntimeCheckError(f"{where}: {field!r} is not a valid {self.dtype}.") from None


def columns_of(record_defaults, what):
    """``record_defaults`` (per column: a dtype, or a tensor/list holding one default value or none)
    as `Column`s."""
    columns = []
    for index, item in enumerate(record_defaults):
        if isinstance(item, (_dtypes.DType, str)) and not isinstance(item, bytes) and _is_dtype_name(item):
            dtype, default = _dtypes.as_dtype(item), None
        else:
            empty = isinstance(item, (list, tuple)) and not item
            given = np.zeros(0, np.float32) if empty else item
            tensor = as_input(item) if is_tensor(item) else constant(given)
            dtype = tensor.dtype
            values = np.asarray(tensor.numpy()).reshape(-1)
            if values.size > 1:
                raise ValueError(f"{what}: record_defaults[{index}] must hold one default value or none. "
                                 f"Received {values.size} values: {item!r}")
            default = None if values.size == 0 else values[0]
            if default is not None and dtype.name == "string" and isinstance(default, str):
                default = default.encode("utf-8")
        if dtype.name not in _CSV_DTYPES:
            raise TypeError(f"{what}: record_defaults[{index}] must be of type float32, float64, int32, "
                            f"int64 or string. Received dtype {dtype.name}")
        columns.append(Column(dtype.name, default))
    return columns


def _is_dtype_name(item):
    if isinstance(item, _dtypes.DType):
        return True
    try:
        _dtypes.as_dtype(item)
    except (TypeError, ValueError):
        return False
    return True


def split_fields(line, field_delim, use_quote_delim):
    """The fields of one CSV record (a ``str``)."""
    quoting = csv.QUOTE_MINIMAL if use_quote_delim else csv.QUOTE_NONE
    rows = list(csv.reader([line], delimiter=field_delim, quoting=quoting, strict=use_quote_delim))
    return rows[0] if rows else [""]


def parse_record(line, columns, select_cols, field_delim, use_quote_delim, na_value, where):
    """The parsed values of one record (``line``), one per column."""
    try:
        fields = split_fields(line, field_delim, use_quote_delim)
    except csv.Error as error:
        raise RuntimeCheckError(f"{where}: {error}. Received: {line!r}") from None
    if select_cols is not None:
        if max(select_cols) >= len(fields):
            raise RuntimeCheckError(f"{where}: expect at least {max(select_cols) + 1} fields but have "
                                    f"{len(fields)}. Received: {line!r}")
        fields = [fields[i] for i in select_cols]
    if len(fields) != len(columns):
        raise RuntimeCheckError(f"{where}: expect {len(columns)} fields but have {len(fields)} in record. "
                                f"Received: {line!r}")
    return [column.parse(field, na_value, f"{where}, field {i}") for i, (column, field)
            in enumerate(zip(columns, fields))]


def decode_csv(records, record_defaults, field_delim=",", use_quote_delim=True, name=None, na_value="",
               select_cols=None):
    """Parses CSV ``records`` (a string tensor of any shape) into one tensor per column, each of the
    records' shape, typed by ``record_defaults`` (per column: ``[default]``, ``[]`` for a required
    column, or a dtype).

    Raises:
        InvalidArgumentError (a ValueError): a record has the wrong number of fields, a required
            field is missing, or a field does not parse as its column's type.

    Example:
        >>> import companion as tf
        >>> ints, names = tf.io.decode_csv(["1,a", "2,"], record_defaults=[[0], ["none"]])
        >>> ints.numpy().tolist(), names.numpy().tolist()
        ([1, 2], [b'a', b'none'])
    """
    columns = columns_of(record_defaults, "decode_csv")
    if select_cols is not None:
        select_cols = [int(i) for i in select_cols]
        if sorted(set(select_cols)) != select_cols:
            raise ValueError(f"decode_csv: select_cols must be strictly increasing. Received: {select_cols}")
        if len(select_cols) != len(columns):
            raise ValueError(f"decode_csv: record_defaults ({len(columns)}) and select_cols "
                             f"({len(select_cols)}) must have the same length.")
    lines = strings_of(records, "decode_csv")
    parsed = [parse_record(line.decode("utf-8"), columns, select_cols, field_delim, use_quote_delim, na_value,
                           f"decode_csv: record {i}") for i, line in enumerate(lines.reshape(-1))]
    outputs = []
    for index, column in enumerate(columns):
        values = [row[index] for row in parsed]
        if column.dtype == "string":
            array = np.empty(len(values), dtype=object)
            array[:] = values
            outputs.append(constant(array.reshape(lines.shape)))
        else:
            numpy_dtype = _dtypes.as_dtype(column.dtype).as_numpy_dtype
            array = np.asarray(values, dtype=numpy_dtype).reshape(lines.shape)
            outputs.append(constant(array, dtype=column.dtype))
    return outputs
