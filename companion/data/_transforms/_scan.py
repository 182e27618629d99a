"""`scan` and `reduce`: a state carried through the elements."""

from companion.data import _spec, _structure, _values
from companion.data._functions import ElementFunction, trace_when_made
from companion.data._node import Node, first_elements, wrap
from companion.data._runtime import Context, outside_user_code


class ScanMethods:
    """`Dataset.scan` and `Dataset.reduce`."""

    def scan(self, initial_state, scan_func, name=None):
        """Carries a state through the elements: ``scan_func(state, element) -> (new_state, output)``.

        Example:
            >>> import companion as tf
            >>> ds = tf.data.Dataset.range(10).scan(
            ...     initial_state=tf.constant(0, dtype=tf.int64), scan_func=lambda s, i: (s + i, s + i))
            >>> [int(x) for x in ds]
            [0, 1, 3, 6, 10, 15, 21, 28, 36, 45]
        """
        state = _values.normalize(initial_state)
        return wrap(ScanNode(self._node, state, ElementFunction(scan_func, "scan")))

    def reduce(self, initial_state, reduce_func, name=None):
        """Folds the elements into one value: ``state = reduce_func(state, element)`` for each.

        Returns the final state as Tensors (the structure of ``initial_state``).

        Example:
            >>> import numpy as np
            >>> import companion as tf
            >>> int(tf.data.Dataset.range(5).reduce(np.int64(0), lambda x, _: x + 1))
            5
            >>> int(tf.data.Dataset.range(5).reduce(np.int64(0), lambda x, y: x + y))
            10
        """
        state = _values.normalize(initial_state)
        fn = ElementFunction(reduce_func, "reduce")
        trace_when_made(fn, self._node, lambda spec: (_spec.spec_of(state), spec))  # TF traces it first
        ctx = Context(self._node.options())
        elements = self._node.iterate(ctx)
        try:
            with outside_user_code():
                for index, element in enumerate(elements):
                    state = _checked_state(state, fn((state, element), index), "reduce")
        finally:
            ctx.cancel()
            elements.close()
        return _structure.map_structure(_values.to_tensor, state)


class ScanNode(Node):
    kind = "_ScanDataset"

    def __init__(self, node, state, fn):
        super().__init__(node)
        self._state, self._fn = state, fn
        trace_when_made(fn, node, lambda spec: (_spec.spec_of(state), spec))  # TF traces the function now

    def _compute_spec(self):
        arg_specs = (_spec.spec_of(self._state), self.inputs[0].spec)
        result = self._fn.output_spec(arg_specs, self._peek)
        return _pair(result)[1]

    def _peek(self):
        return [(self._state, element) for element in first_elements(self.inputs[0], 1)]

    def _iterate(self, ctx):
        state = self._state
        for index, element in enumerate(self.inputs[0].iterate(ctx)):
            new_state, output = _pair(self._fn((state, element), index))
            state = _checked_state(state, new_state, "scan")
            yield output


def _pair(result):
    if not isinstance(result, tuple) or len(result) != 2:
        raise TypeError("The function passed to Dataset.scan must return a pair (new_state, output). "
                        f"It returned {result!r}.")
    return result


def _checked_state(old, new, what):
    if not _structure.same_structure(old, new):
        raise TypeError(f"The function passed to Dataset.{what} returned a new state with another "
                        f"structure: {_structure.describe(new)} instead of {_structure.describe(old)}.")
    for a, b in zip(_structure.flatten(old), _structure.flatten(new)):
        if _values.leaf_dtype(a) != _values.leaf_dtype(b):
            raise TypeError(f"The function passed to Dataset.{what} changed the state's dtype from "
                            f"{_values.leaf_dtype(a).name} to {_values.leaf_dtype(b).name}. Keep the "
                            "state's dtype, e.g. with companion.cast, or start from a value of that dtype.")
    return new
