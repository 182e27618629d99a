"""The code the harnesses rely on, as it was before the notebook ran: a replaced function is told apart.

A harness runs in the learner's process and reads what the learner's code did through companion,
NumPy, JAX, the grader's own modules and Python's builtins (`tf.function`, `Tensor.numpy`,
`optimizer.iterations`, `isinstance`). A notebook that rebinds one of those (`tf.function = lambda f: f`,
`tf.config.functions_run_eagerly = lambda: False`, `graders.harnesses.c2w3.tf = ...`) could make a
harness report what it did not see. `CodeSnapshot` records, before the first cell, every function,
class, module and descriptor bound in those packages' modules and in their classes; `changed()` names
those since rebound or deleted, code set on a class over code it inherited, a module of those
packages swapped in `sys.modules`, and one imported later that the snapshot did not see imported
(`ImportRecorder` records the modules the packages import lazily, as they finish loading, before
notebook code can patch them). Data (flags, caches, counters) is not recorded: the packages change it
themselves as they run. Other added names are not changes (lazy imports add them).

Code can also be changed inside a function: a closed-over function or class (`cell_contents`, which no
audit event reports) is recorded too, and so is the `__code__` of the grader's own functions (setting
`__code__` is refused by `_audit`; this sees it changed through raw memory).

`verify()` is what a harness calls right before it reads a result that library code computes from the
learner's objects (a type check, a flag): it raises `Tampered` when the code is not as recorded, so
a patch made by the learner's code and undone after the read (when an object of the learner is freed)
is still seen. `graders._guard` keeps the learner's code from running between that check and the read.

In the grader's child, the record compared is not this module's `CodeSnapshot`, which the notebook can
reach, but the audit hook's private copy of it (`_audit`): `changed_now()` asks the hook, and the
functions that ask hold `sys.audit` in their defaults (which notebook code may not set), so rebinding a
name here or in a harness does not turn a check off.
"""

from __future__ import annotations

import importlib.abc
import os
import sys
import types

from graders._audit import CHECK, RECORD

WATCHED = ("builtins", "companion", "graders", "jax", "numpy")
MAX_NAMES = 5
_CODE = (types.FunctionType, types.BuiltinFunctionType, types.MethodType, types.ModuleType, type, property,
         classmethod, staticmethod, types.MethodDescriptorType, types.WrapperDescriptorType,
         types.GetSetDescriptorType, types.MemberDescriptorType)


class Tampered(BaseException):
    """Raised by `verify()`: the code a harness reads through is not as recorded (`names`)."""

    def __init__(self, names: list[str]):
        super().__init__(", ".join(names))
        self.names = list(names)


class CodeSnapshot:
    """The code bound in the watched modules and their classes now, by identity."""

    def __init__(self, prefixes: tuple[str, ...] = WATCHED):
        self._prefixes = prefixes
        self._entries: list[tuple[str, dict, tuple]] = []
        self._classes: list[tuple[str, type, frozenset]] = []
        self._modules: dict[str, types.ModuleType] = {}
        self._pins: list[tuple[str, object, str, object]] = []
        self._cells: list[tuple[str, types.CellType, object]] = []  # closed-over code, by identity
        self._codes: list[tuple[str, types.FunctionType, types.CodeType]] = []  # the grader's functions
        self._roots = tuple(os.path.dirname(os.path.realpath(module.__file__)) + os.sep
                            for name, module in list(sys.modules.items())
                            if name in prefixes and getattr(module, "__file__", None))
        for name, module in list(sys.modules.items()):
            self.record_module(name, module, anywhere=True)

    def watches(self, name: str) -> bool:
        return isinstance(name, str) and name.split(".")[0] in self._prefixes

    def record_module(self, name: str, module, anywhere: bool = False) -> None:
        """Record `module` (imported as `name`) and its classes, unless already recorded; after the
        snapshot, only a module loaded from the packages' own folders (not one added to `__path__`)."""
        if not (isinstance(module, types.ModuleType) and self.watches(name)) or name in self._modules:
            return
        if not (anywhere or self._installed(module)):
            return
        self._modules[name] = module
        self._record(name, module.__dict__)
        for attribute, value in list(module.__dict__.items()):
            if isinstance(value, type) and getattr(value, "__module__", None) == name:
                self._record(f"{name}.{attribute}", value.__dict__)
                self._classes.append((f"{name}.{attribute}", value, frozenset(value.__dict__)))

    def _installed(self, module) -> bool:
        path = getattr(module, "__file__", None)
        return isinstance(path, str) and os.path.realpath(path).startswith(self._roots)

    def recorded_module(self, name: str) -> bool:
        """Whether `sys.modules[name]` is the module recorded under that name."""
        module = self._modules.get(name, _MISSING)
        return module is not _MISSING and sys.modules.get(name) is module

    def record_new_modules(self) -> None:
        """Record every watched module imported since (called as a lazy import of the packages ends)."""
        for name, module in list(sys.modules.items()):
            if name not in self._modules:
                self.record_module(name, module)

    def pin(self, label: str, mapping, key: str) -> None:
        """Report `label` when `mapping[key]` is no longer the object it is now (the grader's own state)."""
        self._pins.append((label, mapping, key, mapping[key]))

    def _record(self, owner: str, namespace) -> None:
        code = tuple((key, value) for key, value in list(namespace.items()) if isinstance(value, _CODE))
        if code:
            self._entries.append((owner, namespace, code))
        for key, value in code:
            function = getattr(value, "__func__", value)
            if type(function) is not types.FunctionType:
                continue
            for index, cell in enumerate(function.__closure__ or ()):
                contents = _contents(cell)
                if isinstance(contents, _CODE):
                    self._cells.append((f"{owner}.{key} (closed-over {index})", cell, contents))
            if owner.split(".")[0] == "graders":
                self._codes.append((f"{owner}.{key}.__code__", function, function.__code__))

    def changed(self) -> list[str]:
        """`owner.name` of each recorded binding now rebound or deleted, and of each name set on a class
        over one it inherited (`Model.get_weights = ...`), `sys.modules[name]` of a watched module
        swapped or imported unrecorded, at most MAX_NAMES, then '...'."""
        names = []
        for owner, namespace, code in self._entries:
            for key, value in code:
                if namespace.get(key, _MISSING) is not value:
                    names.append(f"{owner}.{key}")
        for owner, kind, keys in self._classes:
            if len(kind.__dict__) != len(keys):
                names += [f"{owner}.{key}" for key in _shadowing(kind, keys)]
        for name, module in list(sys.modules.items()):
            if self.watches(name) and self._modules.get(name, _MISSING) is not module:
                names.append(f"sys.modules[{name!r}]")
        for name in self._modules:
            if name not in sys.modules:
                names.append(f"sys.modules[{name!r}]")
        names += [label for label, mapping, key, value in self._pins
                  if mapping.get(key, _MISSING) is not value]
        names += [label for label, cell, contents in self._cells if _contents(cell) is not contents]
        names += [label for label, function, code in self._codes if function.__code__ is not code]
        names = list(dict.fromkeys(names))
        return [*names[:MAX_NAMES], "..."] if len(names) > MAX_NAMES else names


class ImportRecorder(importlib.abc.MetaPathFinder):
    """First on `sys.meta_path`: a module of the watched packages imported after the snapshot is
    recorded as soon as its code has run (with any module its import created), before the importing
    code gets it. Removed from `sys.meta_path`, it records nothing, and such modules are reported."""

    def __init__(self, snapshot: CodeSnapshot):
        self._snapshot = snapshot

    def find_spec(self, name, path=None, target=None):
        if not self._snapshot.watches(name):
            return None
        for finder in list(sys.meta_path):
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None:
                if spec.loader is not None and hasattr(spec.loader, "exec_module"):
                    spec.loader = _RecordingLoader(spec.loader, self._snapshot)
                return spec
        return None


class _RecordingLoader(importlib.abc.Loader):
    """A loader that runs the real one, then records the modules the import added."""

    def __init__(self, loader, snapshot: CodeSnapshot):
        self._loader, self._snapshot = loader, snapshot

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module, _audit=sys.audit, _event=RECORD):
        self._loader.exec_module(module)
        self._snapshot.record_new_modules()
        self._snapshot.record_module(module.__name__, module)
        _audit(_event, module)  # and in the audit hook's copy of the record, once the guard is armed

    def __getattr__(self, name):
        return getattr(self._loader, name)


def activate(snapshot: CodeSnapshot) -> None:
    """Make `recorded_module` answer from `snapshot`: the grader's child only."""
    _STATE["snapshot"] = snapshot


def changed_now(_audit=sys.audit, _event=CHECK) -> list[str] | None:
    """What the audit hook's copy of the record names as changed now (`_guard.Guard.compare`), or None
    where no armed guard answers (outside the grader's child, or before its first cell)."""
    out: list = []
    _audit(_event, out)
    return out[0] if out else None


def verify(_changed=changed_now, _tampered=Tampered) -> None:
    """Raise `Tampered` when the code harnesses read through is not as recorded (a no-op outside the
    grader's child, e.g. in a learner's kernel running the public checks)."""
    if names := _changed():
        raise _tampered(names)


def recorded_module(name: str) -> bool | None:
    """Whether `sys.modules[name]` is the module the snapshot recorded (one the packages loaded from
    their own files, not one a notebook put there); None when nothing was recorded (no snapshot)."""
    snapshot = _STATE.get("snapshot")
    return None if snapshot is None else snapshot.recorded_module(name)


def _contents(cell: types.CellType):
    try:
        return cell.cell_contents
    except ValueError:  # an empty cell
        return _MISSING


def _shadowing(kind: type, recorded: frozenset) -> list[str]:
    """Code set on `kind` since `recorded` (its names then) over a name one of its bases defines."""
    bases = [vars(base) for base in kind.__mro__[1:] if base is not object]
    return [key for key, value in list(vars(kind).items())
            if key not in recorded and (callable(value) or isinstance(value, _CODE))
            and any(key in base for base in bases)]


_MISSING = object()
_STATE: dict = {}
