"""`assert_cardinality`: a dataset that declares how many elements it has, checked while iterating."""

from companion._core._errors import FailedPreconditionError
from companion.data._autotune import INFINITE_CARDINALITY
from companion.data._node import Node, wrap


def assert_cardinality(dataset, expected):
    """``dataset`` with cardinality ``expected``; iterating raises `FailedPreconditionError` (a
    RuntimeError) as soon as the count is seen to differ."""
    count = int(getattr(expected, "numpy", lambda: expected)())
    return wrap(AssertCardinalityNode(dataset._node, count))


class AssertCardinalityNode(Node):
    kind = "_AssertCardinalityDataset"

    def __init__(self, node, expected):
        super().__init__(node)
        self._expected = expected

    def cardinality(self):
        return self._expected

    def _iterate(self, ctx):
        seen = 0
        for element in self.inputs[0].iterate(ctx):
            seen += 1
            if self._expected != INFINITE_CARDINALITY and seen > self._expected:
                raise FailedPreconditionError(f"Input dataset was expected to contain {self._expected} "
                                              f"elements but contained at least {seen} elements.")
            yield element
        if self._expected == INFINITE_CARDINALITY:
            raise FailedPreconditionError(f"Input dataset was expected to contain an infinite number of "
                                          f"elements but contained only {seen} elements.")
        if seen < self._expected:
            raise FailedPreconditionError(f"Input dataset was expected to contain {self._expected} elements "
                                          f"but contained only {seen} elements.")
