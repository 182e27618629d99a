"""`Dataset`: tf.data's input pipeline object; transformations live in the mixins named below."""

from companion._core._convert import constant
from companion._core._errors import InvalidArgumentError
from companion.data import _structure, _values
from companion.data._autotune import INFINITE_CARDINALITY, UNKNOWN_CARDINALITY
from companion.data._cache import CacheMethods
from companion.data._generator import GeneratorMethods
from companion.data._iterator import Iterator
from companion.data._node import Node, node_of, wrap
from companion.data._options import Options
from companion.data._prefetch import PrefetchMethods
from companion.data._sampling import SamplingMethods
from companion.data._save import SaveMethods
from companion.data._shuffle import ShuffleMethods
from companion.data._sources import SourceMethods
from companion.data._transforms._batch import BatchMethods
from companion.data._transforms._combine import CombineMethods
from companion.data._transforms._errors import IgnoreErrorsMethods
from companion.data._transforms._filter import FilterMethods
from companion.data._transforms._grouping import GroupingMethods
from companion.data._transforms._interleave import InterleaveMethods
from companion.data._transforms._map import MapMethods
from companion.data._transforms._padded_batch import PaddedBatchMethods
from companion.data._transforms._scan import ScanMethods
from companion.data._transforms._slicing import SlicingMethods
from companion.data._transforms._window import WindowMethods


class Dataset(SourceMethods, GeneratorMethods, MapMethods, FilterMethods, InterleaveMethods,
              BatchMethods, PaddedBatchMethods, SlicingMethods, CombineMethods, ScanMethods,
              WindowMethods, ShuffleMethods, PrefetchMethods, CacheMethods, SaveMethods, GroupingMethods,
              SamplingMethods, IgnoreErrorsMethods):
    """A sequence of elements built by a pipeline of transformations (``tf.data.Dataset``).

    Elements are nested structures (tuples, dicts) of tensors. Iterating yields companion
    Tensors; `as_numpy_iterator` yields NumPy values. Create datasets with the static
    constructors (`from_tensor_slices`, `range`, `from_generator`, ...) and chain
    transformations (`map`, `shuffle`, `batch`, `prefetch`, ...); each returns a new Dataset.

    Subclasses (e.g. ``TFRecordDataset``) call ``super().__init__(dataset)`` with the Dataset
    they stand for.

    Example:
        >>> import companion as tf
        >>> ds = tf.data.Dataset.from_tensor_slices([1, 2, 3]).map(lambda x: x * 2)
        >>> [int(x) for x in ds]
        [2, 4, 6]
        >>> ds.element_spec
        TensorSpec(shape=(), dtype=companion.int32, name=None)
    """

    def __init__(self, source):
        self._node = source if isinstance(source, Node) else node_of(source, "Dataset(...)")

    # -- what the dataset is ------------------------------------------------------------
    @property
    def element_spec(self):
        """The structure of `TensorSpec`s every element matches.

        Example:
            >>> import companion as tf
            >>> tf.data.Dataset.range(3).element_spec.shape.as_list()
            []
        """
        return self._node.spec

    def cardinality(self):
        """The number of elements, or INFINITE_CARDINALITY (-1) / UNKNOWN_CARDINALITY (-2), as a Tensor.

        Example:
            >>> import companion as tf
            >>> ds = tf.data.Dataset.range(42)
            >>> int(ds.cardinality()), int(ds.repeat().cardinality())
            (42, -1)
            >>> int(ds.filter(lambda x: True).cardinality()) == tf.data.UNKNOWN_CARDINALITY
            True
        """
        return constant(self._node.cardinality(), dtype="int64")

    def __len__(self):
        """The number of elements; a TypeError when it is infinite or unknown."""
        count = self._node.cardinality()
        if count == INFINITE_CARDINALITY:
            raise TypeError("The dataset is infinite.")
        if count == UNKNOWN_CARDINALITY:
            raise TypeError("The dataset length is unknown.")
        return count

    def __bool__(self):
        return True

    def options(self):
        """The `Options` of this dataset (merged over the whole pipeline)."""
        return self._node.options()

    def with_options(self, options, name=None):
        """The same dataset with ``options`` merged over the pipeline's options.

        Example:
            >>> import companion as tf
            >>> options = tf.data.Options()
            >>> options.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.OFF
            >>> ds = tf.data.Dataset.range(3).with_options(options)
            >>> ds.options().experimental_distribute.auto_shard_policy
            <AutoShardPolicy.OFF: -1>
        """
        if not isinstance(options, Options):
            raise TypeError(f"with_options expects a companion.data.Options. Received: {options!r}")
        return wrap(_OptionsNode(self._node, options))

    # -- iteration ----------------------------------------------------------------------
    def __iter__(self):
        """An `Iterator` yielding companion Tensors (nested structures kept)."""
        return Iterator(self._node)

    def as_numpy_iterator(self):
        """An iterator yielding NumPy values (arrays, NumPy scalars, ``bytes``) instead of Tensors.

        Example:
            >>> import companion as tf
            >>> ds = tf.data.Dataset.from_tensor_slices({'a': ([1, 2], [3, 4]), 'b': [5, 6]})
            >>> [(int(e['a'][0]), int(e['a'][1]), int(e['b'])) for e in ds.as_numpy_iterator()]
            [(1, 3, 5), (2, 4, 6)]
        """
        for spec in _structure.flatten(self._node.spec):
            if not hasattr(spec, "dtype"):
                raise TypeError(f"as_numpy_iterator() does not support datasets containing {spec!r}. "
                                "Turn windows into tensors first, e.g. with flat_map(lambda w: w.batch(n)).")
        return Iterator(self._node, convert=_values.to_numpy_value)

    def apply(self, transformation_func):
        """Applies ``transformation_func(dataset) -> Dataset``: for reusable pipeline pieces.

        Example:
            >>> import companion as tf
            >>> ds = tf.data.Dataset.range(100).apply(lambda ds: ds.filter(lambda x: x < 5))
            >>> [int(x) for x in ds]
            [0, 1, 2, 3, 4]
        """
        result = transformation_func(self)
        if not isinstance(result, Dataset):
            raise TypeError("The transformation passed to Dataset.apply must return a Dataset. "
                            f"Received: {result!r} of type {type(result).__name__}.")
        return result

    def get_single_element(self, name=None):
        """The only element of a one-element dataset (an InvalidArgumentError otherwise)."""
        it = iter(self)
        try:
            element = next(it)
        except StopIteration:
            raise InvalidArgumentError("get_single_element: the dataset is empty; it must have "
                                       "exactly one element.") from None
        try:
            next(it)
        except StopIteration:
            return element
        finally:
            it.close()
        raise InvalidArgumentError("get_single_element: the dataset has more than one element; "
                                   "it must have exactly one. Use take(1) or batch() first.")

    def __repr__(self):  # a reader class (TFRecordDatasetV2) shows its own name, as TF's classes do
        kind = self._node.kind if type(self) is Dataset else type(self).__name__
        return f"<{kind} element_spec={self._safe_spec()}>"

    def _safe_spec(self):
        try:
            return repr(self._node.spec)
        except Exception:  # a spec that needs the data (an eager map) is not worth failing a repr
            return "<computed on first use>"


class _OptionsNode(Node):
    """with_options: passes everything through, adds options."""

    def __init__(self, node, options):
        super().__init__(node)
        self.kind = "_OptionsDataset"
        self._options = options

    def own_options(self):
        return self._options

    def _iterate(self, ctx):
        return self.inputs[0].iterate(ctx)

    def gather(self):
        return self.inputs[0].gather()

    def index_plan(self, ctx):
        return self.inputs[0].index_plan(ctx)

    def plannable(self):
        return self.inputs[0].plannable()
