"""`filter` and `take_while`: keep elements for which a predicate holds."""

import numpy as np

from companion._core._errors import OpError
from companion.data import _spec, _values
from companion.data._autotune import UNKNOWN_CARDINALITY
from companion.data._functions import ElementFunction, call_args, trace_when_made
from companion.data._node import IndexPlan, Node, regroup, wrap

_PLAN_CHUNK = 256  # elements tested per vectorised predicate call


class FilterMethods:
    """`Dataset.filter` and `Dataset.take_while`."""

    def filter(self, predicate, name=None):
        """Keeps the elements for which ``predicate(element)`` is True (a scalar bool tensor).

        Example:
            >>> import companion as tf
            >>> ds = tf.data.Dataset.from_tensor_slices([1, 2, 3]).filter(lambda x: x < 3)
            >>> [int(x) for x in ds]
            [1, 2]
        """
        return wrap(FilterNode(self._node, ElementFunction(predicate, "filter")))

    def take_while(self, predicate, name=None):
        """Yields elements while ``predicate(element)`` is True, and stops at the first False.

        Example:
            >>> import companion as tf
            >>> [int(x) for x in tf.data.Dataset.range(10).take_while(lambda x: x < 5)]
            [0, 1, 2, 3, 4]
        """
        return wrap(TakeWhileNode(self._node, ElementFunction(predicate, "take_while")))


class FilterNode(Node):
    """Elements passing a predicate; over index plans the predicate runs vectorised on chunks."""

    kind = "_FilterDataset"

    def __init__(self, node, predicate):
        super().__init__(node)
        self._predicate = predicate
        _check_predicate(trace_when_made(predicate, node), "filter")

    def cardinality(self):
        return UNKNOWN_CARDINALITY

    def _iterate(self, ctx):
        for index, element in enumerate(self.inputs[0].iterate(ctx)):
            try:
                keep = _truth(self._predicate(call_args(element), index), "filter")
            except Exception as error:
                if ctx.skip_errors is None:
                    raise
                ctx.skip_errors(error, "filter", index)
                continue
            if keep:
                yield element

    def plannable(self):
        return self.inputs[0].plannable()

    def index_plan(self, ctx):
        test = None
        if self.inputs[0].plannable():
            try:
                test = self._predicate.vectorized(call_args(self.inputs[0].spec))
            except Exception:
                test = None
        plan = self.inputs[0].index_plan(ctx) if test is not None else None
        if plan is None:
            return None
        return IndexPlan(plan.gather, _kept(plan, lambda batch: test(call_args(batch))))


class TakeWhileNode(Node):
    """Elements up to (not including) the first that fails the predicate."""

    kind = "_TakeWhileDataset"

    def __init__(self, node, predicate):
        super().__init__(node)
        self._predicate = predicate
        _check_predicate(trace_when_made(predicate, node), "take_while")

    def cardinality(self):
        return UNKNOWN_CARDINALITY

    def _iterate(self, ctx):
        elements = self.inputs[0].iterate(ctx)
        try:
            for index, element in enumerate(elements):
                if not _truth(self._predicate(call_args(element), index), "take_while"):
                    return
                yield element
        finally:
            elements.close()


def _kept(plan, test):
    for indices in regroup(plan.chunks, _PLAN_CHUNK):
        padded = np.concatenate([indices, np.full(_PLAN_CHUNK - len(indices), indices[-1])])
        try:
            mask = np.asarray(test(plan.gather.take(padded)))
        except OpError:  # an element fails (a bad index): those before it are kept first, as in TF
            for index in indices:
                if np.asarray(test(plan.gather.take(np.asarray([index])))).reshape(-1)[0]:
                    yield np.asarray([index])
            continue
        if mask.dtype != bool or mask.shape != (_PLAN_CHUNK,):
            raise ValueError(f"The predicate of Dataset.filter must return a scalar bool tensor; it "
                             f"returned dtype {mask.dtype} with shape {list(mask.shape[1:])}.")
        yield indices[mask[:len(indices)]]


def _check_predicate(spec, what):
    """TF's check of a traced predicate's output (``spec``; None when not traced): a scalar bool."""
    if spec is None:
        return
    if not (isinstance(spec, _spec.TensorSpec) and spec.dtype.name == "bool"
            and spec.shape.is_compatible_with([])):
        raise ValueError(f"Invalid `predicate`: the predicate passed to Dataset.{what} must return a "
                         f"scalar bool tensor (dtype bool, shape ()), but its return type is {spec!r}. "
                         "Compare with a value (e.g. x < 3) or use companion.reduce_all for a tensor of "
                         "booleans.")


def _truth(result, what):
    leaf = result if not isinstance(result, tuple) else None
    array = None if leaf is None or _values.is_dataset(leaf) else np.asarray(leaf)
    if array is None or array.shape != () or array.dtype != bool:
        got = "a structure" if array is None else f"dtype {array.dtype}, shape {list(array.shape)}"
        raise ValueError(f"The predicate passed to Dataset.{what} must return a scalar bool tensor. "
                         f"It returned {got}. Compare with a value (e.g. x < 3) or use "
                         "companion.reduce_all for a tensor of booleans.")
    return bool(array)
