"""Verdict rules and the plain-data codec: tolerances, dtype/shape/type rules, nothing unpickled."""

import base64
import io
import pickle

import numpy as np
import pytest

from graders._cgroup import task_limit_text
from graders._codec import DecodeError, array_to_text, text_to_array
from graders._compare import compare
from graders._spec import Rule


def node(value, kind="tensor", type_name="companion.Tensor"):
    return {"t": kind, "type": type_name, "npy": array_to_text(np.asarray(value))}


def test_equal_arrays_pass_and_floats_use_the_tolerance():
    assert compare(node([1, 2]), node([1, 2]), Rule()) is None
    assert compare(node([1.0, 2.0]), node([1.0, 2.0 + 1e-9]), Rule()) is None
    assert "wrong values" in compare(node([1.0, 2.0]), node([1.0, 2.1]), Rule())
    assert compare(node([1.0, 2.0]), node([1.0, 2.1]), Rule(atol=0.2)) is None


@pytest.mark.parametrize("actual, reason", [
    (node(np.array([1, 2], np.int32)), "has dtype int32"),
    (node([[1, 2]]), "has shape (1, 2)"),
    (node([1, 2], "array", None), "returned a numpy.ndarray, expected a companion.Tensor"),
    ({"t": "error", "type": "ValueError", "message": "x"}, "raised a ValueError"),
    ({"t": "error", "type": "TimeoutError", "timeout": True}, "time limit"),
    ({"t": "object", "type": "__main__.AlwaysEqual"}, "cannot be compared"),
    ({"t": "none"}, "returned None"),
    ({"t": "error", "type": "Secret 4242; leak"}, "raised an exception of a class of its own"),
])
def test_each_difference_has_a_reason_without_expected_values(actual, reason):
    message = compare(node(np.array([1, 2], np.int64)), actual, Rule())
    assert reason in message and "[1 2]" not in message


@pytest.mark.parametrize("error, explained", [
    ({"type": "BlockingIOError", "message": "BlockingIOError: [Errno 11] Resource temporarily unavailable"},
     True),
    ({"type": "RuntimeError", "message": "RuntimeError: can't start new thread"}, True),
    ({"type": "RuntimeError", "message": "RuntimeError: something else"}, False),
    ({"type": "BlockingIOError"}, False),
])
def test_a_refused_process_or_thread_is_explained(error, explained):
    message = compare(node([1, 2]), {"t": "error", **error}, Rule())
    assert message.startswith(f"raised a {error['type']}") and (task_limit_text() in message) == explained


def test_rules_can_relax_type_dtype_and_shape():
    relaxed = Rule(check_type=False, check_dtype=False, check_shape=False)
    assert compare(node([1, 2]), node(np.array([1.0, 2.0], np.float32), "array", None), relaxed) is None
    assert compare(node([[1, 1]]), node([1]), relaxed) is None


def test_scalars_lists_and_nan():
    assert compare({"t": "float", "v": "nan"}, {"t": "float", "v": "nan"}, Rule()) is None
    items = {"t": "tuple", "items": [{"t": "int", "v": "3"}, {"t": "str", "v": "a"}]}
    assert compare(items, items, Rule()) is None
    other = {"t": "tuple", "items": [{"t": "int", "v": "3"}, {"t": "str", "v": "b"}]}
    assert "item 1" in compare(items, other, Rule())


def test_object_arrays_are_never_encoded_or_unpickled():
    with pytest.raises(ValueError):
        array_to_text(np.array([object()], dtype=object))
    buffer = io.BytesIO()
    np.save(buffer, np.array([{"a": 1}], dtype=object), allow_pickle=True)
    with pytest.raises(DecodeError):
        text_to_array(base64.b64encode(buffer.getvalue()).decode())
    with pytest.raises(DecodeError):
        text_to_array(base64.b64encode(pickle.dumps([1, 2])).decode())


def test_malformed_child_data_fails_the_case_instead_of_crashing():
    assert compare(node([1]), {"t": "tensor", "type": "companion.Tensor", "npy": "!!"}, Rule()) == \
        "returned data the grader could not read"


def _dict_node(**fields):
    return {"t": "dict", "keys": list(fields), "items": list(fields.values())}


def test_named_results_are_compared_field_by_field_and_reasons_name_the_expected_field():
    expected = _dict_node(loss=node(np.float32(0.5)), steps={"t": "int", "v": "1"})
    assert compare(expected, expected, Rule()) is None
    wrong = _dict_node(loss=node(np.float32(0.5)), steps={"t": "int", "v": "2"})
    assert compare(expected, wrong, Rule()).startswith("(the steps) returned a number")
    renamed = _dict_node(**{"loss": node(np.float32(0.5)), "<script>": {"t": "int", "v": "1"}})
    assert compare(expected, renamed, Rule()) == "returned other results than the grader expects"
    broken = {"t": "dict", "keys": ["loss", "loss"], "items": [node(1.0), node(1.0)]}
    assert compare(expected, broken, Rule()) == "returned data the grader could not read"


def _npy(header: dict, body: bytes) -> str:
    buffer = io.BytesIO()
    np.lib.format.write_array_header_1_0(buffer, header)
    return base64.b64encode(buffer.getvalue() + body).decode()


@pytest.mark.parametrize("header, body", [
    ({"descr": "<f8", "fortran_order": False, "shape": (10**15,)}, b"\0" * 16),   # 8 PB claimed
    ({"descr": "<f8", "fortran_order": False, "shape": (3,)}, b"\0" * 16),        # too few bytes
    ({"descr": "<f8", "fortran_order": False, "shape": (1,)}, b"\0" * 64),        # too many bytes
    ({"descr": "|O", "fortran_order": False, "shape": (1,)}, b"\0" * 8),          # objects
])
def test_a_forged_npy_header_is_refused_before_any_allocation(header, body):
    with pytest.raises(DecodeError):
        text_to_array(_npy(header, body))


def test_arrays_round_trip_in_every_layout():
    for array in (np.arange(6).reshape(2, 3), np.asfortranarray(np.arange(6.0).reshape(2, 3)),
                  np.array(["a", "bcd"]), np.zeros((0, 3)), np.float32(3.5), np.array([True, False])):
        back = text_to_array(array_to_text(array))
        assert back.dtype == np.asarray(array).dtype and np.array_equal(back, array)


def test_an_empty_or_wider_array_never_matches_by_broadcasting():
    # with the shape check off, `actual` may broadcast up to the expected shape, never widen it: an
    # array of shape (0, 3) broadcast with (3,) is empty, and np.allclose of empties is True
    relaxed = Rule(check_type=False, check_dtype=False, check_shape=False)
    assert compare(node([1.0, 2.0, 3.0]), node(np.zeros((0, 3))), relaxed) is not None
    assert compare(node([1.0, 2.0, 3.0]), node(np.ones((2, 3))), relaxed) is not None
    assert compare(node([[1.0, 1.0]]), node([1.0]), relaxed) is None  # a value that broadcasts up


def test_integers_are_equal_exactly_and_huge_numbers_do_not_crash():
    def number(kind, value):
        return {"t": kind, "v": str(value)}

    # within rtol of each other as floats, but not the same integer
    assert compare(number("int", 10**30), number("int", 10**30 + 1), Rule()).startswith(
        "returned a number that differs")
    assert compare(number("int", 10**30), number("int", 10**30), Rule()) is None
    assert compare(number("int", 5), number("int", 10**400), Rule()) == \
        "returned data the grader could not read"  # too long to decode: refused, not a crash


def test_reports_with_text_utf8_cannot_encode_are_still_written(tmp_path):
    from graders._atomic import write_atomic

    write_atomic(tmp_path / "feedback.txt", "error: \ud800 in a message")  # a lone surrogate
    assert (tmp_path / "feedback.txt").read_text(encoding="utf-8") == "error: \\ud800 in a message"


class _LyingStr(str):
    def __getitem__(self, key):
        return object()


class _LyingList(list):
    def __len__(self):
        return 0

    def __iter__(self):
        while True:
            yield 1.0


class _LyingTuple(tuple):
    def __iter__(self):
        return iter([object()] * 5000)


class _LyingMessage(Exception):
    def __str__(self):
        return _LyingStr("boom")


def test_subclasses_of_builtins_that_lie_still_encode_to_plain_json():
    """The child's writer (json) must never meet a learner object: a str whose slicing returns one,
    or a list whose __len__/__iter__ lie, crashed the child and lost the exercise with no reason."""
    import json

    from graders._child import _error_node
    from graders._codec import valid_node
    from graders._values import encode_output

    lying = ((_LyingStr("abc"), "str"), (_LyingList([1, 2]), "list"), (_LyingTuple((1, 2)), "tuple"),
             (_LyingList(range(5000)), "object"))
    for value, kind in lying:
        encoded = encode_output(value)
        assert valid_node(json.loads(json.dumps(encoded))) and encoded["t"] == kind
    assert json.loads(json.dumps(_error_node(_LyingMessage()))) == {
        "t": "error", "type": "_LyingMessage", "message": "_LyingMessage: boom"}


@pytest.mark.parametrize("actual, hidden", [
    ({"t": "error", "type": "L_9_m9_1_19"}, "L_9"),
    ({"t": "object", "type": "__main__.L_m5_3_m3"}, "L_m5"),
    ({"t": "object", "type": "companion.L_14_m5_2"}, "L_14"),
    ({"t": "list", "type": "numpy.L_7_7", "items": []}, "L_7"),
    (node(np.zeros((0, 109, 91, 101))), "109"),
    (node(np.zeros((1,) * 20 + (113,))), "113"),
    (node(np.zeros(3, dtype="U1234")), "1234"),
    (node(np.zeros(3, dtype=[("a", "f8", (4,)), ("b", "i4")])), "288"),
])
def test_reasons_cannot_spell_out_what_the_learners_code_chose(actual, hidden):
    """A class named after a hidden input, or an empty array whose sizes are its values, must not carry
    them into the feedback: only known class names, numeric dtypes and near shapes are shown."""
    reason = compare(node([[1.0, 2.0]]), actual, Rule())
    assert reason is not None and hidden not in reason


def test_known_classes_dtypes_and_near_shapes_are_still_named():
    expected = node([[1.0, 2.0]])
    assert compare(expected, {"t": "error", "type": "InvalidArgumentError"}, Rule()) == \
        "raised an InvalidArgumentError"
    assert compare(expected, {"t": "error", "type": "MyError"}, Rule()) == \
        "raised an exception of a class of its own"
    assert compare(expected, {"t": "object", "type": "companion.ResourceVariable"}, Rule()).startswith(
        "returned a companion.ResourceVariable")
    assert compare(expected, node([[1.0], [2.0]], "array", "numpy.ndarray"), Rule()) == \
        "returned a numpy.ndarray, expected a companion.Tensor"
    assert compare(expected, node([[[1.0, 2.0]]]), Rule()) == \
        "has shape (1, 1, 2), which is not the expected shape"
    assert compare(expected, node(np.zeros((1, 0))), Rule()).startswith("is empty")
