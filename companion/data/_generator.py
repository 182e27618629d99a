"""`from_generator` and ``Dataset._from_iterable_factory``: datasets whose elements Python code produces."""

import numpy as np

from companion._core import _dtypes
from companion._core._errors import InvalidArgumentError
from companion._core._shape import TensorShape
from companion._core._tensor import Tensor
from companion.data import _spec, _structure, _values
from companion.data._autotune import UNKNOWN_CARDINALITY
from companion.data._node import Node, wrap
from companion.data._trace import traced_call


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
        self.kind = "_FlatMapDataset" if what == "from_generator" else kind
        self._factory, self._spec, self._what, self._cardinality = factory, spec, what, cardinality

    def cardinality(self):
        return self._cardinality

    def _iterate(self, ctx):
        # a reader that can drop a bad record itself takes the context (see `ignore_errors`)
        takes_context = getattr(self._factory, "takes_context", False)
        iterator = iter(self._factory(ctx) if takes_context else self._factory())
        index = 0
        stage = "generator" if self._what == "from_generator" else "read"
        try:
            while True:
                try:
                    value = traced_call(stage, index, next, iterator)
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
        """``value`` as an element of the spec, the way tf.data's generator op converts it.

        The yielded value must nest exactly like the spec (a list is not a tuple; a single
        `TensorSpec` takes any value, so ``(1,)`` is a vector of one); every component becomes
        ``np.asarray(component).astype(spec dtype)`` (numbers wrap and truncate as in NumPy),
        and its shape must fit the spec's.

        Raises:
            GeneratorElementError: an InvalidArgumentError (and a TypeError) when the structure,
                the dtype or the shape does not fit, as tf.data raises when the element is read.
        """
        spec = self._spec
        try:
            components = flatten_up_to(spec, value)
        except (TypeError, ValueError) as error:
            raise GeneratorElementError(
                f"The generator of {self._what} yielded element {index} that does not match the expected "
                f"structure {_structure.describe(spec)} ({spec!r}). Received: {value!r}. {error} Yield "
                "exactly that structure (a tuple, not a list, for a tuple signature).") from None
        leaves = []
        for component, leaf_spec in zip(components, _structure.flatten(spec)):
            leaf = _converted(component, leaf_spec, self._what, index)
            if not leaf_spec.shape.is_compatible_with(leaf.shape):
                raise GeneratorElementError(
                    f"The generator of {self._what} yielded element {index} with a component of shape "
                    f"{tuple(leaf.shape)} where shape {leaf_spec.shape} was expected (None matches any "
                    "size). Fix the generator, or relax output_signature.")
            leaves.append(leaf)
        return _structure.pack(spec, leaves)


def _generator_element_error():
    cls = type("InvalidArgumentError", (InvalidArgumentError, TypeError), {
        "__doc__": "An element a generator yielded does not fit the declared signature. tf.data raises "
                   "InvalidArgumentError when it is read (its message says 'TypeError: `generator` "
                   "yielded ...'); this class is both, so either ``except`` catches it.",
        "__module__": __name__})
    cls.__qualname__ = "InvalidArgumentError"
    return cls


# shows as InvalidArgumentError (TF's class) and is also a TypeError (what companion raised before)
GeneratorElementError = _generator_element_error()


def flatten_up_to(spec, value):
    """The components of ``value`` that line up with the leaves of ``spec`` (in `flatten` order).

    Raises:
        TypeError: ``value`` does not nest like ``spec`` (other container type, keys or length).
    """
    if isinstance(spec, dict):
        if not isinstance(value, dict):
            raise TypeError(f"Expected a dict with keys {sorted(spec)}, got a {type(value).__name__}.")
        if sorted(value) != sorted(spec):
            raise TypeError(f"Expected a dict with keys {sorted(spec)}, got keys {sorted(value)}.")
        return [leaf for key in sorted(spec) for leaf in flatten_up_to(spec[key], value[key])]
    if isinstance(spec, tuple):
        if not isinstance(value, tuple):
            raise TypeError(f"Expected a tuple of {len(spec)}, got a {type(value).__name__}.")
        if len(value) != len(spec):
            raise TypeError(f"Expected a tuple of {len(spec)}, got one of {len(value)}.")
        return [leaf for s, v in zip(spec, value) for leaf in flatten_up_to(s, v)]
    return [value]


def _converted(component, spec, what, index):
    """One yielded component as a leaf of ``spec``'s dtype (NumPy's conversion, as tf.data's)."""
    if isinstance(component, Tensor) or getattr(component, "_is_variable", False):
        component = component.numpy() if isinstance(component, Tensor) else component.read_value().numpy()
    np_dtype = spec.dtype._np
    try:
        if spec.dtype == _dtypes.string:
            array = np.asarray(component, dtype=object)
            if not all(isinstance(item, (bytes, str, np.bytes_, np.str_)) for item in array.reshape(-1)):
                raise TypeError("a string component must hold str or bytes values")
            return _values.to_leaf(array)
        if np.issubdtype(np_dtype, np.number):
            array = np.asarray(component)
            if array.dtype == object or array.dtype.kind in "SU" and not _numeric_text(array):
                raise TypeError(f"cannot interpret {component!r} as {spec.dtype.name}")
            return np.asarray(array.astype(np_dtype))
        return np.asarray(component, dtype=np_dtype)
    except (TypeError, ValueError, OverflowError) as error:
        raise GeneratorElementError(
            f"The generator of {what} yielded element {index} with a component that cannot be converted "
            f"to {spec.dtype.name} ({spec!r}): {error}. Received: {component!r}") from None


def _numeric_text(array):
    try:
        array.astype(np.float64)
    except ValueError:
        return False
    return True


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
