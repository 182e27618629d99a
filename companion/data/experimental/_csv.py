"""CSV files as datasets: `CsvDataset` (one tuple of scalars per record) and `make_csv_dataset`
(batches of ``(features dict, label)`` with column types inferred as TF infers them)."""

import collections

import numpy as np

from companion._core._errors import InvalidArgumentError
from companion._core._tensor_spec import TensorSpec
from companion.data._dataset import Dataset
from companion.data._text_lines import _lines
from companion.data._tfrecord import filename_list
from companion.io import _records, gfile
from companion.io._csv import Column, columns_of, parse_record, split_fields


def _checked_select(select_cols, count, what):
    if select_cols is None:
        return None
    chosen = [int(i) for i in select_cols]
    if sorted(set(chosen)) != chosen:
        raise ValueError(f"{what}: select_cols must be strictly increasing column indices. Received: "
                         f"{chosen}")
    if len(chosen) != count:
        raise ValueError(f"{what}: record_defaults ({count}) and select_cols ({len(chosen)}) must have the "
                         "same length.")
    return chosen


def _records_of(ctx, paths, compression, header, columns, select_cols, field_delim, use_quote_delim,
                na_value):
    """The parsed records; below `ignore_errors`, a record that does not parse is dropped."""
    for path in paths:
        for number, raw in enumerate(_lines(path, compression)):
            if header and number == 0:
                continue
            try:
                where = f"CsvDataset: {path}, record {number + 1}"
                yield tuple(parse_record(raw.decode("utf-8"), columns, select_cols, field_delim,
                                         use_quote_delim, na_value, where))
            except (InvalidArgumentError, UnicodeDecodeError) as error:
                if ctx.skip_errors is None:
                    raise
                ctx.skip_errors(error, "CsvDataset", number)


def _reader(*args):
    def records(ctx):
        return _records_of(ctx, *args)

    records.takes_context = True
    return records


class CsvDatasetV2(Dataset):
    """The records of CSV files, each a tuple of scalar tensors typed by ``record_defaults`` (per
    column: a dtype for a required column, or ``[default]``).

    Example:
        >>> import os, tempfile
        >>> import companion as tf
        >>> path = os.path.join(tempfile.mkdtemp(), "rows.csv")
        >>> _ = open(path, "w").write("a,b\\n1,x\\n2,\\n")
        >>> rows = tf.data.experimental.CsvDataset(path, [tf.int32, ["?"]], header=True)
        >>> [(int(n), s.numpy()) for n, s in rows]
        [(1, b'x'), (2, b'?')]
    """

    def __init__(self, filenames, record_defaults, compression_type=None, buffer_size=None, header=False,
                 field_delim=",", use_quote_delim=True, na_value="", select_cols=None, exclude_cols=None,
                 name=None):
        paths = filename_list(filenames)
        compression = _records.check_compression(compression_type, "CsvDataset")
        columns = columns_of(record_defaults, "CsvDataset")
        if select_cols is not None and exclude_cols is not None:
            raise ValueError("CsvDataset: give select_cols or exclude_cols, not both.")
        if exclude_cols is not None and paths:
            excluded = {int(i) for i in exclude_cols}
            first = next(_lines(paths[0], compression), b"").decode("utf-8")
            width = len(split_fields(first, field_delim, use_quote_delim))
            select_cols = [i for i in range(width) if i not in excluded]
        select_cols = _checked_select(select_cols, len(columns), "CsvDataset")
        spec = tuple(TensorSpec(shape=(), dtype=c.dtype) for c in columns)
        super().__init__(Dataset._from_iterable_factory(
            _reader(paths, compression, header, columns, select_cols, field_delim, use_quote_delim, na_value),
            spec, kind="CsvDatasetV2"))


CsvDataset = CsvDatasetV2  # TF's name for its class CsvDatasetV2


# -- make_csv_dataset -----------------------------------------------------------------------------

def _is_int32(text):
    try:
        return np.int32(int(text)) == int(text) and -2**31 <= int(text) < 2**31
    except (ValueError, OverflowError):
        return False


def _is_int64(text):
    try:
        return -2**63 <= int(text) < 2**63
    except ValueError:
        return False


def _is_float(text, dtype):
    try:
        return bool(dtype(text) < np.inf)
    except (ValueError, OverflowError):
        return False


_INFERENCE = (("int32", _is_int32), ("int64", _is_int64), ("float32", lambda t: _is_float(t, np.float32)),
              ("float64", lambda t: _is_float(t, np.float64)), ("string", lambda t: True))
_ORDER = [name for name, _ in _INFERENCE]


def _infer(text, na_value, previous):
    """TF's rule: the least permissive type that fits this value and every earlier one."""
    if text in ("", na_value):
        return previous
    for index, (name, fits) in enumerate(_INFERENCE):
        if fits(text) and (previous is None or _ORDER.index(previous) <= index):
            return name
    return "string"


def _csv_rows(paths, compression, field_delim, use_quote_delim, header):
    for path in paths:
        for number, raw in enumerate(_lines(path, compression)):
            if header and number == 0:
                continue
            yield split_fields(raw.decode("utf-8"), field_delim, use_quote_delim)


def _column_names(paths, compression, field_delim, use_quote_delim):
    names = None
    for path in paths:
        first = next(_lines(path, compression), None)
        if first is None:
            raise ValueError(f"make_csv_dataset: failed when reading the header line of {path}. Is it an "
                             "empty file?")
        found = split_fields(first.decode("utf-8"), field_delim, use_quote_delim)
        if names is not None and found != names:
            raise ValueError("make_csv_dataset: all input CSV files should have the same column names in the "
                             f"header row. File {path} has different column names.")
        names = found
    return names


def _selected(select_columns, names):
    index = {name: i for i, name in enumerate(names)}
    chosen = []
    for item in select_columns:
        if isinstance(item, int):
            if not 0 <= item < len(names):
                raise ValueError(f"make_csv_dataset: column index {item} in select_columns is out of range "
                                 f"[0, {len(names)}).")
            chosen.append(item)
        elif item not in index:
            raise ValueError(f"make_csv_dataset: column {item!r} in select_columns must be one of {names}.")
        else:
            chosen.append(index[item])
    if len(set(chosen)) != len(chosen):
        raise ValueError(f"make_csv_dataset: select_columns names a column twice: {select_columns!r}")
    return sorted(chosen)


def make_csv_dataset(file_pattern, batch_size, column_names=None, column_defaults=None, label_name=None,
                     select_columns=None, field_delim=",", use_quote_delim=True, na_value="", header=True,
                     num_epochs=None, shuffle=True, shuffle_buffer_size=10000, shuffle_seed=None,
                     prefetch_buffer_size=None, num_parallel_reads=None, sloppy=False,
                     num_rows_for_inference=100, compression_type=None, ignore_errors=False,
                     encoding="utf-8"):
    """Batches of CSV rows as ``features`` (an ordered dict: column name -> batch of values) or
    ``(features, label)`` with ``label_name``. Column types are inferred from the first
    ``num_rows_for_inference`` rows as TF does (int32, int64, float32, float64, then string; missing
    values default to 0 or ``""``) unless ``column_defaults`` are given. As in TF, the rows are
    shuffled (``shuffle``) and repeated forever unless ``num_epochs`` is set; with ``num_epochs=None``
    the last partial batch is dropped.

    Example:
        >>> import os, tempfile
        >>> import companion as tf
        >>> path = os.path.join(tempfile.mkdtemp(), "rows.csv")
        >>> _ = open(path, "w").write("size,kind\\n1.5,a\\n2.5,b\\n")
        >>> ds = tf.data.experimental.make_csv_dataset(path, 2, label_name="kind", num_epochs=1,
        ...                                           shuffle=False)
        >>> features, label = next(iter(ds))
        >>> features["size"].numpy().tolist(), label.numpy().tolist()
        ([1.5, 2.5], [b'a', b'b'])
    """
    paths = sorted(_glob(file_pattern))
    compression = _records.check_compression(compression_type, "make_csv_dataset")
    if column_names is None:
        if not header:
            raise ValueError("make_csv_dataset: expected `column_names` or `header` arguments. Neither is "
                             "provided.")
        column_names = _column_names(paths, compression, field_delim, use_quote_delim)
    column_names = list(column_names)
    if len(set(column_names)) != len(column_names):
        raise ValueError(f"make_csv_dataset: column names must be unique. Received: {column_names}")
    chosen = None if select_columns is None else _selected(select_columns, column_names)
    if column_defaults is not None:
        columns = columns_of(column_defaults, "make_csv_dataset")
    else:
        wanted = chosen if chosen is not None else list(range(len(column_names)))
        inferred = [None] * len(wanted)
        for number, row in enumerate(_csv_rows(paths, compression, field_delim, use_quote_delim, header)):
            if num_rows_for_inference is not None and number >= num_rows_for_inference:
                break
            if len(row) != len(column_names):
                raise ValueError(f"make_csv_dataset: problem inferring types: CSV row {number + 1} has "
                                 f"{len(row)} fields. Expected: {len(column_names)}.")
            inferred = [_infer(row[c], na_value, t) for c, t in zip(wanted, inferred)]
        columns = [Column(t or "string", b"" if (t or "string") == "string" else 0) for t in inferred]
    if chosen is not None and len(columns) != len(chosen):
        raise ValueError(f"make_csv_dataset: column_defaults ({len(columns)}) and select_columns "
                         f"({len(chosen)}) must have the same length.")
    if chosen is not None:
        column_names = [column_names[i] for i in chosen]
    if label_name is not None and label_name not in column_names:
        raise ValueError(f"make_csv_dataset: `label_name` must be one of the columns: {column_names}. "
                         f"Received: {label_name}")
    spec = tuple(TensorSpec(shape=(), dtype=c.dtype) for c in columns)
    rows = Dataset._from_iterable_factory(
        _reader(paths, compression, header, columns, chosen, field_delim, use_quote_delim, na_value), spec,
        kind="CsvDatasetV2")
    if ignore_errors:
        rows = rows.ignore_errors()
    if shuffle:
        rows = rows.shuffle(shuffle_buffer_size, shuffle_seed)
    if num_epochs != 1:
        rows = rows.repeat(num_epochs)
    batches = rows.batch(batch_size, drop_remainder=num_epochs is None)

    def to_features(*values):
        features = collections.OrderedDict(zip(column_names, values))
        if label_name is None:
            return features
        label = features.pop(label_name)
        return features, label

    return batches.map(to_features)


def _glob(file_pattern):
    patterns = [file_pattern] if isinstance(file_pattern, (str, bytes)) else list(file_pattern)
    paths = []
    for pattern in patterns:
        pattern = pattern.decode() if isinstance(pattern, bytes) else str(pattern)
        found = gfile.glob(pattern)
        if not found:
            raise ValueError(f"make_csv_dataset: no files match {pattern!r}.")
        paths.extend(found)
    return paths
