"""Datasets from values in memory: `from_tensor_slices`, `from_tensors`, `range`, `counter`, and
`list_files` (the names of files matching a pattern)."""

import glob
import itertools

import jax
import numpy as np

from companion._core import _dtypes
from companion._core._errors import InvalidArgumentError
from companion._staging._errors import ValuesDecideShapeError
from companion.data import _ragged, _spec, _structure, _values
from companion.data._autotune import INFINITE_CARDINALITY
from companion.data._node import Gather, Node, array_gather, wrap
from companion.data._symbolic import symbolic_source


class SourceMethods:
    """The in-memory constructors of `Dataset`."""

    @staticmethod
    def from_tensor_slices(tensors, name=None):
        """A dataset whose elements are the slices of ``tensors`` along their first dimension.

        ``tensors`` may be a tensor, an array, a (nested) list, or a tuple/dict of them (every
        component with the same first dimension); a tuple gives tuple elements, a dict gives
        dict elements.

        Example:
            >>> import companion as tf
            >>> [int(x) for x in tf.data.Dataset.from_tensor_slices([1, 2, 3])]
            [1, 2, 3]
            >>> ds = tf.data.Dataset.from_tensor_slices(([1, 2], [3, 4], [5, 6]))
            >>> [tuple(int(v) for v in e) for e in ds]
            [(1, 3, 5), (2, 4, 6)]
            >>> ds = tf.data.Dataset.from_tensor_slices({"a": [1, 2], "b": [3, 4]})
            >>> [{k: int(v) for k, v in e.items()} for e in ds]
            [{'a': 1, 'b': 3}, {'a': 2, 'b': 4}]
        """
        element = _values.normalize(tensors)
        if any(_ragged.is_ragged(leaf) for leaf in _structure.flatten(element)):
            return wrap(RaggedSlicesNode(element))
        return wrap(TensorSlicesNode(element))

    @staticmethod
    def from_tensors(tensors, name=None):
        """A dataset with a single element: ``tensors`` (a tensor or a tuple/dict of them).

        Example:
            >>> import companion as tf
            >>> ds = tf.data.Dataset.from_tensors(([1, 2, 3], 'A'))
            >>> [(x.numpy().tolist(), y.numpy()) for x, y in ds]
            [([1, 2, 3], b'A')]
        """
        return wrap(TensorsNode(_values.normalize(tensors)))

    @staticmethod
    def range(*args, output_type=_dtypes.int64, name=None):
        """The numbers of Python's ``range(*args)`` as int64 tensors (or ``output_type``).

        Example:
            >>> import companion as tf
            >>> [int(x) for x in tf.data.Dataset.range(5, 1, -2)]
            [5, 3]
            >>> [float(x) for x in tf.data.Dataset.range(1, 5, 2, output_type=tf.float32)]
            [1.0, 3.0]
        """
        dtype = _dtypes.as_dtype(output_type)
        symbolic = symbolic_source(args, _spec.TensorSpec([], dtype), RangeNode.kind)
        return symbolic if symbolic is not None else wrap(RangeNode(args, dtype))

    @staticmethod
    def counter(start=0, step=1, dtype=_dtypes.int64, name=None):
        """``start, start + step, ...`` without end (infinite cardinality): pair it with `zip`/`take`.

        Example:
            >>> import companion as tf
            >>> [int(x) for x in tf.data.Dataset.counter(5, 2).take(3)]
            [5, 7, 9]
        """
        return wrap(CounterNode(_integer(start), _integer(step), _dtypes.as_dtype(dtype)))

    @staticmethod
    def list_files(file_pattern, shuffle=None, seed=None, name=None):
        """The names of the files matching ``file_pattern`` (a glob, or a list of them), as strings;
        shuffled unless ``shuffle=False`` (sorted then), as TensorFlow does.

        Raises:
            InvalidArgumentError: no file matches.
        """
        # deferred: the file readers are built on Dataset (an upward import is a cycle)
        from companion.data._tfrecord import filename_list

        patterns = filename_list(file_pattern)
        names = sorted({name for pattern in patterns for name in glob.glob(pattern)})
        if not names:
            raise InvalidArgumentError(f"Dataset.list_files: no files matched the pattern(s) {patterns}. "
                                       "Check the path (relative paths start at the working directory).")
        files = SourceMethods.from_tensor_slices(np.asarray(names, dtype=object))
        if shuffle is False:
            return files
        return files.shuffle(len(names), seed=seed)


class TensorSlicesNode(Node):
    """The rows of in-memory arrays; large numeric ones live on the default device."""

    kind = "_TensorSliceDataset"

    def __init__(self, element):
        super().__init__()
        leaves = _structure.flatten(element)
        _check_slices(leaves, element)
        self._element = _structure.pack(element, _values.maybe_on_device(leaves))
        self._size = len(leaves[0])

    def _compute_spec(self):
        return _spec.without_leading(_spec.spec_of(self._element), "from_tensor_slices")

    def cardinality(self):
        return self._size

    def gather(self):
        return array_gather(self._element)

    def plannable(self):
        return True

    def _iterate(self, ctx):
        host = _structure.map_structure(_values.as_host, self._element)
        for i in range(self._size):
            yield _structure.map_structure(lambda leaf, i=i: leaf[i, ...], host)


class RaggedSlicesNode(Node):
    """The rows of in-memory values some of which are RaggedTensors (a row of one is a dense
    tensor of its own length, or a RaggedTensor when it is nested)."""

    kind = "_TensorSliceDataset"

    def __init__(self, element):
        super().__init__()
        leaves = _structure.flatten(element)
        sizes = {len(leaf) if _ragged.is_ragged(leaf) or np.ndim(leaf) else None for leaf in leaves}
        if None in sizes or len(sizes) > 1:
            raise ValueError("from_tensor_slices needs every component to have the same first dimension "
                             f"(rank >= 1). Received: {_describe(element)}.")
        self._element, self._size = element, sizes.pop()

    def _compute_spec(self):
        return _spec.without_leading(_spec.spec_of(self._element), "from_tensor_slices")

    def cardinality(self):
        return self._size

    def _iterate(self, ctx):
        leaves = [_ragged.rows(leaf) if _ragged.is_ragged(leaf) else np.asarray(leaf)
                  for leaf in _structure.flatten(self._element)]
        for i in range(self._size):
            yield _structure.pack(self._element, [leaf[i] for leaf in leaves])


class TensorsNode(Node):
    """One element."""

    kind = "_TensorDataset"

    def __init__(self, element):
        super().__init__()
        self._element = element

    def _compute_spec(self):
        return _spec.spec_of(self._element)

    def cardinality(self):
        return 1

    def plannable(self):
        return not any(_values.is_dataset(leaf) for leaf in _structure.flatten(self._element))

    def gather(self):
        if not self.plannable():
            return None
        return array_gather(_structure.map_structure(lambda leaf: _values.as_host(leaf)[None], self._element))

    def _iterate(self, ctx):
        yield self._element


class RangeNode(Node):
    """``start, start + step, ...`` below ``stop``, computed from indices (no stored values)."""

    kind = "_RangeDataset"

    def __init__(self, args, dtype):
        super().__init__()
        if not 1 <= len(args) <= 3:
            raise ValueError("Dataset.range takes 1 to 3 integers (stop | start, stop | start, stop, step), "
                             f"like Python's range. Received {len(args)} arguments: {args!r}")
        bounds = [_integer(a) for a in args]
        if len(bounds) == 3 and bounds[2] == 0:
            raise InvalidArgumentError(f"Dataset.range: step must be a non-zero integer. Received: {args!r}")
        self._range = range(*bounds)
        self._dtype = dtype

    def _compute_spec(self):
        return _spec.TensorSpec([], self._dtype)

    def cardinality(self):
        return len(self._range)

    def plannable(self):
        return True

    def gather(self):
        start, step, np_dtype = self._range.start, self._range.step, self._dtype._np
        return Gather(len(self._range), lambda idx: (start + idx * step).astype(np_dtype))

    def _iterate(self, ctx):
        np_dtype = self._dtype._np
        for value in self._range:
            yield np.asarray(value, np_dtype)


class CounterNode(Node):
    """``start, start + step, ...`` forever."""

    kind = "_CounterDataset"

    def __init__(self, start, step, dtype):
        super().__init__()
        self._start, self._step, self._dtype = start, step, dtype

    def _compute_spec(self):
        return _spec.TensorSpec([], self._dtype)

    def cardinality(self):
        return INFINITE_CARDINALITY

    def plannable(self):
        return False

    def _iterate(self, ctx):
        np_dtype = self._dtype._np
        for value in itertools.count(self._start, self._step):
            yield np.asarray(value, np_dtype)


def _integer(value):
    """A range bound as a Python int (tensors and NumPy integers too); a TypeError for anything else."""
    if isinstance(getattr(value, "_value", value), jax.core.Tracer):
        raise ValuesDecideShapeError(
            "Dataset.range inside a companion.function needs bounds known while tracing; it received a "
            f"traced tensor ({value!r}). companion builds a dataset's elements while tracing (XLA "
            "compiles fixed shapes), so a bound that is known only when the program runs cannot set its "
            "length. Pass the bound as a Python int (the function traces once per value), build the "
            "dataset outside the function and pass it in, or loop with companion.range(n) instead.")
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        array = np.asarray(getattr(value, "_value", value)) if not isinstance(value, (int, float)) else None
        if array is None or array.shape != () or array.dtype.kind not in "iu":
            raise TypeError(f"Dataset.range takes integer bounds (they are int64 tensors in TensorFlow; "
                            f"output_type only sets the elements' dtype). Received: {value!r}")
        value = array.item()
    return int(value)


def _check_slices(leaves, element):
    for leaf in leaves:
        if _values.is_dataset(leaf) or np.ndim(leaf) == 0:
            raise ValueError("from_tensor_slices needs every component to have a first dimension to "
                             f"slice (rank >= 1). Received: {_describe(element)}. Use from_tensors for "
                             "a single element.")
    sizes = {len(leaf) for leaf in leaves}
    if len(sizes) > 1:
        raise ValueError("from_tensor_slices needs every component to have the same first dimension. "
                         f"Received components with shapes {[list(np.shape(x)) for x in leaves]}.")


def _describe(element):
    return _structure.map_structure(lambda leaf: f"shape={list(np.shape(leaf))}", element)
