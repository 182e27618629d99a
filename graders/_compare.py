"""Verdicts: compare a learner's plain-data output with the reference output under an exercise's rule.

Runs in the grader's own process (hidden cases) and in the learner's kernel (public checks). Reasons
are written for the learner: they name what the learner's function returned (its type, dtype, shape)
and the harness's field names, but never a hidden input or an expected value. Nothing the child
sent is echoed verbatim: type names pass only when they look like dotted identifiers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from graders._cgroup import refused_a_task, task_limit_text
from graders._codec import DecodeError, children, keys, scalar, text_to_array
from graders._spec import Rule

DEFAULT_TYPES = {"none": "None", "bool": "bool", "int": "int", "float": "float", "str": "str",
                 "array": "numpy.ndarray", "list": "list", "tuple": "tuple", "dict": "dict"}
_SAFE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.]{0,60}")


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
        return Difference(kind, f"returned {_article(type_name(actual))}, which cannot be compared with the "
                                "expected output")
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
    text = f"returned {_article(type_name(actual))}, expected {_article(type_name(expected))}"
    return Difference("type", text)


def _compare_arrays(expected: np.ndarray, actual: np.ndarray, rule: Rule) -> Difference | None:
    if rule.check_dtype and actual.dtype != expected.dtype:
        return Difference("dtype", f"has dtype {actual.dtype.name}, which is not the expected dtype")
    if rule.check_shape and actual.shape != expected.shape:
        return Difference("shape", f"has shape {actual.shape}, which is not the expected shape")
    if not _values_match(expected, actual, rule):
        return Difference("value", "has the right type, dtype and shape but wrong values "
                                   f"(rtol={rule.rtol:g} atol={rule.atol:g})")
    return None


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
    raised = f"raised {_article(safe_name(actual.get('type')))}"
    message = actual.get("message")
    if isinstance(message, str) and refused_a_task(message):
        raised += f" ({task_limit_text()})"
    return Difference("raised", raised)


def type_name(node: dict) -> str:
    """The type a node was made from: its `type` field, else the default of its kind."""
    return safe_name(node.get("type") or DEFAULT_TYPES.get(node.get("t"), "object"))


def safe_name(name) -> str:
    """`name` when it looks like a (dotted) identifier, else 'object': learner text never passes verbatim."""
    return name if isinstance(name, str) and _SAFE_NAME.fullmatch(name) else "object"


def _article(name: str) -> str:
    if name == "None":
        return name
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"
