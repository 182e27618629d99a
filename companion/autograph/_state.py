"""AutoGraph loop/branch *state*: flattening Python locals into arrays, and checking them."""

import contextlib
import sys
import threading

import jax
import jax.numpy as jnp
import numpy as np
from malt.operators import variables as malt_variables

from companion._core._convert import convert_to_tensor
from companion._core._host_value import HostString, is_host_value
from companion._core._tensor import Tensor
from companion._staging import _tensor_array as tensor_array
from companion._staging._needs_values import NeedsValues
from companion._staging._tensor_array import TensorArray

Undefined = malt_variables.Undefined
UndefinedReturnValue = malt_variables.UndefinedReturnValue
_SOURCE_MAPS = {}  # generated file name -> malt source map (filled by the converter)


class Chosen:
    """A Python value (e.g. a string) picked at run time by a traced condition.

    Only usable as a function output or in `companion.print`; the index is traced.
    """

    def __init__(self, index, options):
        self._index = index
        self._choose_from = tuple(options)

    def __repr__(self):
        return f"<one of {self._choose_from!r}, chosen when the function runs>"


def is_traced(value):
    """True if ``value`` is a tensor whose value is only known at run time."""
    array = value._value if isinstance(value, Tensor) or getattr(value, "_is_variable", False) else value
    return isinstance(array, jax.core.Tracer)


def flatten(values):
    """Flattens state values into ``(arrays, kinds)``; kinds keep what is not an array."""
    arrays, kinds = [], []
    for value in values:
        if isinstance(value, Tensor) and value._value.__class__ is not np.ndarray:
            kinds.append(("array", value._v.shape, value._v.dtype, False))
            arrays.append(value._value)
        elif isinstance(value, (bool, int, float)) and not isinstance(value, np.ndarray):
            tensor = convert_to_tensor(value)
            kinds.append(("array", tensor._v.shape, tensor._v.dtype, True))
            arrays.append(tensor._value)
        elif isinstance(value, Chosen):
            kinds.append(("chosen", value._choose_from))
            arrays.append(value._index)
        elif is_host_value(value):  # a string built on the host from traced arrays
            kinds.append(("host", tuple((a.shape, a.dtype) for a in value._arrays), value._build,
                          tuple(value.shape.as_list())))
            arrays.extend(value._arrays)
        elif isinstance(value, TensorArray):
            ta_arrays, kind = tensor_array.flatten_state(value)
            kinds.append(kind)
            arrays.extend(ta_arrays)
        elif isinstance(value, Undefined):
            kinds.append(("undefined", value.symbol_name))
        elif isinstance(value, UndefinedReturnValue):
            kinds.append(("no_return",))
        else:
            kinds.append(("static", value))
    return arrays, kinds


def unflatten(arrays, kinds):
    """The inverse of `flatten` (arrays become Tensors; Tensors given are kept)."""
    values, it = [], iter(arrays)
    for kind in kinds:
        if kind[0] == "array":
            item = next(it)
            values.append(item if isinstance(item, Tensor) else Tensor(item))
        elif kind[0] == "chosen":
            item = next(it)
            values.append(Chosen(item._value if isinstance(item, Tensor) else item, kind[1]))
        elif kind[0] == "host":
            items = [next(it) for _ in kind[1]]
            values.append(HostString([i._value if isinstance(i, Tensor) else i for i in items], kind[2],
                                     kind[3]))
        elif kind[0] == "tensor_array":
            values.append(tensor_array.unflatten_state([next(it), next(it)], kind[1]))
        elif kind[0] == "undefined":
            values.append(Undefined(kind[1]))
        elif kind[0] == "no_return":
            values.append(UndefinedReturnValue())
        else:  # "static" and "tensor_array_pending" hold the value itself
            values.append(kind[1])
    return tuple(values)


class _ShapeChangesInLoop(NeedsValues):
    """A loop variable changes shape in a loop whose shape invariants allow it: TF runs it, XLA cannot
    compile it; a top-level function call runs eagerly instead (`companion._staging._needs_values`).
    Where it reaches the user (a function traced inside another, user code catching it), it shows as
    the ValueError it is."""


_ShapeChangesInLoop.__name__ = _ShapeChangesInLoop.__qualname__ = "ValueError"


_loops = threading.local()  # .relaxed: open loops (this thread) whose shape_invariants were given;
# .invariants: per open loop, its variables' invariant shapes by name (those known)


@contextlib.contextmanager
def shapes_may_change(given, invariants=None):
    """Within it, a loop traced with ``shape_invariants`` ``given`` (from ``while_loop`` or
    ``set_loop_options``) whose variable changes shape asks to run eagerly rather than failing.
    ``invariants`` (loop variable name -> TensorShape) are checked: a shape outside its invariant
    is TF's ValueError."""
    if not given:
        yield
        return
    _loops.relaxed = getattr(_loops, "relaxed", 0) + 1
    stack = _loops.__dict__.setdefault("invariants", [])
    stack.append(invariants or {})
    try:
        yield
    finally:
        _loops.relaxed -= 1
        stack.pop()


def _check_invariant(name, before, after):
    """TF's ValueError for a loop variable whose shape, entering or after one iteration, is not
    compatible with the shape invariant it was given."""
    stack = getattr(_loops, "invariants", None)
    invariant = stack[-1].get(name) if stack else None
    if invariant is None:
        return
    for shape in (before, after):
        if not invariant.is_compatible_with(shape):
            raise ValueError(
                f"{where()}Input tensor `{name}` enters the loop with shape {tuple(before)}, but has shape "
                f"{tuple(after)} after one iteration, and its shape invariant is {invariant}. To allow the "
                "shape to vary across iterations, use the `shape_invariants` argument of tf.while_loop "
                "to specify a less-specific shape (None for a size that changes).")


def check_loop_state(names, before, after, what):
    """Raises if a loop variable changes kind, dtype or shape in one iteration."""
    for name, b, a in zip(names, before, after):
        if "host" in (b[0], a[0]):
            raise TypeError(
                f"{where()}'{name}' is a string tensor whose text depends on values computed in the "
                f"compiled program, carried through a {what}. XLA has no strings, so companion builds "
                "such text on the host after the program runs and cannot update it in a loop. Collect "
                "the numbers in the loop (a tensor or TensorArray) and turn them into text after it, "
                "or outside the function.")
        if b[0] == "array" and a[0] == "array":
            if b[2] != a[2]:
                raise TypeError(
                    f"{where()}'{name}' has {_aval(b)} before the {what} and {_aval(a)} after one "
                    f"iteration. A variable of a loop that runs in the compiled program must keep "
                    f"its dtype and shape: cast it (companion.cast) or give it its final shape "
                    f"before the loop.")
            if b[1] != a[1]:
                if getattr(_loops, "relaxed", 0):
                    _check_invariant(name, b[1], a[1])
                    raise _ShapeChangesInLoop(
                        f"{where()}'{name}' has shape {tuple(b[1])} before the {what} and shape "
                        f"{tuple(a[1])} after one iteration, as its shape invariant allows; XLA compiles "
                        "loops whose variables keep their shapes, so this loop can run only eagerly.")
                raise ValueError(
                    f"{where()}'{name}' has shape {tuple(b[1])} before the {what}, but shape "
                    f"{tuple(a[1])} after one iteration. Use tf.autograph.experimental.set_loop_options "
                    "to set shape invariants (or while_loop's shape_invariants=): then a top-level "
                    "function call runs such a loop eagerly. Or give the variable its final shape before "
                    "the loop.")
        elif b[0] == a[0] == "tensor_array" and b[1] != a[1]:
            raise TypeError(
                f"{where()}TensorArray '{name}' has elements of {_ta_aval(b)} before the {what} and "
                f"{_ta_aval(a)} after one iteration. Write elements of one dtype and shape (pass "
                "element_shape= to the TensorArray).")
        elif b[0] == "tensor_array_pending" and a[0] in ("tensor_array_pending", "tensor_array"):
            continue  # its element shape is found by a probe trace (companion._staging._tensor_array)
        elif b[0] != a[0] or (b[0] == "static" and b[1] is not a[1] and b[1] != a[1]):
            raise TypeError(
                f"{where()}'{name}' is {_describe(b)} before the {what} and {_describe(a)} after one "
                "iteration. Loop variables of a loop over a tensor must be tensors (or numbers) "
                "throughout: initialise it before the loop with a value of its final type.")


def cast_like(array, kind):
    """``array`` converted to the dtype recorded in ``kind`` (for Python numbers that met tensors)."""
    return jnp.asarray(array).astype(kind[2])


def _ta_aval(kind):
    dtype, shape = kind[1][0], kind[1][1]
    return f"dtype {dtype} and shape {tuple(shape[1:])} (capacity {shape[0]})"


def _aval(kind):
    return f"dtype {np.dtype(kind[2]).name} and shape {tuple(kind[1])}"


def _describe(kind):
    if kind[0] == "array":
        return f"a tensor ({_aval(kind)})"
    if kind[0] == "undefined":
        return "undefined"
    return f"the Python value {kind[1]!r}"


def where():
    """``"file.py:12: "`` for the user's line being converted, when it can be found."""
    frame = sys._getframe(1)
    while frame is not None:
        source_map = _SOURCE_MAPS.get(frame.f_code.co_filename)
        if source_map is not None:
            for key, origin in source_map.items():
                if key.lineno == frame.f_lineno:
                    return f"{origin.loc.filename}:{origin.loc.lineno}: "
        frame = frame.f_back
    return ""
