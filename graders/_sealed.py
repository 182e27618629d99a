"""Private copies of the grader's own code: functions that run on globals the notebook cannot reach.

Notebook code can rebind any name of any module (`graders._audit._WATCHED = frozenset()`,
`builtins.isinstance = ...`, `os.path.basename = ...`) and set any attribute of an object it can reach.
A function copied here runs the same code on a private copy of its module's globals, taken before the
notebook ran: Python's builtins copied, each module the globals name copied as a namespace of that
module's attributes then (and of the modules those name, one level down; `live` names modules whose
attributes the code must read as they are now), its own dicts, sets and lists copied, the module's
functions and the named classes copied onto the same private globals. Held only where notebook code
cannot reach it (the audit hook's closure, `graders._audit`), such code does what it did when it was
copied, whatever the notebook rebinds later. (A function's `__globals__` is readable: the copies must
not be handed to notebook code.)
"""

from __future__ import annotations

import builtins
import types

_SKIPPED = ("__dict__", "__weakref__")


def private_globals(module: types.ModuleType, classes: tuple[str, ...] = (),
                    live: tuple[str, ...] = ()) -> dict:
    """A private copy of `module`'s globals with its functions, and the classes named in `classes`,
    copied onto it (see the module's docstring); `live`: names of modules kept as they are."""
    source = vars(module)
    private = {name: _namespace(value, 2) if isinstance(value, types.ModuleType) and name not in live
               else _copied(value) for name, value in list(source.items())}
    private["__builtins__"] = dict(vars(builtins))
    for name, value in list(private.items()):
        if type(value) is types.FunctionType and value.__globals__ is source:
            private[name] = function_copy(value, private)
    for name in classes:
        private[name] = _class_copy(source[name], private)
    return private


def function_copy(function: types.FunctionType, private: dict) -> types.FunctionType:
    """`function`'s code, defaults and closure on the globals `private`."""
    copy = types.FunctionType(function.__code__, private, function.__name__, function.__defaults__,
                              function.__closure__)
    copy.__kwdefaults__ = function.__kwdefaults__
    copy.__qualname__ = function.__qualname__
    copy.__doc__ = function.__doc__
    return copy


def _class_copy(kind: type, private: dict) -> type:
    """A class like `kind` whose methods and properties run on `private` (no `super()` in them: their
    `__class__` cell is `kind`'s)."""
    body = {}
    for key, value in list(vars(kind).items()):
        if key in _SKIPPED or isinstance(value, types.MemberDescriptorType):
            continue
        if type(value) is types.FunctionType:
            value = function_copy(value, private)
        elif isinstance(value, (staticmethod, classmethod)) and type(value.__func__) is types.FunctionType:
            value = type(value)(function_copy(value.__func__, private))
        elif isinstance(value, property):
            value = property(*[None if part is None else function_copy(part, private)
                               for part in (value.fget, value.fset, value.fdel)], value.__doc__)
        body[key] = value
    return type(kind)(kind.__name__, kind.__bases__, body)


def _copied(value):
    """`value`, with the dicts, sets and lists in it copied (`ALLOWED[...].add(...)`, `_FRAMES.clear()`
    on the module's own containers change nothing the copies read)."""
    if type(value) is dict:
        return {key: _copied(item) for key, item in value.items()}
    if type(value) is set:
        return {_copied(item) for item in value}
    if type(value) is list:
        return [_copied(item) for item in value]
    return value


def _namespace(module: types.ModuleType, depth: int):
    """`module`'s attributes now, as a namespace (its modules too, down to `depth` levels)."""
    values = {}
    for name, value in list(vars(module).items()):
        if isinstance(value, types.ModuleType):
            value = _namespace(value, depth - 1) if depth > 1 else value
        values[name] = value
    return types.SimpleNamespace(**values)
