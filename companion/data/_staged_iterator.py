"""An `Iterator` inside a `companion.function`: every call pulls fresh elements (TF's iterator resource).

TensorFlow passes an iterator to a ``tf.function`` as a resource handle, so ``train_step(iterator)``
traces once for all iterators of one element spec and every ``next(iterator)`` in the traced
program pulls the next element when the program runs. companion does the same: an `Iterator` is
a pytree whose only leaf is a *token* (an int64 scalar naming it in a registry), so a function's
signature holds the token's spec, not the iterator's identity. While tracing, ``next(it)`` stages a
host callback (``io_callback``, ordered) that pulls one element from the iterator the token names
when the program runs: as many pulls as the program makes, in order, also inside a staged loop.
The end of the data raises `OutOfRangeError` from the call (an empty `Optional` from
``get_next_as_optional``).

The traced shapes are the element spec's; an unknown dimension (a ``batch`` without
``drop_remainder``) takes the size of the next element, peeked (and kept) when the call's
signature is made, so a partial last batch is traced on its own.
"""

import itertools
import weakref

import jax
import numpy as np
from jax.experimental import io_callback

from companion._core import _callback_errors
from companion._core._context import state
from companion._core._convert import constant
from companion._core._errors import OutOfRangeError
from companion._core._tensor import Tensor
from companion._staging import eager_scope
from companion.data import _spec, _structure
from companion.data._optional import Optional

_registry = weakref.WeakValueDictionary()  # token -> Iterator, for the callbacks of compiled programs
_tokens = itertools.count(1)
EXHAUSTED = object()  # a peek that found the end of the data


def token_of(iterator):
    """The int64 scalar Tensor that names ``iterator`` in compiled programs (made once)."""
    token = iterator._token
    if token is None:
        number = next(_tokens)
        _registry[number] = iterator
        with eager_scope():
            token = iterator._token = constant(number, dtype="int64")
    return token


class Layout:
    """The signature part of an iterator argument: its element spec and the traced leaf shapes.

    Compared by value (the spec's text and the shapes), so iterators of one spec share a trace.
    """

    __slots__ = ("spec", "shapes", "dtypes", "_key")

    def __init__(self, spec, shapes):
        self.spec = spec
        self.shapes = shapes
        self.dtypes = [leaf.dtype._np for leaf in _structure.flatten(spec)]
        self._key = (repr(spec), tuple(shapes))

    def __eq__(self, other):
        return isinstance(other, Layout) and self._key == other._key

    def __hash__(self):
        return hash(self._key)


def layout_of(iterator):
    """The `Layout` a call with ``iterator`` traces: spec shapes, unknown dims from the next element."""
    leaves = _structure.flatten(iterator.element_spec)
    for leaf in leaves:
        if not isinstance(leaf, _spec.TensorSpec) or leaf.dtype._np == np.dtype(object):
            raise TypeError(
                "An iterator passed to (or used inside) a companion.function must yield numeric tensors: "
                f"its element spec holds {leaf!r}. Iterate it outside the function and pass the "
                "elements as arguments, or map strings to numbers in the dataset.")
    dims = [leaf.shape._dims for leaf in leaves]
    if all(d is not None and None not in d for d in dims):
        return Layout(iterator.element_spec, [tuple(d) for d in dims])
    element = iterator._peek()
    if element is EXHAUSTED:  # any shape: the call raises OutOfRangeError before using it
        shapes = [tuple(0 if x is None else x for x in (d or ())) for d in dims]
    else:
        shapes = [np.shape(leaf) for leaf in _structure.flatten(element)]
    return Layout(iterator.element_spec, shapes)


def flatten(iterator):
    """An `Iterator` as a pytree: its token is the one leaf, its `Layout` the node's data."""
    return (token_of(iterator),), layout_of(iterator)


def unflatten(layout, children):
    return StagedIterator(children[0], layout)


class StagedIterator:
    """The iterator a traced function sees: ``next`` stages a pull from the call's iterator."""

    def __init__(self, token, layout):
        self._token = token
        self._layout = layout

    @property
    def element_spec(self):
        return self._layout.spec

    def __iter__(self):
        return self

    def __next__(self):
        return staged_next(self._token, self._layout)

    def get_next(self, name=None):
        return staged_next(self._token, self._layout)

    def get_next_as_optional(self):
        return staged_next(self._token, self._layout, optional=True)

    def __repr__(self):
        return f"<companion.data.Iterator (traced) element_spec={self.element_spec!r}>"


def _flatten_staged(staged):
    return (staged._token,), staged._layout


jax.tree_util.register_pytree_node(StagedIterator, _flatten_staged, unflatten)


def staged_next(token, layout, optional=False):
    """The traced next element of the iterator ``token`` names (an `Optional` with ``optional``)."""
    results = [jax.ShapeDtypeStruct(shape, dtype) for shape, dtype in zip(layout.shapes, layout.dtypes)]
    if optional:
        results = [jax.ShapeDtypeStruct((), np.bool_), *results]

    def pull(number):
        iterator = _registry.get(int(number))
        if iterator is None:
            error = OutOfRangeError("The iterator used by this function was deleted.")
            _callback_errors.remember(error)
            raise error
        try:
            element = iterator._pull()
        except StopIteration:
            if optional:
                return (np.asarray(False), *[np.zeros(r.shape, r.dtype) for r in results[1:]])
            error = OutOfRangeError("End of sequence: the iterator passed to the function has no more "
                                    "elements.")
            _callback_errors.remember(error)
            raise error from None
        leaves = [np.asarray(leaf) for leaf in _structure.flatten(element)]
        for leaf, want in zip(leaves, layout.shapes):
            if leaf.shape != tuple(want):
                error = OutOfRangeError(
                    f"An element of shape {leaf.shape} came from the iterator, but the function was "
                    f"traced for elements of shape {tuple(want)}: companion compiles fixed shapes, so "
                    "every element pulled in one call must have the shape of the first (a partial last "
                    "batch: use batch(..., drop_remainder=True)).")
                _callback_errors.remember(error)
                raise error
        arrays = [leaf.astype(r.dtype, copy=False) for leaf, r in zip(leaves, results[-len(leaves):])]
        return (np.asarray(True), *arrays) if optional else tuple(arrays)

    value = token._value if isinstance(token, Tensor) else token
    outs = [Tensor(a) for a in io_callback(pull, tuple(results), value, ordered=True)]
    if optional:
        return StagedOptional(outs[0], _structure.pack(layout.spec, outs[1:]), layout.spec)
    return _structure.pack(layout.spec, outs)


class StagedOptional(Optional):
    """An `Optional` whose presence is known only when the program runs (a traced bool)."""

    def __init__(self, present, element, element_spec):
        super().__init__(element, element_spec)
        self._present = present

    def has_value(self, name=None):
        return self._present

    def get_value(self, name=None):
        return self._element

    def __repr__(self):
        return f"<companion.experimental.Optional (traced), element_spec={self._element_spec!r}>"


def stages_pulls(iterator):
    """True when ``next(iterator)`` must be staged: an iterator made outside any trace, used while a
    `companion.function` traces (an iterator made inside the trace reads its elements at once)."""
    return bool(state.staging) and iterator._outside and state.traces[0].random_ops is not None

