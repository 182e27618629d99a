"""`cache`: keep the elements of the first complete iteration, in memory or in files.

In memory, the first full pass stores the elements (as stacked columns when they stack,
which also gives later epochs random access for fused shuffle/batch). With a filename, the
first full pass writes ``<filename>.data-00000-of-00001`` and ``<filename>.index``; any
later iteration — in this process or another — reads them instead of the input. Files
are published atomically when the pass completes, so a pass stopped early leaves nothing.
"""

import itertools
import os
import threading
import uuid

from companion.data import _records, _spec, _structure, _trace, _values
from companion.data._node import Node, array_gather, wrap
from companion.data._transforms._batch import stack_elements


class CacheMethods:
    """`Dataset.cache`."""

    def cache(self, filename="", name=None):
        """Caches the elements of the first complete iteration (in memory, or in files).

        Args:
            filename: '' keeps the elements in memory; a path prefix stores them in files that
                later iterations and other processes reuse (delete them to recompute).
            name: accepted for TensorFlow compatibility; unused.

        Example:
            >>> import companion as tf
            >>> ds = tf.data.Dataset.range(5).map(lambda x: x ** 2).cache()
            >>> [int(x) for x in ds], [int(x) for x in ds]
            ([0, 1, 4, 9, 16], [0, 1, 4, 9, 16])
        """
        filename = os.fspath(filename)
        node = MemoryCacheNode(self._node) if filename == "" else FileCacheNode(self._node, filename)
        return wrap(node)


class MemoryCacheNode(Node):
    kind = "CacheDataset"

    def __init__(self, node):
        super().__init__(node)
        self._lock = threading.Lock()
        self._elements = None  # after a complete pass: a list, or columns (one stacked element)
        self._columns = None

    def plannable(self):
        return self._columns is not None

    def gather(self):
        return None if self._columns is None else array_gather(self._columns)

    def iterate(self, ctx):
        complete = self._columns is not None or self._elements is not None
        elements = super().iterate(ctx)  # a complete cache of columns is read by index (fused)
        return _served(elements) if complete else elements

    def _iterate(self, ctx):
        if self._columns is not None:
            yield from self._column_rows()
            return
        if self._elements is not None:
            yield from self._elements
            return
        seen = []
        for element in self.inputs[0].iterate(ctx):
            seen.append(element)
            yield element
        self._store(seen)

    def _column_rows(self):
        host = _structure.map_structure(_values.as_host, self._columns)
        for i in range(len(_structure.flatten(host)[0])):
            yield _structure.map_structure(lambda leaf, i=i: leaf[i, ...], host)

    def _store(self, seen):
        with self._lock:
            if self._elements is not None or self._columns is not None:
                return
            try:
                columns = stack_elements(seen) if seen else None
            except (ValueError, TypeError):
                columns = None
            if columns is None or any(_values.is_dataset(x) for x in _structure.flatten(columns)):
                self._elements = seen
            else:
                leaves = _values.maybe_on_device(_structure.flatten(columns))
                self._columns = _structure.pack(columns, leaves)


class FileCacheNode(Node):
    kind = "CacheDataset"

    def __init__(self, node, filename):
        super().__init__(node)
        self._data = f"{filename}.data-00000-of-00001"
        self._index = f"{filename}.index"

    def _iterate(self, ctx):
        if os.path.exists(self._index):
            yield from _served(self._read())
            return
        yield from self._write(ctx)

    def _read(self):
        with open(self._index) as f:
            spec = _records.spec_from_json(f.read())
        with open(self._data, "rb") as f:
            yield from _records.read_elements(f, spec, self._data)

    def _write(self, ctx):
        token = f".tmp-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        spec, complete = None, False
        try:
            with open(self._data + token, "wb") as f:
                for element in self.inputs[0].iterate(ctx):
                    spec = spec or _spec.spec_of(element)
                    _records.write_element(f, element)
                    yield element
            complete = True
        finally:
            if complete:
                self._publish(token, spec if spec is not None else self.inputs[0].spec)
            else:
                _remove(self._data + token)

    def _publish(self, token, spec):
        os.replace(self._data + token, self._data)
        with open(self._index + token, "w") as f:
            f.write(_records.spec_to_json(spec))
        os.replace(self._index + token, self._index)


def _served(elements):
    """``elements`` (read from a complete cache), each read recorded as a ``cache`` span when tracing."""
    try:
        for index in itertools.count():
            token = _trace.begin()
            element = next(elements, _END)
            if element is _END:
                return
            _trace.end(token, "cache", index)
            yield element
    finally:
        close = getattr(elements, "close", None)
        if close is not None:
            close()


_END = object()


def _remove(path):
    try:
        os.remove(path)
    except OSError:
        pass
