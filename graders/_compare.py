"""Verdicts: compare a learner's plain-data output with the reference output under an exercise's rule.

Runs only in the grader's own process. Reasons are written for the learner: they name what the
learner's function returned (its type, dtype, shape) but never a hidden input or an expected value.
"""

from __future__ import annotations

import re

import numpy as np

from graders._codec import DecodeError, children, scalar, text_to_array
from graders._spec import Rule

DEFAULT_TYPES = {"none": "None", "bool": "bool", "int": "int", "float": "float", "str": "str",
                 "array": "numpy.ndarray", "list": "list", "tuple": "tuple"}
_SAFE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.]{0,60}")


def compare(expected: dict, actual: dict, rule: Rule) -> str | None:
    """None when `actual` matches `expected` under `rule`, else the reason it does not."""
    try:
        return _compare(expected, actual, rule)
    except DecodeError:
        return "returned data the grader could not read"


def _compare(expected: dict, actual: dict, rule: Rule) -> str | None:
    kind = actual.get("t")
    if kind == "error":
        return _error_reason(actual)
    if kind in ("object", "unreadable"):
        return f"returned {_article(type_name(actual))}, which cannot be compared with the expected output"
    if rule.check_type and type_name(actual) != type_name(expected):
        return f"returned {_article(type_name(actual))}, expected {_article(type_name(expected))}"
    if expected.get("t") in ("tensor", "array") and kind in ("tensor", "array"):
        return _compare_arrays(text_to_array(expected.get("npy")), text_to_array(actual.get("npy")), rule)
    if expected.get("t") != kind:
        return f"returned {_article(type_name(actual))}, expected {_article(type_name(expected))}"
    if kind in ("list", "tuple"):
        return _compare_items(children(expected), children(actual), rule)
    if kind == "dtype":
        return None if expected.get("name") == actual.get("name") else "returned another dtype than expected"
    return _compare_scalars(scalar(expected), scalar(actual), rule)


def _compare_arrays(expected: np.ndarray, actual: np.ndarray, rule: Rule) -> str | None:
    if rule.check_dtype and actual.dtype != expected.dtype:
        return f"has dtype {actual.dtype.name}, which is not the expected dtype"
    if rule.check_shape and actual.shape != expected.shape:
        return f"has shape {actual.shape}, which is not the expected shape"
    if not _values_match(expected, actual, rule):
        return f"has the right type, dtype and shape but wrong values (rtol={rule.rtol:g} atol={rule.atol:g})"
    return None


def _values_match(expected: np.ndarray, actual: np.ndarray, rule: Rule) -> bool:
    try:
        expected, actual = np.broadcast_arrays(expected, actual)
        if expected.dtype.kind in "fc" or actual.dtype.kind in "fc":
            return bool(np.allclose(actual, expected, rtol=rule.rtol, atol=rule.atol, equal_nan=True))
        return bool(np.array_equal(actual, expected))
    except (ValueError, TypeError):
        return False


def _compare_items(expected: list[dict], actual: list[dict], rule: Rule) -> str | None:
    if len(expected) != len(actual):
        return f"returned {len(actual)} items, which is not the expected number"
    for position, (want, got) in enumerate(zip(expected, actual)):
        reason = _compare(want, got, rule)
        if reason:
            return f"item {position} {reason}"
    return None


def _compare_scalars(expected, actual, rule: Rule) -> str | None:
    if isinstance(expected, float | int) and isinstance(actual, float | int) and not isinstance(actual, bool):
        close = np.isclose(actual, expected, rtol=rule.rtol, atol=rule.atol, equal_nan=True)
        return None if close else f"returned a number that differs from the expected one (rtol={rule.rtol:g})"
    return None if expected == actual and type(expected) is type(actual) else "returned a different value"


def _error_reason(actual: dict) -> str:
    if actual.get("timeout"):
        return "did not return within the exercise's time limit"
    return f"raised {_article(safe_name(actual.get('type')))}"


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
