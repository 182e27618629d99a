"""`Iterator`: what ``iter(dataset)`` returns; owns the pipeline's threads and stops them when done."""

from companion._core._context import state
from companion._core._errors import OutOfRangeError
from companion.data import _structure, _values
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

    @property
    def element_spec(self):
        return self._node.spec

    def __iter__(self):
        return self

    def __next__(self):
        if self._generator is None:
            raise StopIteration
        try:
            if state.tapes or state.staging:
                with outside_user_code():
                    element = next(self._generator)
            else:
                element = next(self._generator)
        except BaseException:
            self.close()
            raise
        return _structure.map_structure(self._convert, element)

    def get_next(self):
        """The next element; raises `OutOfRangeError` (an IndexError) at the end."""
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
