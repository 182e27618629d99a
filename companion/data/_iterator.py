"""`Iterator`: what ``iter(dataset)`` returns; owns the pipeline's threads and stops them when done."""

import jax

from companion._core._context import state
from companion._core._errors import OutOfRangeError
from companion.data import _staged_iterator, _structure, _values
from companion.data._optional import Optional
from companion.data._runtime import Context, outside_user_code


class Iterator:
    """Iterates over a Dataset, converting each element to Tensors (or NumPy values).

    Background threads of the pipeline (prefetch, parallel map/interleave) stop when the
    iterator is exhausted, closed, or garbage collected, e.g. after ``break``.

    Example:
        >>> import companion as tf
        >>> it = iter(tf.data.Dataset.range(2))
        >>> print(next(it))
        companion.Tensor(0, shape=(), dtype=int64)
        >>> print(it.get_next())
        companion.Tensor(1, shape=(), dtype=int64)
    """

    def __init__(self, node, convert=_values.to_tensor):
        self._node = node
        self._convert = convert
        self._ctx = Context(node.options())
        self._generator = node.iterate(self._ctx)
        self._peeked = None  # an element read ahead for a function's signature (`_staged_iterator`)
        self._token = None  # its name in compiled programs, made on first use in a function
        self._outside = not state.staging  # made outside any trace: a function's pulls are staged

    @property
    def element_spec(self):
        return self._node.spec

    def __iter__(self):
        return self

    def __next__(self):
        if state.staging and _staged_iterator.stages_pulls(self):
            return _staged_iterator.staged_next(_staged_iterator.token_of(self),
                                                _staged_iterator.layout_of(self))
        return _structure.map_structure(self._convert, self._pull())

    def _pull(self):
        """The next raw element (leaves as the pipeline made them); StopIteration at the end."""
        peeked = self._peeked
        if peeked is not None:
            self._peeked = None
            if peeked is _staged_iterator.EXHAUSTED:
                raise StopIteration
            return peeked
        if self._generator is None:
            raise StopIteration
        try:
            if state.tapes or state.staging:
                with outside_user_code():
                    return next(self._generator)
            return next(self._generator)
        except BaseException:
            self.close()
            raise

    def _peek(self):
        """The next raw element, kept for the next pull (`_staged_iterator.EXHAUSTED` at the end)."""
        if self._peeked is None:
            try:
                self._peeked = self._pull()
            except StopIteration:
                self._peeked = _staged_iterator.EXHAUSTED
        return self._peeked

    def get_next(self):
        """The next element; raises `OutOfRangeError` (an IndexError) at the end."""
        if state.staging and _staged_iterator.stages_pulls(self):
            return next(self)
        try:
            return next(self)
        except StopIteration:
            raise OutOfRangeError("End of sequence: the iterator has no more elements.") from None

    def get_next_as_optional(self):
        """The next element as an `Optional` (``tf.experimental.Optional``), empty at the end.

        Example:
            >>> import companion as tf
            >>> it = iter(tf.data.Dataset.range(1))
            >>> [bool(it.get_next_as_optional().has_value()) for _ in range(2)]
            [True, False]
        """
        if state.staging and _staged_iterator.stages_pulls(self):
            return _staged_iterator.staged_next(_staged_iterator.token_of(self),
                                                _staged_iterator.layout_of(self), optional=True)
        try:
            element = next(self)
        except StopIteration:
            return Optional.empty(self.element_spec)
        return Optional.from_value(element)

    def close(self):
        """Stops the pipeline's threads and releases its resources (idempotent)."""
        generator, self._generator = self._generator, None
        if generator is None:
            return
        self._ctx.cancel()
        try:
            generator.close()
        except ValueError:  # closed from inside its own frame: the threads were cancelled anyway
            pass

    def __del__(self):
        try:
            self.close()
        except Exception:  # noqa: S110 - nothing can be reported from a finalizer
            pass

    def __repr__(self):
        return f"<companion.data.Iterator element_spec={self.element_spec!r}>"


jax.tree_util.register_pytree_node(Iterator, _staged_iterator.flatten, _staged_iterator.unflatten)
