"""Learner code that runs outside the harness's calls (threads, timers, finalizers, hooks), or patches a
module imported late, or code undone before the after-case check, cannot fake what a harness reads.

The child's guard is armed for good once armed (an audit hook cannot be removed), so the attacks run
in one separate Python that prepares and arms itself as the grader's child does, and reports JSON.
"""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r'''
import concurrent.futures, gc, json, signal, sys, threading, types, _thread
from graders import _child
from graders._values import type_name

_child.prepare()
guard = _child._PREPARED["guard"]
guard.arm()
import companion as tf
import numpy as np
report = {}


def refused(start):
    try:
        start()
    except RuntimeError as error:
        return "refused: " + str(error)[:40]
    return "ran"


report["threads"] = {
    "Thread": refused(lambda: threading.Thread(target=print).start()),
    "Timer": refused(lambda: threading.Timer(5, print).start()),
    "pool": refused(lambda: concurrent.futures.ThreadPoolExecutor(1).submit(print).result()),
    "_thread": refused(lambda: _thread.start_new_thread(print, ())),
    "settrace": refused(lambda: sys.settrace(lambda *args: None)),
    "setprofile": refused(lambda: sys.setprofile(lambda *args: None)),
}
dataset = tf.data.Dataset.range(6).map(lambda x: x * 2, num_parallel_calls=2).prefetch(2)
report["companion's own threads"] = [int(x) for x in dataset.as_numpy_iterator()]
report["clean"] = guard.check()

signal.signal(signal.SIGPROF, lambda *args: None)
signal.setitimer(signal.ITIMER_PROF, 5, 5)
gc.callbacks.append(lambda *args: None)
report["hooks"] = guard.check()
guard.quiet()
gc.callbacks.pop()
report["quieted"] = guard.check()
guard.release()

import jax.experimental.jet as late  # first imported now, after the snapshot
report["late import"] = guard.check()
real_jet = late.jet
late.jet = None
report["late import patched"] = guard.check()
late.jet = real_jet

fake = types.ModuleType("companion.fake")
class Function:
    def __call__(self, *args):
        return 0
Function.__module__, Function.__qualname__ = "companion.fake", "Function"
fake.Function = Function
sys.modules["companion.fake"] = fake
report["fake module class"] = type_name(Function())
report["fake module"] = guard.check()
del sys.modules["companion.fake"]
report["fake module removed"] = guard.check()

# a patch made in the learner's call and undone when the harness frees the learner's object: the
# harness's verify() sees it, though the check after the case does not
REAL_ASARRAY = np.asarray
class Loss(tf.keras.losses.SparseCategoricalCrossentropy):
    def __del__(self):
        np.asarray = REAL_ASARRAY
def set_sparse_cat_crossentropy_loss():
    np.asarray = lambda value, *args, **kwargs: REAL_ASARRAY(value, *args, **kwargs)
    return Loss(), Loss()
exercise = {"id": "set_sparse_cat_crossentropy_loss", "harness": "c2w3.set_sparse_cat_crossentropy_loss",
            "cases": [[{"t": "array", "npy": None}, {"t": "array", "npy": None}]]}
from graders._codec import array_to_text
exercise["cases"] = [[{"t": "array", "npy": array_to_text(np.array([0, 1]))},
                      {"t": "array", "npy": array_to_text(np.array([[0.9, 0.1, 0.0], [0.2, 0.7, 0.1]],
                                                                   np.float32))}]]
namespace = {"set_sparse_cat_crossentropy_loss": set_sparse_cat_crossentropy_loss}
report["restored by a finalizer"] = _child._checked_run(namespace, exercise, 60)
report["after it"] = guard.check()
# the same, with the harness's name for the check rebound to nothing too (and put back by the finalizer)
import graders.harnesses.c2w3 as c2w3
REAL_VERIFY = c2w3.verify
class QuietLoss(tf.keras.losses.SparseCategoricalCrossentropy):
    def __del__(self):
        np.asarray, c2w3.verify = REAL_ASARRAY, REAL_VERIFY
def quiet_loss():
    np.asarray = lambda value, *args, **kwargs: REAL_ASARRAY(value, *args, **kwargs)
    c2w3.verify = lambda *args, **kwargs: None
    return QuietLoss(), QuietLoss()
report["check rebound, restored by a finalizer"] = _child._checked_run(
    {"set_sparse_cat_crossentropy_loss": quiet_loss}, exercise, 60)
namespace = {"set_sparse_cat_crossentropy_loss": lambda: (tf.keras.losses.SparseCategoricalCrossentropy(),
                                                           tf.keras.losses.SparseCategoricalCrossentropy())}
report["honest"] = _child._checked_run(namespace, exercise, 60)["status"]

_child._PREPARED["snapshot"] = object()
report["grader state swapped"] = guard.check()
print("REPORT" + json.dumps(report))
'''


@pytest.fixture(scope="module")
def report():
    env = {**os.environ, "PYTHONPATH": str(ROOT), "JAX_PLATFORMS": "cpu"}
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(SCRIPT)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    lines = [line for line in done.stdout.splitlines() if line.startswith("REPORT")]
    assert done.returncode == 0 and lines, done.stdout[-3000:] + done.stderr[-3000:]
    return json.loads(lines[-1][len("REPORT"):])


def test_threads_and_hooks_of_the_notebook_are_refused_and_companion_s_own_threads_run(report):
    assert all(outcome.startswith("refused") for outcome in report["threads"].values()), report["threads"]
    assert report["companion's own threads"] == [0, 2, 4, 6, 8, 10]
    assert report["clean"] == []


def test_signal_handlers_timers_and_collector_hooks_are_named_then_put_back(report):
    assert report["hooks"] == ["a handler of signal SIGPROF", "an interval timer", "gc.callbacks"]
    assert report["quieted"] == []


def test_a_module_imported_after_the_snapshot_is_recorded_and_its_patch_named(report):
    assert report["late import"] == []
    assert report["late import patched"] == ["jax.experimental.jet.jet"]


def test_a_class_in_a_fake_library_module_is_the_notebook_s_and_the_module_is_named(report):
    assert report["fake module class"] == "__main__.Function"
    assert report["fake module"] == ["sys.modules['companion.fake']"]
    assert report["fake module removed"] == []


def test_a_patch_undone_by_a_finalizer_before_the_check_is_seen_by_the_harness(report):
    assert report["restored by a finalizer"] == {"status": "tampered", "changed": ["numpy.asarray"]}
    assert report["check rebound, restored by a finalizer"] == {
        "status": "tampered", "changed": ["numpy.asarray", "graders.harnesses.c2w3.verify"]}
    assert report["after it"] == [] and report["honest"] == "ran"


def test_swapping_the_grader_s_own_state_is_named(report):
    assert report["grader state swapped"] == ["graders._child._PREPARED['snapshot']"]
