"""Dataset arguments of a function being traced: the windows ``flat_map``/``interleave`` pass it.

TensorFlow traces a dataset function once, when the transformation is made; an argument that is
itself a dataset (an element of `Dataset.window`) is then a ``_VariantDataset`` whose element spec
is known and whose elements are not. Transformations of it work (they need only the spec); reading
its elements raises `NotStageable`, and the function then runs on real windows instead.
"""

import contextlib
import threading

import jax

from companion.data._autotune import UNKNOWN_CARDINALITY
from companion.data._node import Node, wrap

_STATE = threading.local()


class SymbolicDatasetNode(Node):
    """A dataset of known element spec and unknown elements (a traced function's argument)."""

    kind = "_VariantDataset"

    def __init__(self, spec, kind=None):
        super().__init__()
        self._spec = spec
        if kind is not None:
            self.kind = kind

    def _compute_spec(self):
        return self._spec

    def cardinality(self):
        return UNKNOWN_CARDINALITY

    def _iterate(self, ctx):
        # deferred: companion.data._functions imports this module at its top
        from companion.data._functions import NotStageable

        raise NotStageable("the elements of a dataset argument are not known while its function is traced")
        yield  # a generator, as every node's _iterate


def symbolic_dataset(spec):
    """The Dataset a traced function gets for an argument of `DatasetSpec` ``spec``."""
    return wrap(SymbolicDatasetNode(spec.element_spec))


@contextlib.contextmanager
def tracing_dataset_function():
    """Marks the block as the trace of a dataset function (see `symbolic_source`)."""
    depth = getattr(_STATE, "depth", 0)
    _STATE.depth = depth + 1
    try:
        yield
    finally:
        _STATE.depth = depth


def symbolic_source(args, spec, kind):
    """While a dataset function is traced, a source made from traced values (``Dataset.range(x)``
    for an argument ``x``) is a dataset of ``spec`` without elements, as in TF's trace; None
    otherwise (the source is made from ``args`` as usual)."""
    if not getattr(_STATE, "depth", 0):
        return None
    if not any(isinstance(getattr(a, "_value", a), jax.core.Tracer) for a in args):
        return None
    return wrap(SymbolicDatasetNode(spec, kind))
