"""`from_generator` and ``Dataset._from_iterable_factory``: datasets whose elements Python code produces."""

from companion import _dtypes
from companion._errors import InvalidArgumentError
from companion._shape import TensorShape
from companion.data import _spec, _structure, _values
from companion.data._autotune import UNKNOWN_CARDINALITY
from companion.data._node import Node, wrap


class GeneratorMethods:
    """`Dataset.from_generator` and the internal iterable-factory constructor."""

    @staticmethod
    def from_generator(generator, output_types=None, output_shapes=None, args=None, output_signature=None,
                       name=None):
        """A dataset whose elements ``generator(*args)`` yields (called anew for every iteration).

        Args:
            generator: a callable returning an iterable (e.g. a generator function).
            output_types: (older API) the dtype structure of the elements.
            output_shapes: (older API) their shapes; unknown when omitted.
            args: a tuple of values passed to ``generator`` as NumPy values (strings as bytes).
            output_signature: a structure of `companion.TensorSpec` the elements match.
            name: accepted for TensorFlow compatibility; unused.

        Raises:
            TypeError: ``generator`` is not callable, or no/both signatures were given.

        Example:
            >>> import itertools
            >>> import companion as tf
            >>> def gen():
            ...     for i in itertools.count(1):
            ...         yield (i, [1] * i)
            >>> ds = tf.data.Dataset.from_generator(gen, output_signature=(
            ...     tf.TensorSpec(shape=(), dtype=tf.int64), tf.TensorSpec(shape=(None,), dtype=tf.int32)))
            >>> [(int(i), v.numpy().tolist()) for i, v in ds.take(2)]
            [(1, [1]), (2, [1, 1])]
        """
        if not callable(generator):
            raise TypeError(f"from_generator: `generator` must be a Python callable that returns an "
                            f"iterable. Received: {generator!r}")
        spec = _signature(output_types, output_shapes, output_signature)
        call_args = tuple(_values.to_numpy_value(_values.to_leaf(a)) for a in (args or ()))
        return wrap(IterableNode(lambda: generator(*call_args), spec, "from_generator"))

    @staticmethod
    def _from_iterable_factory(factory, element_spec, cardinality=UNKNOWN_CARDINALITY, kind="Dataset"):
        """Internal: a Dataset over ``factory()``, called anew for each iteration.

        For companion's own readers (TFRecord files, data set loaders). ``factory()`` returns
        an iterable of elements with the structure of ``element_spec`` (TensorSpecs); leaves may
        be NumPy arrays, Python scalars or ``bytes``, or Tensors, and are converted to the
        spec's dtypes with their shapes checked.
        """
        return wrap(IterableNode(factory, element_spec, "a dataset reader", cardinality, kind))


class IterableNode(Node):
    """Elements produced by Python code, converted and checked against a spec."""

    def __init__(self, factory, spec, what, cardinality=UNKNOWN_CARDINALITY, kind="FlatMapDataset"):
        super().__init__()
        self.kind = "GeneratorDataset" if what == "from_generator" else kind
        self._factory, self._spec, self._what, self._cardinality = factory, spec, what, cardinality

    def cardinality(self):
        return self._cardinality

    def _iterate(self, ctx):
        iterator = iter(self._factory())
        index = 0
        try:
            while True:
                try:
                    value = next(iterator)
                except StopIteration:
                    return
                except Exception as error:
                    error.add_note(f"(companion.data) Raised by the generator of {self._what} while "
                                   f"producing element {index}.")
                    raise
                yield self._convert(value, index)
                index += 1
        finally:
            close = getattr(iterator, "close", None)
            if close is not None:
                close()

    def _convert(self, value, index):
        spec = self._spec
        if isinstance(spec, tuple) and isinstance(value, list) and len(value) == len(spec):
            value = tuple(value)
        if not _structure.same_structure(value, spec) or (_structure.is_structure(spec)
                                                           and not _structure.is_structure(value)):
            raise TypeError(f"The generator of {self._what} yielded an element that does not match the "
                            f"expected structure {_structure.describe(spec)} ({spec!r}). Element {index}: "
                            f"{value!r}")
        try:
            element = _values.normalize(value, spec)
        except (TypeError, ValueError) as error:
            raise TypeError(f"The generator of {self._what} yielded element {index} that cannot be "
                            f"converted to {spec!r}: {error}. Received: {value!r}") from error
        for leaf, leaf_spec in zip(_structure.flatten(element), _structure.flatten(spec)):
            if not leaf_spec.shape.is_compatible_with(leaf.shape):
                raise InvalidArgumentError(
                    f"The generator of {self._what} yielded element {index} with a component of shape "
                    f"{tuple(leaf.shape)} where shape {leaf_spec.shape} was expected (None matches any "
                    "size). Fix the generator, or relax output_signature.")
        return element


def _signature(output_types, output_shapes, output_signature):
    if output_signature is not None:
        if output_types is not None or output_shapes is not None:
            raise TypeError("from_generator: pass either output_signature, or the older output_types "
                            "(with optional output_shapes), not both.")
        for leaf in _structure.flatten(output_signature):
            if not isinstance(leaf, _spec.TensorSpec):
                raise TypeError("from_generator: output_signature must be a structure of "
                                f"companion.TensorSpec. Received a leaf {leaf!r}.")
        return output_signature
    if output_types is None:
        raise TypeError("from_generator needs output_signature=companion.TensorSpec(...) (or a tuple/"
                        "dict of them) describing the elements the generator yields.")
    if output_shapes is None:
        return _structure.map_structure(lambda t: _spec.TensorSpec(None, _dtypes.as_dtype(t)), output_types)
    shapes = output_shapes if _structure.is_structure(output_types) else (output_shapes,)
    types = output_types if _structure.is_structure(output_types) else (output_types,)
    specs = _structure.pack(types, [_spec.TensorSpec(TensorShape(s), _dtypes.as_dtype(t)) for t, s in
                                    zip(_structure.flatten(types), _shape_leaves(types, shapes))])
    return specs if _structure.is_structure(output_types) else specs[0]


def _shape_leaves(types, shapes):
    """Shapes are lists (leaves), so flatten ``shapes`` along the structure of ``types``."""
    if isinstance(types, dict):
        return [s for k in sorted(types) for s in _shape_leaves(types[k], shapes[k])]
    if isinstance(types, tuple):
        return [s for t, sh in zip(types, shapes) for s in _shape_leaves(t, sh)]
    return [shapes]
