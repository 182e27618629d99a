"""Verdicts: compare a learner's plain-data output with the reference output under an exercise's rule.

Runs in the grader's own process (hidden cases) and in the learner's kernel (public checks). Reasons
are written for the learner: they name what the learner's function returned (its type, dtype, shape)
and the harness's field names, but never a hidden input or an expected value. Nothing the child
sent is echoed verbatim, and no reason can carry much of what the learner's code chose to write into
it (a class named after a hidden input, an empty array whose sizes spell it out): a type name is
shown only when it names a class of Python, NumPy or companion, a dtype only when it is a numeric
one, and a shape only when it is not empty and close to the expected output's size and rank.
"""

from __future__ import annotations

import builtins
import functools
import importlib.util
import re
import types
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from graders._codec import DecodeError, children, keys, scalar, text_to_array
from graders._refusals import explanation
from graders._spec import Rule

DEFAULT_TYPES = {"none": "None", "bool": "bool", "int": "int", "float": "float", "str": "str",
                 "array": "numpy.ndarray", "list": "list", "tuple": "tuple", "dict": "dict"}
_SAFE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.]{0,60}")
_NUMPY_NAMESPACES = ("", "ma", "dtypes", "exceptions", "linalg", "random", "lib")
OTHER_CLASS = "object of a class of its own"
SHOWN_SHAPE_RANKS, SHOWN_SHAPE_SIZE = 2, 64  # a shape is shown within expected rank + 2 and this size


@dataclass(frozen=True)
class Difference:
    """The first difference found: its kind, the text for the learner, and where it is.

    `kind` is one of raised, timeout, none, object, unreadable, type, dtype, shape, value, length,
    fields. `path` lists the harness fields (e.g. "weights after the step") and item positions,
    from the outside in.
    """

    kind: str
    text: str
    path: tuple[str, ...] = ()

    @property
    def field(self) -> str | None:
        """The outermost named field of a harness's result the difference is in, if any."""
        return next((part for part in self.path if not part.startswith("item ")), None)

    def reason(self) -> str:
        """The sentence shown to the learner, e.g. "(the loss) has dtype float64, which is not ..."."""
        where = [f"(the {part})" if not part.startswith("item ") else part for part in self.path]
        return " ".join([*where, self.text])

    def inside(self, part: str) -> Difference:
        return Difference(self.kind, self.text, (part, *self.path))


def compare(expected: dict, actual: dict, rule: Rule) -> str | None:
    """None when `actual` matches `expected` under `rule`, else the reason it does not."""
    found = difference(expected, actual, rule)
    return None if found is None else found.reason()


def difference(expected: dict, actual: dict, rule: Rule) -> Difference | None:
    """None when `actual` matches `expected` under `rule`, else the first `Difference`."""
    try:
        return _compare(expected, actual, rule)
    except DecodeError:
        return Difference("unreadable", "returned data the grader could not read")


def _compare(expected: dict, actual: dict, rule: Rule) -> Difference | None:
    kind = actual.get("t")
    if kind == "error":
        return _error(actual)
    if kind in ("object", "unreadable"):
        return Difference(kind, f"returned {with_article(type_name(actual))}, which cannot be compared "
                                "with the expected output")
    if kind == "none" and expected.get("t") != "none":
        return Difference("none", "returned None")
    if rule.check_type and type_name(actual) != type_name(expected):
        return _wrong_type(expected, actual)
    if expected.get("t") in ("tensor", "array") and kind in ("tensor", "array"):
        return _compare_arrays(text_to_array(expected.get("npy")), text_to_array(actual.get("npy")), rule)
    if expected.get("t") != kind:
        return _wrong_type(expected, actual)
    if kind in ("list", "tuple"):
        return _compare_items(children(expected), children(actual), rule)
    if kind == "dict":
        return _compare_fields(expected, actual, rule)
    if kind == "dtype":
        return None if expected.get("name") == actual.get("name") else Difference(
            "value", "returned another dtype than expected")
    return _compare_scalars(scalar(expected), scalar(actual), rule)


def _wrong_type(expected: dict, actual: dict) -> Difference:
    text = f"returned {with_article(type_name(actual))}, expected {with_article(type_name(expected))}"
    return Difference("type", text)


def _compare_arrays(expected: np.ndarray, actual: np.ndarray, rule: Rule) -> Difference | None:
    if rule.check_dtype and actual.dtype != expected.dtype:
        return Difference("dtype", f"has dtype {_dtype_text(actual.dtype)}, which is not the expected dtype")
    if rule.check_shape and actual.shape != expected.shape:
        return Difference("shape", f"{_shape_text(actual, expected)}, which is not the expected shape")
    if not _values_match(expected, actual, rule):
        return Difference("value", "has the right type, dtype and shape but wrong values "
                                   f"(rtol={rule.rtol:g} atol={rule.atol:g})")
    return None


def _dtype_text(dtype: np.dtype) -> str:
    """A numeric dtype's name; a flexible one (str, bytes, structured: its name holds a size) by kind."""
    if dtype.kind in "biufc" and dtype.fields is None and dtype.subdtype is None:
        return dtype.name
    kinds = {"U": "str", "S": "bytes", "M": "datetime64", "m": "timedelta64"}
    return kinds.get(dtype.kind, "void (structured)")


def _shape_text(actual: np.ndarray, expected: np.ndarray) -> str:
    """`has shape (2, 3)` for a shape near the expected one; other shapes are described without sizes."""
    if actual.size == 0:
        return "is empty (a size of 0 in its shape)"
    if (actual.ndim > expected.ndim + SHOWN_SHAPE_RANKS
            or actual.size > max(4 * expected.size, SHOWN_SHAPE_SIZE)):
        return "has far more dimensions or elements than expected"
    return f"has shape {actual.shape}"


def _values_match(expected: np.ndarray, actual: np.ndarray, rule: Rule) -> bool:
    """Values compared at the expected shape: `actual` may only broadcast up to it (when the rule
    skips the shape check), never widen it, so an empty array cannot match vacuously and no
    comparison allocates more than the expected output."""
    try:
        actual = np.broadcast_to(actual, expected.shape)
        if expected.dtype.kind in "fc" or actual.dtype.kind in "fc":
            return bool(np.allclose(actual, expected, rtol=rule.rtol, atol=rule.atol, equal_nan=True))
        return bool(np.array_equal(actual, expected))
    except (ValueError, TypeError):
        return False


def _compare_items(expected: list[dict], actual: list[dict], rule: Rule) -> Difference | None:
    if len(expected) != len(actual):
        return Difference("length", f"returned {len(actual)} items, which is not the expected number")
    for position, (want, got) in enumerate(zip(expected, actual)):
        found = _compare(want, got, rule)
        if found:
            return found.inside(f"item {position}")
    return None


def _compare_fields(expected: dict, actual: dict, rule: Rule) -> Difference | None:
    """Dicts (a harness's named results) compared field by field, in the expected order."""
    names, got = keys(expected), dict(zip(keys(actual), children(actual)))
    if set(got) != set(names):
        return Difference("fields", "returned other results than the grader expects")
    for name, want in zip(names, children(expected)):
        found = _compare(want, got[name], rule)
        if found:
            return found.inside(name)
    return None


def _compare_scalars(expected, actual, rule: Rule) -> Difference | None:
    if type(expected) is int and type(actual) is int:  # integers must be equal, at any size
        return None if expected == actual else Difference(
            "value", "returned a number that differs from the expected one (integers must be equal)")
    if isinstance(expected, float | int) and isinstance(actual, float | int) and not isinstance(actual, bool):
        return None if _close(expected, actual, rule) else Difference(
            "value", f"returned a number that differs from the expected one (rtol={rule.rtol:g})")
    if expected == actual and type(expected) is type(actual):
        return None
    return Difference("value", "returned a different value")


def _close(expected: float | int, actual: float | int, rule: Rule) -> bool:
    """Whether two numbers agree within the rule's tolerance (an int too large for a float does not)."""
    try:
        expected, actual = float(expected), float(actual)
    except OverflowError:
        return False
    return bool(np.isclose(actual, expected, rtol=rule.rtol, atol=rule.atol, equal_nan=True))


def _error(actual: dict) -> Difference:
    if actual.get("timeout"):
        return Difference("timeout", "did not return within the exercise's time limit")
    name = safe_name(actual.get("type"))
    raised = f"raised {with_article(name) if name != OTHER_CLASS else 'an exception of a class of its own'}"
    message = actual.get("message")
    if isinstance(message, str):
        raised += explanation(message)
    return Difference("raised", raised)


def type_name(node: dict) -> str:
    """The type a node was made from: its `type` field, else the default of its kind."""
    return safe_name(node.get("type") or DEFAULT_TYPES.get(node.get("t"), "object"))


def safe_name(name) -> str:
    """`name` when it names a class of Python, NumPy or companion, else OTHER_CLASS.

    The child sends the name of whatever class the learner's code returned or raised, and that
    code chooses it (`type(f"L_{x}", ...)` spells out a hidden input in the feedback); so only the
    names of known classes pass: builtins, `numpy.X`, and `companion.X` or `X` where X is a class
    defined in companion's source.
    """
    if not isinstance(name, str) or not _SAFE_NAME.fullmatch(name):
        return OTHER_CLASS
    if name in DEFAULT_TYPES.values():
        return name
    module, _, qualname = name.partition(".") if "." in name else ("", "", name)
    parts = qualname.split(".")
    if module == "numpy":
        return name if len(parts) == 1 and _numpy_class(parts[0]) else OTHER_CLASS
    if module not in ("", "companion"):
        return OTHER_CLASS
    if all(part in _companion_classes() for part in parts) or not module and _plain_class(name):
        return name
    return OTHER_CLASS


def _plain_class(name: str) -> bool:
    """A builtin class (`ValueError`, `list`), one of `types` (`function`) or a NumPy one by its bare name."""
    plain = {kind.__name__ for kind in vars(types).values() if isinstance(kind, type)}
    return isinstance(getattr(builtins, name, None), type) or name in plain or _numpy_class(name)


def _numpy_class(name: str) -> bool:
    for namespace in _NUMPY_NAMESPACES:
        module = getattr(np, namespace, None) if namespace else np
        if isinstance(getattr(module, name, None), type):
            return True
    return False


@functools.cache
def _companion_classes() -> frozenset[str]:
    """The names of the classes defined in companion's source (read as text: companion is not imported)."""
    spec = importlib.util.find_spec("companion")
    folders = list(spec.submodule_search_locations or ()) if spec else []
    pattern = re.compile(r"^\s*class\s+([A-Za-z_][A-Za-z0-9_]*)|_shown_as\(\"([A-Za-z_][A-Za-z0-9_]*)\"",
                         re.M)
    names = set()
    for folder in folders:
        for path in Path(folder).rglob("*.py"):
            try:
                names.update(a or b for a, b in pattern.findall(path.read_text(encoding="utf-8")))
            except (OSError, UnicodeDecodeError):
                pass
    return frozenset(names)


def with_article(name: str) -> str:
    """`a float`, `an int`, `None`."""
    if name == "None":
        return name
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"
