"""Notebook code may not reach into the interpreter: frames, the collector's object graph, raw memory.

The harnesses run in the notebook's process. A notebook that gets hold of a frame (`sys._getframe`,
`inspect.currentframe`, an exception's `tb_frame`, a generator's `gi_frame`) can walk `f_back` into the
harness and the child's main loop and read or change their locals (the channel's secret, the outputs
of cases graded so far); `gc.get_referents`/`get_objects` reach the same objects without a frame;
`ctypes` writes memory; a function's `__code__` set anew runs other code under the same function.

`Policy.judge` is called by the guard's audit hook for every audit event once armed. It refuses those
events while code of the notebook is on the stack, whoever called the audited function (a library
function that calls what it is given, such as `contextlib.ExitStack.callback`, is no way round), unless
the function that called it is one that uses the frame and keeps it (`ALLOWED`: `collections.namedtuple`
reading its caller's module name, `traceback.print_stack`, companion's own look at the caller).

Code counts as library code by identity, run with its own module's globals, not by file name
(`_imp._fix_co_filename` and `code.replace` rename code freely): every code object of every function
that exists when the guard is installed (before the notebook runs), the code on the stack then, and the
code of a module imported later by Python's own file loaders, checked against the module's `.pyc` or
source file before it runs. Code the notebook compiles, unmarshals, builds or `exec`s is the notebook's
wherever it says it comes from.

The hook is the one part of the grader the notebook cannot reach or rebind: it runs on a private copy of
this module's globals (`_sealed`: rebinding `graders._audit._WATCHED` or `builtins.isinstance` changes
nothing it sees), it holds its `Policy` alone, and once armed it refuses new audit hooks, trace and
profile functions (whoever asks). At `arm` it takes a private copy of the guard as armed, the record of
the code included (`_guard.twin`); `CHECK` events are answered from that copy
(`_integrity.changed_now`), `RECORD` events add a module imported later to it, and `THREAD` events ask
it whether a thread may start: what the notebook does to the grader's reachable objects
(`_PREPARED["snapshot"]._entries.clear()`) does not change what the copy compares against.
"""

from __future__ import annotations

import _thread
import gc
import importlib.machinery
import importlib.util
import marshal
import os
import sys
import sysconfig
import types

from graders import _sealed

FRAME_ATTRIBUTES = frozenset({"tb_frame", "gi_frame", "cr_frame", "ag_frame"})
_GC = {"gc.get_referrers", "gc.get_referents", "gc.get_objects"}
_FUNCTION_PARTS = {"__code__", "__defaults__", "__kwdefaults__"}  # any __code__; a library's defaults
_FRAMES = {"sys._getframe", "sys._current_frames"}
# (file name, function) of library code that may read frames while the notebook is on the stack: it
# uses the frame itself and hands none back. The value: None, or the functions one of which must have
# called it, or OWN: only a frame of the notebook's own code (IPython expanding `{name}` in a magic's line).
OWN = "the notebook's own frame"
ALLOWED = {
    ("__init__.py", "namedtuple"): None,  # collections: the caller's module name
    ("typing.py", "_caller"): None,
    ("enum.py", "_create_"): None,
    ("__init__.py", "<lambda>"): {"findCaller"},  # logging.currentframe, for a record's file and line
    # file, line and text of a traceback's entries; JAX hiding its own frames in one
    ("traceback.py", "walk_tb"): {"_extract_from_extended_frame_gen", "_add_tracebackhide_to_hidden_frames",
                                  "filter_traceback", "learner_line"},  # the last: graders' public checks
    ("traceback.py", "_walk_tb_with_full_positions"): {"_extract_from_extended_frame_gen"},
    ("traceback.py", "extract_stack"): None,
    ("traceback.py", "format_stack"): None,
    ("traceback.py", "print_stack"): None,
    ("typing_extensions.py", "_caller"): None,
    ("typing_extensions.py", "_has_generic_or_protocol_as_origin"): None,
    ("lazy_loader.py", "attach"): None,  # jax: the caller's module name
    ("traceback_util.py", "_is_under_reraiser"): None,  # jax: filtering its frames out of tracebacks
    ("traceback_util.py", "_add_call_stack_frames"): None,
    ("__init__.py", "warn_external"): None,  # matplotlib: the first frame outside matplotlib
    ("interactiveshell.py", "var_expand"): OWN,  # IPython: a magic's line, `{name}` expanded
    ("interactiveshell.py", "get_local_scope"): OWN,
    ("interactiveshell.py", "push"): OWN,
    ("magic.py", "parse_options"): OWN,
    ("magic.py", "magic_deco"): OWN,
    ("_gradient_tape.py", "_warn_inside_context"): None,  # companion: the caller's file and line
    ("_state.py", "where"): None,
    ("_errors.py", "called_by_user_code"): None,
    ("_errors.py", "asked_by_user_code"): None,
    ("_guard.py", "problems"): None,  # the grader: which threads run (a public check in a cell verifies)
}
_BOOTSTRAP = "<frozen importlib._bootstrap>"
ARM = "graders.audit.arm"  # the event that arms the hook: no Python object holds its state to undo it
CHECK = "graders.audit.check"  # (out,): what the private copy of the record names as changed, appended to out
RECORD = "graders.audit.record"  # (module,): a module of the watched packages imported now, to record
THREAD = "graders.audit.thread"  # (function,): a thread about to run `function`, refused unless companion's
_HOOKS = {"sys.addaudithook": "add an audit hook", "sys.settrace": "set a trace function",
          "sys.setprofile": "set a profile function"}
_SETS = ("object.__setattr__", "object.__delattr__")
# the events the hook looks at (and every `ctypes.*` one)
_WATCHED = frozenset({ARM, CHECK, RECORD, THREAD, *_HOOKS, *_SETS, "exec", "object.__getattr__", *_FRAMES,
                      *_GC})
_LOADERS = (importlib.machinery.SourceFileLoader, importlib.machinery.SourcelessFileLoader)



def install(message, thread_message: str, twin) -> None:
    """Add the audit hook (refusing nothing until `arm()`; recording imported code from now on). It and
    its `Policy` run on a private copy of this module's globals and are held by the interpreter's list
    of hooks alone, out of the notebook's reach; `message(what)` is the text of the RuntimeError raised
    (a builtin class: the learner's feedback names it, `_refusals.explanation` says why);
    `thread_message` that of a refused thread; `twin(*args)` makes, at `arm(*args)`, the private copy of
    the guard whose `check()`, `_snapshot.record_module()` and `_library_thread()` answer `CHECK`,
    `RECORD` and `THREAD` events (its code copied by `_sealed` too, before this: the policy trusts it)."""
    private = _sealed.private_globals(sys.modules[__name__], classes=("Policy",))
    sys.addaudithook(private["_hook"](private["Policy"](), message, thread_message, twin))


def _hook(policy, message, thread_message: str, twin):
    """The audit hook (run on `install`'s private globals): see the module's docstring."""
    armed, copy = [], []

    def hook(event, args):
        # most events (`builtins.id`, `open`, `import`, ...) are none of these: let them go at the
        # cost of a set lookup (a library's inner loop may raise one per object it touches)
        if event not in _WATCHED and not event.startswith("ctypes."):
            return
        if event == ARM:
            if not armed:
                copy.extend([twin(*args)] if args else [])
                armed.append(True)
        elif event == CHECK:
            if copy and args and type(args[0]) is list:
                args[0].append(copy[0].compare())
        elif event == RECORD:
            if copy and args:
                copy[0]._snapshot.record_new_modules()
                copy[0]._snapshot.record_module(getattr(args[0], "__name__", None), args[0])
        elif event == THREAD:
            if armed and (not copy or not args or not copy[0]._library_thread(args[0])):
                raise RuntimeError(thread_message)
        elif event in _HOOKS:
            if armed:
                raise RuntimeError(f"The grader does not let a notebook {_HOOKS[event]}.")
        elif what := policy.judge(event, args, bool(armed)):
            raise RuntimeError(message(what))

    return hook


def arm(*args) -> None:
    """From now on refuse what the hook refuses (for good: nothing disarms it); `args` go to `twin`."""
    sys.audit(ARM, *args)


class Policy:
    """Which code is the libraries', and whether an audit event may go on (see the module docstring).

    Library code is a (code object, globals) pair: the code of a library function run with its own
    module's globals (`types.FunctionType(library.__code__, the_notebook_s_globals)` is the notebook's).
    Objects are told apart by `object.__hash__` (their address, as `id`, but raising no audit event)."""

    def __init__(self):
        self._keep: list = []  # the recorded code and globals stay alive: no other object takes their address
        self._trusted: set[tuple[int, int]] = set()
        self._sites: set[tuple[int, int]] = set()  # those of `ALLOWED` functions
        self._busy: set[int] = set()  # threads inside `judge` (its own frame reads raise events)
        self._roots = _library_roots()
        self._loads = marshal.loads
        for value in gc.get_objects():
            if type(value) is types.FunctionType:
                self._trust(value.__code__, value.__globals__)
        frame = sys._getframe()
        while frame is not None:
            self._trust(frame.f_code, frame.f_globals)
            frame = frame.f_back

    def judge(self, event: str, args: tuple, armed: bool = True) -> str | None:
        """What the code that raised `event` (the caller of the audit hook that calls this) may not do,
        or None to let it go on; with `armed` False, only record the code of modules imported."""
        thread = _thread.get_ident()
        if thread in self._busy:
            return None
        self._busy.add(thread)
        try:
            if event != "exec" and not armed:
                return None
            return self._judge(event, args, sys._getframe(2))
        finally:
            self._busy.discard(thread)

    def _judge(self, event: str, args: tuple, frame) -> str | None:
        if event == "exec":
            self._trust_import(args[0], frame)
            return None
        if event in _SETS:  # (Python audits these for functions, not for classes)
            if args[1] not in _FUNCTION_PARTS or not isinstance(args[0], types.FunctionType):
                return None
            library = (_key(args[0].__code__), _key(args[0].__globals__)) in self._trusted
            if (args[1] == "__code__" or library) and self._notebook(frame):
                return f"set a function's {args[1]} ({_name(args[0])})"
            return None
        if event == "object.__getattr__":
            if args[1] not in FRAME_ATTRIBUTES:
                return None
            what = f"read a frame ({type(args[0]).__name__}.{args[1]})"
        elif event in _FRAMES:
            what = f"read the interpreter's frames ({event})"
        elif event in _GC:
            what = f"walk the collector's objects ({event})"
        elif event.startswith("ctypes."):
            what = f"use ctypes ({event})"
        else:
            return None
        return None if self._allowed(frame, event, args) or not self._notebook(frame) else what

    def _library(self, frame) -> bool:
        return (_key(frame.f_code), _key(frame.f_globals)) in self._trusted

    def _notebook(self, frame) -> bool:
        """Whether code that is not the libraries' is on the stack from `frame` outward, and no module
        of the libraries runs its top-level code in between (an import the notebook started: a library
        such as SciPy reads its own module's name out of its frame as it loads)."""
        while frame is not None:
            if not self._library(frame):
                return True
            code = frame.f_code
            if code.co_name == "_call_with_frames_removed" and code.co_filename == _BOOTSTRAP:
                return False
            frame = frame.f_back
        return False

    def _allowed(self, frame, event: str, args: tuple) -> bool:
        """Whether `frame` runs a function of `ALLOWED` (library code, its own globals) as it requires."""
        code = frame.f_code
        if (_key(code), _key(frame.f_globals)) not in self._sites:
            return False
        callers = ALLOWED[(os.path.basename(code.co_filename), code.co_name)]
        if callers is None:
            return True
        if callers is OWN:
            return event == "sys._getframe" and not self._library(args[0])
        caller = frame.f_back
        return caller is not None and caller.f_code.co_name in callers and self._library(caller)

    def _trust(self, code: types.CodeType, namespace: dict) -> None:
        """Record `code` (and the code it holds) run with the globals `namespace` as the libraries'."""
        stack, scope = [code], _key(namespace)
        self._keep.append(namespace)
        while stack:
            code = stack.pop()
            pair = (_key(code), scope)
            if pair not in self._trusted:
                self._trusted.add(pair)
                self._keep.append(code)
                if (os.path.basename(code.co_filename), code.co_name) in ALLOWED:
                    self._sites.add(pair)
                stack += [const for const in code.co_consts if isinstance(const, types.CodeType)]

    def _trust_import(self, code, frame) -> None:
        """Trust a module's code that Python's file loader runs, when it is that of the library file."""
        if not isinstance(code, types.CodeType):
            return
        loader_frame = frame.f_back if frame is not None else None
        if (frame.f_code.co_name != "_call_with_frames_removed" or frame.f_code.co_filename != _BOOTSTRAP
                or not self._library(frame) or loader_frame is None
                or loader_frame.f_code.co_name != "exec_module" or not self._library(loader_frame)):
            return
        loader, module = loader_frame.f_locals.get("self"), loader_frame.f_locals.get("module")
        path = getattr(loader, "path", None)
        if type(loader) not in _LOADERS or not isinstance(path, str) or type(module) is not types.ModuleType:
            return
        path = os.path.realpath(path)
        if path.startswith(self._roots) and code == self._file_code(path, type(loader)):
            self._trust(code, module.__dict__)

    def _file_code(self, path: str, loader: type):
        """The code object in `path`'s bytecode cache when it is that of the source as it is now (the
        loader's own test: its recorded modification time and size), else compiled from the source;
        None when unreadable."""
        try:
            if loader is importlib.machinery.SourcelessFileLoader:
                with open(path, "rb") as file:
                    return self._loads(file.read()[16:])
            try:
                with open(importlib.util.cache_from_source(path), "rb") as file:
                    data = file.read()
                source = os.stat(path)
                stamp = (int(source.st_mtime) & 0xFFFFFFFF, source.st_size & 0xFFFFFFFF)
                if data[4:8] != bytes(4) or (_number(data[8:12]), _number(data[12:16])) == stamp:
                    return self._loads(data[16:])  # hash-based caches (flags set): the loader's rules
            except (OSError, ValueError, EOFError, TypeError):
                pass
            with open(path, "rb") as file:
                return compile(file.read(), path, "exec", dont_inherit=True)
        except (OSError, ValueError, SyntaxError, EOFError, TypeError):
            return None


def _library_roots() -> tuple[str, ...]:
    """The folders the libraries load from: Python's, the environment's, companion's and the grader's."""
    paths = sysconfig.get_paths()
    folders = {paths[key] for key in ("stdlib", "platstdlib", "purelib", "platlib")}
    graders = os.path.dirname(os.path.abspath(__file__))
    folders |= {graders, os.path.join(os.path.dirname(graders), "companion")}
    return tuple(os.path.realpath(folder) + os.sep for folder in folders)


def _number(data: bytes) -> int:
    return int.from_bytes(data, "little")


_key = object.__hash__  # an object's address (rotated), as `id` gives it, without the audit event


def _name(function) -> str:
    return str(getattr(function, "__qualname__", "?"))[:80]
