"""Learner code runs only when a harness calls it: no thread, signal handler, hook or collection runs it
in between.

A harness checks the code it reads through (`_integrity.verify`) and then reads. Learner code that ran
asynchronously could patch library code right after that check and restore it right after the read,
so that no check ever sees it: a thread (`threading.Thread`, a `Timer`, a thread pool), a signal
handler on an interval timer, a finalizer run by the cyclic garbage collector (`__del__`, a weakref
callback, `gc.callbacks`), a trace, profile or audit hook. While armed (from the notebook's first cell),
the `Guard`:

* refuses threads whose code is not companion's own (its input pipelines' workers run only the
  compiled functions they were given), by wrapping `_thread.start_new_thread`;
* through its audit hook (`_audit`, held by the interpreter alone, run on private globals), refuses new
  audit, trace and profile hooks, and, while notebook code is on the stack, frames, the collector's
  objects, ctypes' audited calls and `__code__` writes;
* before each exercise, puts back the signal handlers the notebook changed, stops its CPU-time interval
  timers and turns the cyclic garbage collector off: it runs only in `check()`, before the
  snapshot is compared, so a finalizer's patch is seen.

`problems()` names whatever of that is not as armed (a thread still running that is not companion's,
a handler or timer set again, a collector hook added, the wrapper removed).

Once armed, the checks that count run on the hook's private copy of the guard (`twin`, made at `arm`):
the notebook can reach this object, set its attributes and empty its record's lists, but not that copy.
"""

from __future__ import annotations

import _thread
import gc
import signal
import sys
import threading
import types
import weakref

from graders import _audit, _integrity, _sealed
from graders._integrity import MAX_NAMES, CodeSnapshot
from graders._refusals import AUDIT_REFUSAL, THREAD_REFUSAL

_TIMERS = (signal.ITIMER_VIRTUAL, signal.ITIMER_PROF)
_THREAD_TEXT = f"{THREAD_REFUSAL} (threading.Thread, Timer, a thread pool): run the work in the main thread."
_LIVE = ("_thread", "threading")  # modules the copies read as they are now (the thread wrapper in place)
_SIGNALS = tuple(number for number in signal.valid_signals()
                 if number not in (signal.SIGKILL, signal.SIGSTOP) and number < signal.NSIG)


class Guard:
    """See the module's docstring. One per process; `install` before any notebook code, `arm` at its
    first cell, `quiet` before each exercise, `check` after each case and in `_integrity.verify`."""

    def __init__(self, snapshot: CodeSnapshot, code_ids: frozenset[int]):
        self._snapshot, self._code_ids, self._armed = snapshot, code_ids, False
        self._allowed_threads: weakref.WeakSet = weakref.WeakSet()
        self._start = _thread.start_new_thread
        self._bootstrap = threading.Thread._bootstrap
        self._wrapper = self._start_thread  # one bound method, installed and compared by identity
        self._handlers: dict[int, object] = {}
        self._callbacks: list = []
        self._hooks = (sys.gettrace(), sys.getprofile())
        self._gc_enabled = gc.isenabled()

    def install(self) -> None:
        """Add the audit hook and the thread wrapper (both inert until `arm`, but for the record of the
        code of modules imported from now on, `_audit.Policy`). The hook gets private copies of this
        module's and `_integrity`'s code (`_sealed`) to make its copy of the guard with at `arm`."""
        integrity = _sealed.private_globals(_integrity, classes=("CodeSnapshot",))
        private = _sealed.private_globals(sys.modules[__name__], classes=("Guard",), live=_LIVE)
        private["CodeSnapshot"] = integrity["CodeSnapshot"]
        _audit.install(private["_refusal"], _THREAD_TEXT, private["twin"])
        _thread.start_new_thread = _thread.start_new = threading._start_new_thread = self._wrapper

    def arm(self) -> None:
        """From now on notebook code may run: record the handlers and hooks to keep, refuse the rest."""
        self._handlers = {number: signal.getsignal(number) for number in _SIGNALS}
        self._callbacks = list(gc.callbacks)
        self._hooks = (sys.gettrace(), sys.getprofile())
        self._gc_enabled = gc.isenabled()
        self._allowed_threads.update(thread for thread in threading.enumerate())
        self._armed, self._main = True, threading.main_thread().ident
        for key in list(vars(self)):  # the guard's own state: a notebook swapping a part of it is told apart
            self._snapshot.pin(f"the grader's guard ({key})", vars(self), key)
        _audit.arm(self)  # the hook's private copy of the guard, the record included (`twin`)

    def quiet(self) -> None:
        """Before an exercise: the notebook's signal handlers and CPU-time timers off, the collector too."""
        for number, handler in self._handlers.items():
            if signal.getsignal(number) is not handler and handler is not None:
                signal.signal(number, handler)
        for timer in _TIMERS:
            signal.setitimer(timer, 0)
        gc.disable()

    def release(self) -> None:
        """After an exercise: the collector as it was."""
        if self._gc_enabled:
            gc.enable()

    def check(self, collect: bool = True, _changed=_integrity.changed_now) -> list[str]:
        """Name what changed; first, with `collect`, collect garbage (finalizers run now, where the
        comparison sees what they did, not during a harness's read: the collector is off otherwise).
        Once armed, the hook's private copy of the guard compares (`_changed`)."""
        gc.disable()
        if collect:
            gc.collect()
        names = _changed()
        return self.compare() if names is None else names

    def compare(self) -> list[str]:
        """What changed by this guard's own record and state (the hook's copy answers `CHECK` with it)."""
        return (self._snapshot.changed() + self.problems())[:MAX_NAMES + 1]

    def problems(self) -> list[str]:
        """What of the guard's is not as armed (only its thread wrapper before `arm`)."""
        names = []
        if not all(start is self._wrapper for start in (_thread.start_new_thread, _thread.start_new,
                                                            threading._start_new_thread)):
            names.append("_thread.start_new_thread")
        if not self._armed:
            return names
        main = self._main
        for ident in list(sys._current_frames()):
            thread = threading._active.get(ident)
            if ident != main and (thread is None or thread not in self._allowed_threads):
                names.append(f"a thread of the notebook ({getattr(thread, 'name', ident)})")
        names += [f"a handler of signal {_signal_name(number)}" for number, handler
                  in self._handlers.items() if signal.getsignal(number) is not handler]
        names += ["an interval timer" for timer in _TIMERS if signal.getitimer(timer) != (0.0, 0.0)]
        if len(gc.callbacks) != len(self._callbacks) or any(
                a is not b for a, b in zip(gc.callbacks, self._callbacks)):
            names.append("gc.callbacks")
        if (sys.gettrace(), sys.getprofile()) != self._hooks:
            names.append("a trace or profile function")
        return list(dict.fromkeys(names))

    def _start_thread(self, function, args, kwargs=None, _audit_event=sys.audit, _event=_audit.THREAD):
        _audit_event(_event, function)  # once armed, the hook refuses a thread that is not companion's
        return self._start(function, args, {} if kwargs is None else kwargs)

    def _library_thread(self, function) -> bool:
        """Whether `function` starts a plain `threading.Thread` whose target is companion's own code."""
        thread = getattr(function, "__self__", None)
        if type(thread) is not threading.Thread or getattr(function, "__func__", None) is not self._bootstrap:
            return False
        target = getattr(thread, "_target", None)
        target = getattr(target, "__func__", target)
        code = getattr(target, "__code__", None)
        if type(target) is not types.FunctionType or id(code) not in self._code_ids:
            return False
        self._allowed_threads.add(thread)
        return True


def twin(guard: Guard) -> Guard:
    """A private copy of `guard` as armed, its record of the code included: made by the audit hook at
    `arm`, from a copy of this function on private globals where `Guard` and `CodeSnapshot` are private
    copies too (`Guard.install`), and held by the hook alone."""
    copy = object.__new__(Guard)
    vars(copy).update(vars(guard))
    record = object.__new__(CodeSnapshot)
    vars(record).update({key: value.copy() if type(value) in (list, dict) else value
                         for key, value in vars(guard._snapshot).items()})
    copy._snapshot = record
    copy._handlers, copy._callbacks = dict(guard._handlers), list(guard._callbacks)
    copy._allowed_threads = weakref.WeakSet(guard._allowed_threads)
    return copy


def _refusal(what: str) -> str:
    return (f"{AUDIT_REFUSAL} {what}: a graded notebook may not reach into the grader's process (frames, "
            "the collector's objects, raw memory, functions' code).")


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return str(number)


def code_ids(snapshot: CodeSnapshot, prefixes: tuple[str, ...] = ("companion", "graders")) -> frozenset[int]:
    """The ids of every code object of the packages' functions and methods (nested ones too), kept
    alive by the functions that hold them."""
    found: set[int] = set()
    stack = []
    for name, module in list(sys.modules.items()):
        if isinstance(module, types.ModuleType) and name.split(".")[0] in prefixes:
            for value in list(vars(module).values()):
                stack.append(value)
                if isinstance(value, type) and getattr(value, "__module__", "").split(".")[0] in prefixes:
                    stack += list(vars(value).values())
    while stack:
        value = stack.pop()
        value = getattr(value, "__func__", value)
        if isinstance(value, (property, )):
            stack += [value.fget, value.fset, value.fdel]
            continue
        code = value if isinstance(value, types.CodeType) else getattr(value, "__code__", None)
        if isinstance(code, types.CodeType) and id(code) not in found:
            found.add(id(code))
            _KEEP.append(code)
            stack += [const for const in code.co_consts if isinstance(const, types.CodeType)]
    return frozenset(found)


_KEEP: list = []
