"""`Dataset.save` / `Dataset.load` (also ``data.experimental.save/load``): a dataset stored in a folder.

The folder holds ``element_spec.json``, one element file per shard (see `_records`; ``.gz``
when compressed with GZIP) and ``metadata.json``, written last, which marks it complete.
"""

import gzip
import json
import os

from companion._core._errors import NotFoundError
from companion.data import _records, _spec, _structure
from companion.data._autotune import UNKNOWN_CARDINALITY
from companion.data._iterator import Iterator
from companion.data._node import Node, node_of, wrap
from companion.data._values import to_tensor

_METADATA = "metadata.json"
_SPEC = "element_spec.json"


class SaveMethods:
    """`Dataset.save` and `Dataset.load`."""

    def save(self, path, compression=None, shard_func=None, checkpoint_args=None):
        """Writes every element to the folder ``path``, to be read back with `Dataset.load`.

        Args:
            path: a folder (created if needed; files of an earlier save are replaced).
            compression: None or ``'GZIP'``.
            shard_func: maps an element to an integer shard number (default: one shard).
            checkpoint_args: accepted for TensorFlow compatibility; unused.

        Example:
            >>> import os, tempfile
            >>> import companion as tf
            >>> path = os.path.join(tempfile.mkdtemp(), "saved_data")
            >>> tf.data.Dataset.range(2).save(path)
            >>> [int(x) for x in tf.data.Dataset.load(path)]
            [0, 1]
        """
        save(self, path, compression, shard_func)

    @staticmethod
    def load(path, element_spec=None, compression=None, reader_func=None):
        """The dataset stored in the folder ``path`` by `Dataset.save`.

        Args:
            path: the folder.
            element_spec: the expected spec (read from the folder when omitted).
            compression: the compression used when saving (read from the folder when omitted).
            reader_func: maps a dataset of per-shard datasets to one dataset (default: shards in
                order, ``lambda shards: shards.flat_map(lambda d: d)``).
        """
        return load(path, element_spec, compression, reader_func)


def save(dataset, path, compression=None, shard_func=None):
    """``dataset.save(...)``; see `SaveMethods.save`."""
    node = node_of(dataset, "data.experimental.save")
    path = os.fspath(path)
    os.makedirs(path, exist_ok=True)
    _remove_old(path)
    gz = _compression(compression) == "GZIP"
    files, count = {}, 0
    try:
        for element in Iterator(node, convert=lambda leaf: leaf):
            shard = 0 if shard_func is None else _shard_of(shard_func, element)
            if shard not in files:
                files[shard] = _open(os.path.join(path, _shard_name(shard, gz)), "wb", gz)
            _records.write_element(files[shard], element)
            count += 1
    finally:
        for f in files.values():
            f.close()
    with open(os.path.join(path, _SPEC), "w") as f:
        f.write(_records.spec_to_json(node.spec))
    metadata = {"count": count, "compression": "GZIP" if gz else None, "shards": sorted(files)}
    with open(os.path.join(path, _METADATA), "w") as f:
        json.dump(metadata, f)


def load(path, element_spec=None, compression=None, reader_func=None):
    """``Dataset.load(...)``; see `SaveMethods.load`."""
    path = os.fspath(path)
    try:
        with open(os.path.join(path, _METADATA)) as f:
            metadata = json.load(f)
        with open(os.path.join(path, _SPEC)) as f:
            stored = _records.spec_from_json(f.read())
    except FileNotFoundError:
        raise NotFoundError(f"No complete saved dataset in {path!r} (its {_METADATA} is missing). Save one "
                            "there with dataset.save(path), and let it finish.") from None
    spec = stored if element_spec is None else element_spec
    gz = (metadata["compression"] if compression is None else _compression(compression)) == "GZIP"
    shards = [_ShardNode(os.path.join(path, _shard_name(s, gz)), spec, gz) for s in metadata["shards"]]
    datasets = wrap(_DatasetsNode(shards, spec))
    if reader_func is None:
        return wrap(_CountedNode(datasets.flat_map(lambda d: d)._node, metadata["count"]))
    return reader_func(datasets)


class _ShardNode(Node):
    kind = "_LoadDataset"

    def __init__(self, file, spec, gz):
        super().__init__()
        self._file, self._spec, self._gz = file, spec, gz

    def cardinality(self):
        return UNKNOWN_CARDINALITY

    def _iterate(self, ctx):
        with _open(self._file, "rb", self._gz) as f:
            yield from _records.read_elements(f, self._spec, self._file)


class _DatasetsNode(Node):
    """The shards as a dataset of datasets (what ``reader_func`` receives)."""

    def __init__(self, shards, spec):
        super().__init__()
        self._shards, self._element_spec = shards, spec

    def _compute_spec(self):
        return _spec.DatasetSpec(self._element_spec)

    def cardinality(self):
        return len(self._shards)

    def _iterate(self, ctx):
        for shard in self._shards:
            yield wrap(shard)


class _CountedNode(Node):
    """Passes elements through; the cardinality is known from the metadata."""

    def __init__(self, node, count):
        super().__init__(node)
        self.kind, self._count = "_LoadDataset", count

    def cardinality(self):
        return self._count

    def _iterate(self, ctx):
        return self.inputs[0].iterate(ctx)


def _shard_of(shard_func, element):
    tensors = _structure.map_structure(to_tensor, element)
    return int(shard_func(*(tensors if type(tensors) is tuple else (tensors,))))


def _compression(value):
    if value in (None, "", "NONE"):
        return None
    if str(value).upper() == "GZIP":
        return "GZIP"
    raise ValueError(f"compression must be None or 'GZIP'. Received: compression={value!r}")


def _shard_name(shard, gz):
    return f"shard_{int(shard):05d}.records" + (".gz" if gz else "")


def _open(path, mode, gz):
    return gzip.open(path, mode) if gz else open(path, mode)


def _remove_old(path):
    for name in os.listdir(path):
        if name == _METADATA or name == _SPEC or name.startswith("shard_"):
            os.remove(os.path.join(path, name))
