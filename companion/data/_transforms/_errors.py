"""`ignore_errors`: elements whose computation raised are dropped instead of ending the iteration."""

from companion._logger import get_logger
from companion.data._autotune import UNKNOWN_CARDINALITY
from companion.data._node import Node, wrap


class IgnoreErrorsMethods:
    """`Dataset.ignore_errors`."""

    def ignore_errors(self, log_warning=False, name=None):
        """Drops the elements whose computation raised above this point (a failing `map` or `filter`
        function, a `batch` of elements of different shapes) and goes on with the next ones; with
        ``log_warning``, each dropped element is logged on the "tensorflow" logger.

        An error raised by a source itself (a generator, a file that cannot be read) still ends the
        iteration: a Python generator cannot resume after it raised.

        Example:
            >>> import companion as tf
            >>> ds = tf.data.Dataset.from_tensor_slices([1.0, 0.0, 2.0])
            >>> ds = ds.map(lambda x: tf.debugging.check_numerics(1.0 / x, "bad")).ignore_errors()
            >>> [float(x) for x in ds]
            [1.0, 0.5]
        """
        return wrap(IgnoreErrorsNode(self._node, bool(log_warning)))


class IgnoreErrorsNode(Node):
    """The elements of its input, with failing ones dropped by the stages above (see `Context`)."""

    kind = "_IgnoreErrorsDataset"

    def __init__(self, node, log_warning):
        super().__init__(node)
        self._log_warning = log_warning

    def cardinality(self):
        return UNKNOWN_CARDINALITY  # as TF: how many elements fail is not known in advance

    def _iterate(self, ctx):
        inner = ctx.child()
        inner.skip_errors = self._skip
        try:
            yield from self.inputs[0].iterate(inner)
        finally:
            inner.cancel()

    def _skip(self, error, stage, index):
        if self._log_warning:
            get_logger().warning("Dataset.ignore_errors: dropped element %d, which raised in %s: %s: %s",
                                 index, stage, type(error).__name__, error)
