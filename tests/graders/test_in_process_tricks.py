"""In-process tricks on the grader's child: frames, the collector's object graph, ctypes, functions' code.

Notebook code shares the child's process with the harnesses and the child's loop (which holds the
channel's secret of the exercise being graded). The child's audit hook (`graders._audit`) refuses, while
notebook code is on the stack, whatever hands it a frame or the collector's objects, ctypes' audited
calls, and setting `__code__`; what no audit event reports (a closed-over function swapped, a function's
code pointer written through `ctypes.memmove`) is caught by the record of the code (`_integrity`).
Honest uses of the same machinery by the libraries, on the notebook's behalf, go on.

As in `test_guard.py`, the hook cannot be removed once added, so the tricks run in one separate Python
that prepares and arms itself as the child does, runs cells through IPython and exercises through
`_child._checked_run`, and reports JSON.
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
import json, sys
from graders import _child
from graders._codec import array_to_text
import numpy as np

_child.prepare()
guard = _child._PREPARED["guard"]
shell = _child._make_shell()
guard.arm()
report = {"cells": {}}


def cell(name, source):
    result = shell.run_cell(source, store_history=False)
    error = result.error_before_exec or result.error_in_exec
    report["cells"][name] = "ok" if error is None else f"{type(error).__name__}: {error}"[:160]


CELLS = {
    # honest: the libraries read frames for the notebook, and hand none back
    "namedtuple": "import collections; P = collections.namedtuple('P', 'a b'); P(1, 2)",
    "typing.NamedTuple": "import typing\nclass T(typing.NamedTuple):\n    x: int\nT(1)",
    "enum": "import enum; E = enum.Enum('E', 'a b'); list(E)",
    "logging": "import logging; logging.getLogger('notebook').warning('a record with its line')",
    "print_exc": "import traceback\ntry:\n    1 / 0\nexcept ZeroDivisionError:\n    traceback.print_exc()",
    "print_stack": "import traceback; traceback.print_stack(limit=2)",
    "magic": "get_ipython().run_line_magic('matplotlib', 'inline')",
    "companion": ("import companion as tf\n@tf.function\ndef f(x):\n    return x.numpy()\n"
                  "try:\n    f(tf.constant(1.0))\nexcept Exception as error:\n"
                  "    print(type(error).__name__)\n"
                  "assert float(tf.reduce_sum(tf.constant([1.0, 2.0]))) == 3.0"),
    "import late": "import scipy.stats",
    "own function's defaults": "def g(a=1):\n    return a\ng.__defaults__ = (2,)\nassert g() == 2",
    # a public check in a cell runs a harness that verifies (and says where the learner's code raised)
    "a public check": """
import companion as tf
from graders.c2w3 import check
for graded in (lambda: tf.keras.optimizers.Adam(), lambda: 1 / 0):
    try:
        check("set_adam_optimizer", graded)
    except Exception as error:
        assert "does not let a notebook" not in str(error), error
""",
    # tricks
    "sys._getframe": "import sys; sys._getframe()",
    "inspect.currentframe": "import inspect; inspect.currentframe()",
    "inspect.stack": "import inspect; inspect.stack()",
    "through a library's callback": "import jax; jax.tree_util.tree_map(sys._getframe, [0])",
    "through contextlib": ("import contextlib\nwith contextlib.ExitStack() as stack:\n"
                           "    stack.callback(sys._getframe)"),
    "traceback's frame": ("try:\n    1 / 0\nexcept ZeroDivisionError as error:\n"
                          "    error.__traceback__.tb_frame"),
    "traceback.walk_stack": "import traceback; list(traceback.walk_stack(None))",
    "generator's frame": "def gen():\n    yield\ngen().gi_frame",
    "sys._current_frames": "sys._current_frames()",
    "gc.get_objects": "import gc; gc.get_objects()",
    "gc.get_referents": "gc.get_referents(sys.modules)",
    "gc.get_referrers": "gc.get_referrers(sys)",
    "ctypes.from_address": "import ctypes; ctypes.c_ssize_t.from_address(id(1))",
    "ctypes.string_at": "ctypes.string_at(id(1), 8)",
    "ctypes.pythonapi": "ctypes.PyDLL(None).PyObject_SetAttr",
    "set a library's __code__": ("import graders._values as values\n"
                                 "values.type_name.__code__ = (lambda v: 'x').__code__"),
    "set own __code__": "def h():\n    return 1\nh.__code__ = (lambda: 2).__code__",
    "set a library's defaults": "import graders._values as values\nvalues.type_name.__defaults__ = (True,)",
    # the hook's own names, its policy's method and a builtin it calls rebound (then put back)
    "the hook's names rebound": """
import builtins, graders._audit as audit
saved, judge, real_isinstance = dict(vars(audit)), audit.Policy.judge, builtins.isinstance
frames, collector = set(audit._FRAMES), set(audit._GC)
audit._FRAMES.clear()
audit._GC.clear()
audit._WATCHED, audit._FRAMES = frozenset(), set()
audit.Policy.judge = lambda *args, **kwargs: None
builtins.isinstance = lambda *args: False
try:
    sys._getframe()
finally:
    builtins.isinstance, audit.Policy.judge = real_isinstance, judge
    vars(audit).update(saved)
    audit._FRAMES.update(frames)
    audit._GC.update(collector)
""",
    "a trace function, the guard disarmed": """
from graders import _child
_child._PREPARED["guard"]._armed = False
try:
    sys.settrace(lambda *args: None)
finally:
    _child._PREPARED["guard"]._armed = True
""",
    "compiled under a library's name": (
        "import _imp\ncode = compile('import sys\\nsys._getframe()', 'x', 'exec')\n"
        "_imp._fix_co_filename(code, sys.modules['collections'].__file__)\nexec(code)"),
}
for name, source in CELLS.items():
    cell(name, source)
report["after the cells"] = guard.check()

ARRAY = [{"t": "array", "npy": array_to_text(np.array([1.0, 2.0]))}]
EXERCISE = {"id": "add_one", "harness": None, "cases": [ARRAY, ARRAY]}
GRADED = {
    "honest": "def add_one(array):\n    return np.asarray(array) + 1",
    # walk out to the child's loop for the exercise's secret, to forge a result event with it
    "frames in a graded call": """
def add_one(array):
    frame = sys._getframe()
    while frame is not None and "token" not in frame.f_locals:
        frame = frame.f_back
    return np.asarray(array) + (1 if frame is not None else 0)
""",
    # the grader's type_name made to run other code through ctypes.memmove, which no audit event reports
    "a code pointer written": """
import ctypes, graders._values as values
KEEP = []
def add_one(array):
    forged = (lambda value, qualified=True: "companion.Function").__code__
    KEEP.append(forged)
    offset = 6 * ctypes.sizeof(ctypes.c_void_p)  # PyObject_HEAD, globals, builtins, name, qualname
    pointer = ctypes.c_void_p(id(values.type_name.__code__))
    RESTORE.append(lambda: ctypes.memmove(id(values.type_name) + offset, ctypes.byref(pointer), 8))
    ctypes.memmove(id(values.type_name) + offset, ctypes.byref(ctypes.c_void_p(id(forged))),
                   ctypes.sizeof(ctypes.c_void_p))
    return np.asarray(array) + 1
""",
    # a companion function's closed-over function swapped (no audit event reports cell_contents)
    "a closed-over function": """
import types
def add_one(array):
    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("companion."):
            for value in list(vars(module).values()):
                if isinstance(value, types.FunctionType) and value.__module__ == module.__name__:
                    for cell in value.__closure__ or ():
                        if isinstance(cell.cell_contents, types.FunctionType):
                            RESTORE.append(lambda cell=cell, value=cell.cell_contents: setattr(
                                cell, "cell_contents", value))
                            cell.cell_contents = lambda *args, **kwargs: None
                            return np.asarray(array) + 1
""",
    # the grader's reachable record of the code emptied in place, then companion patched
    "the record emptied": """
import companion as tf
from graders import _child
REAL = tf.function
def add_one(array):
    snapshot = _child._PREPARED["snapshot"]
    for part in ("_entries", "_classes", "_pins", "_cells", "_codes"):
        getattr(snapshot, part).clear()
    tf.function = lambda func=None, **kwargs: func
    RESTORE.append(lambda: setattr(tf, "function", REAL))
    return np.asarray(array) + 1
""",
    # every function and flag on the way to the check rebound or set, then companion patched
    "the checks turned off": """
import companion as tf
from graders import _child, _guard, _integrity
SAVED = [(module, dict(vars(module))) for module in (_child, _integrity)]
CHECK, COMPARE, REAL = _guard.Guard.check, _guard.Guard.compare, tf.function
def undo():
    for module, names in SAVED:
        vars(module).update(names)
    _guard.Guard.check, _guard.Guard.compare, tf.function = CHECK, COMPARE, REAL
    _child._PREPARED["guard"]._armed = True
def add_one(array):
    nothing = lambda *args, **kwargs: None
    _integrity.verify = _integrity.changed_now = _child._run_exercise = nothing
    _guard.Guard.check = _guard.Guard.compare = lambda self, *args, **kwargs: []
    _child._PREPARED["guard"]._armed = False
    tf.function = lambda func=None, **kwargs: func
    RESTORE.append(undo)
    return np.asarray(array) + 1
""",
}
for name, source in GRADED.items():
    cell(f"graded: {name}", "import sys\nimport numpy as np\nRESTORE = []\n" + source)
    report[name] = _child._checked_run(shell.user_ns, EXERCISE, 30)
    cell(f"restored: {name}", "for undo in RESTORE:\n    undo()")
    report[f"restored: {name}"] = guard.check()
print("REPORT" + json.dumps(report))
'''


@pytest.fixture(scope="module")
def report():
    env = {**os.environ, "PYTHONPATH": str(ROOT), "JAX_PLATFORMS": "cpu", "MPLBACKEND": "Agg"}
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(SCRIPT)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    lines = [line for line in done.stdout.splitlines() if line.startswith("REPORT")]
    assert lines, done.stdout[-3000:] + done.stderr[-3000:]
    return json.loads(lines[-1][len("REPORT"):])


HONEST = ["namedtuple", "typing.NamedTuple", "enum", "logging", "print_exc", "print_stack", "magic",
          "companion", "import late", "own function's defaults", "a public check"]
TRICKS = {
    "sys._getframe": "read the interpreter's frames (sys._getframe)",
    "inspect.currentframe": "read the interpreter's frames (sys._getframe)",
    "inspect.stack": "read the interpreter's frames (sys._getframe)",
    "through a library's callback": "read the interpreter's frames (sys._getframe)",
    "through contextlib": "read the interpreter's frames (sys._getframe)",
    "traceback's frame": "read a frame (traceback.tb_frame)",
    "traceback.walk_stack": "read the interpreter's frames (sys._getframe)",
    "generator's frame": "read a frame (generator.gi_frame)",
    "sys._current_frames": "read the interpreter's frames (sys._current_frames)",
    "gc.get_objects": "walk the collector's objects (gc.get_objects)",
    "gc.get_referents": "walk the collector's objects (gc.get_referents)",
    "gc.get_referrers": "walk the collector's objects (gc.get_referrers)",
    "ctypes.from_address": "use ctypes (ctypes.cdata)",
    "ctypes.string_at": "use ctypes (ctypes.string_at)",
    "ctypes.pythonapi": "use ctypes (ctypes.dlopen)",
    "set a library's __code__": "set a function's __code__ (type_name)",
    "set own __code__": "set a function's __code__ (h)",
    "set a library's defaults": "set a function's __defaults__ (type_name)",
    "compiled under a library's name": "read the interpreter's frames (sys._getframe)",
    "the hook's names rebound": "read the interpreter's frames (sys._getframe)",
    "a trace function, the guard disarmed": "set a trace function",
}


@pytest.mark.parametrize("name", HONEST)
def test_the_libraries_still_read_frames_for_the_notebook(report, name):
    assert report["cells"][name] == "ok"


@pytest.mark.parametrize("name, reason", TRICKS.items())
def test_each_trick_is_refused_with_what_it_tried(report, name, reason):
    assert report["cells"][name].startswith(f"RuntimeError: The grader does not let a notebook {reason}")


def test_refused_tricks_leave_the_code_as_recorded(report):
    assert report["after the cells"] == []


def test_a_graded_call_walking_the_frames_gets_the_refusal_as_its_error(report):
    assert report["honest"]["status"] == "ran"
    outputs = report["frames in a graded call"]["outputs"]
    assert [output["type"] for output in outputs] == ["RuntimeError", "RuntimeError"]
    assert "read the interpreter's frames (sys._getframe)" in outputs[0]["message"]


def test_a_swapped_closed_over_function_is_named(report):
    changed = report["a closed-over function"]
    assert changed["status"] == "tampered" and "(closed-over" in changed["changed"][0], changed
    assert report["restored: a closed-over function"] == []


def test_a_code_pointer_written_through_ctypes_is_named(report):
    changed = report["a code pointer written"]
    assert changed["status"] == "tampered", changed
    assert changed["changed"][0] == "graders._values.type_name.__code__", changed
    assert report["restored: a code pointer written"] == []


@pytest.mark.parametrize("name, first", [("the record emptied", "companion.function"),
                                         ("the checks turned off", "graders._integrity.changed_now")])
def test_the_grader_s_reachable_record_and_checks_changed_do_not_hide_a_patch(report, name, first):
    """The checks that count run on the audit hook's private copy of the record, on private globals."""
    changed = report[name]
    assert changed["status"] == "tampered" and changed["changed"][0] == first, changed
    assert report[f"restored: {name}"] == []
