"""A notebook that rebinds code the harnesses read through (companion, NumPy, the grader) is not graded."""

import numpy as np
import pytest

import companion as tf
import graders.harnesses.c2w3 as c2w3_harness
from graders import _child
from graders._runner import _exercise_run


@pytest.fixture(scope="module")
def snapshot():
    _child.prepare()  # imports all of companion (it loads lazily), then records
    return _child._PREPARED["snapshot"]


def test_an_untouched_process_has_no_changes(snapshot):
    assert snapshot.changed() == []


@pytest.mark.parametrize("owner, name, value", [
    (tf, "function", lambda func=None, **kwargs: func),
    (tf.config, "functions_run_eagerly", lambda: False),
    (tf.Tensor, "numpy", lambda self: np.zeros(3)),
    (c2w3_harness, "tf", object()),
    (np, "asarray", lambda value, *args, **kwargs: value),
])
def test_a_rebound_function_class_or_module_is_named(snapshot, monkeypatch, owner, name, value):
    monkeypatch.setattr(owner, name, value)
    changed = snapshot.changed()
    assert len(changed) >= 1 and all(entry.endswith(f".{name}") for entry in changed)


def test_a_deleted_function_is_named_and_data_or_added_names_are_not(snapshot, monkeypatch):
    monkeypatch.setattr(c2w3_harness, "TRAIN_LEARNING_RATE", 0.5)
    monkeypatch.setattr(tf, "a_name_the_notebook_added", lambda: 0, raising=False)
    assert snapshot.changed() == []
    monkeypatch.delattr(c2w3_harness, "parse_log")
    assert snapshot.changed() == ["graders.harnesses.c2w3.parse_log"]


def _exercise(cases=1):
    return {"id": "train", "harness": None, "cases": [[{"t": "int", "v": 1}] for _ in range(cases)]}


def test_an_exercise_runs_only_while_the_code_is_as_recorded(monkeypatch):
    _child.prepare()
    assert _child._checked_run({"train": lambda n: n + 1}, _exercise(), 5)["status"] == "ran"
    monkeypatch.setattr(tf, "function", lambda func=None, **kwargs: func)
    assert _child._checked_run({"train": lambda n: n + 1}, _exercise(), 5) == {
        "status": "tampered", "changed": ["companion.function"]}


def test_a_graded_call_that_patches_while_it_runs_is_not_graded(monkeypatch):
    """The harness reads flags after the learner's call returns: a patch made during the call counts too."""
    _child.prepare()

    def patches(n):
        monkeypatch.setattr(tf.config, "functions_run_eagerly", lambda: False)
        return n

    outputs = _child._checked_run({"train": patches}, _exercise(2), 5)
    assert outputs["status"] == "tampered" and outputs["changed"][0].endswith(".functions_run_eagerly")


def test_the_grader_says_which_code_was_replaced():
    run = _exercise_run({"status": "tampered", "changed": ["companion.function"]}, 1)
    assert run.status == "failed" and "replaced companion.function" in run.reason
    assert "not graded" in _exercise_run({"status": "tampered", "changed": "junk"}, 1).reason


def test_a_case_that_patches_what_the_next_case_s_harness_calls_is_caught_after_it(monkeypatch):
    """Case 1 patches and case 2 restores: the check after case 1 sees it, and case 2 never runs."""
    _child.prepare()
    real, calls = tf.function, []

    def patches_then_restores(n):
        calls.append(n)
        monkeypatch.setattr(tf, "function", (lambda func=None, **kwargs: func) if len(calls) == 1 else real)
        return n

    outputs = _child._checked_run({"train": patches_then_restores}, _exercise(2), 5)
    assert outputs == {"status": "tampered", "changed": ["companion.function"]} and len(calls) == 1


def test_code_set_on_a_class_over_an_inherited_method_is_named(snapshot, monkeypatch):
    """`Model.get_weights` is inherited: setting it on Model adds a name that shadows the base's."""
    assert "get_weights" not in vars(tf.keras.Model)
    monkeypatch.setattr(tf.keras.Model, "get_weights", lambda self: [], raising=False)
    assert [name.rsplit(".", 1)[-1] for name in snapshot.changed()] == ["get_weights"]


def test_new_data_or_new_methods_on_a_class_are_not_changes(snapshot, monkeypatch):
    monkeypatch.setattr(tf.keras.Model, "_a_cache_of_the_notebook", {}, raising=False)
    monkeypatch.setattr(tf.keras.Model, "a_method_of_the_notebook", lambda self: 0, raising=False)
    assert snapshot.changed() == []
