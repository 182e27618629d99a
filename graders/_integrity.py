"""The code the harnesses rely on, as it was before the notebook ran: a replaced function is told apart.

A harness runs in the learner's process and reads what the learner's code did through companion,
NumPy, JAX, the grader's own modules and Python's builtins (`tf.function`, `Tensor.numpy`,
`optimizer.iterations`, `isinstance`). A notebook that rebinds one of those (`tf.function = lambda f: f`,
`tf.config.functions_run_eagerly = lambda: False`, `graders.harnesses.c2w3.tf = ...`) could make a
harness report what it did not see. `CodeSnapshot` records, before the first cell, every function,
class, module and descriptor bound in those packages' modules and in their classes; `changed()` names
those since rebound or deleted, and code set on a class over code it inherited. Data (flags, caches,
counters) is not recorded: the packages change it themselves as they run. Other added names are not
changes (lazy imports add them).
"""

from __future__ import annotations

import sys
import types

WATCHED = ("builtins", "companion", "graders", "jax", "numpy")
MAX_NAMES = 5
_CODE = (types.FunctionType, types.BuiltinFunctionType, types.MethodType, types.ModuleType, type, property,
         classmethod, staticmethod, types.MethodDescriptorType, types.WrapperDescriptorType,
         types.GetSetDescriptorType, types.MemberDescriptorType)


class CodeSnapshot:
    """The code bound in the watched modules and their classes now, by identity."""

    def __init__(self, prefixes: tuple[str, ...] = WATCHED):
        self._entries: list[tuple[str, dict, dict]] = []
        self._classes: list[tuple[str, type, frozenset]] = []
        for name, module in list(sys.modules.items()):
            if isinstance(module, types.ModuleType) and name.split(".")[0] in prefixes:
                self._record(name, module.__dict__)
                for attribute, value in list(module.__dict__.items()):
                    if isinstance(value, type) and getattr(value, "__module__", None) == name:
                        self._record(f"{name}.{attribute}", value.__dict__)
                        self._classes.append((f"{name}.{attribute}", value, frozenset(value.__dict__)))

    def _record(self, owner: str, namespace) -> None:
        code = {key: value for key, value in list(namespace.items()) if isinstance(value, _CODE)}
        if code:
            self._entries.append((owner, namespace, code))

    def changed(self) -> list[str]:
        """`owner.name` of each recorded binding now rebound or deleted, and of each name set on a class
        over one it inherited (`Model.get_weights = ...`), at most MAX_NAMES, then '...'."""
        names = []
        for owner, namespace, code in self._entries:
            for key, value in code.items():
                if namespace.get(key, _MISSING) is not value:
                    names.append(f"{owner}.{key}")
        for owner, kind, keys in self._classes:
            if len(kind.__dict__) != len(keys):
                names += [f"{owner}.{key}" for key in _shadowing(kind, keys)]
        names = list(dict.fromkeys(names))
        return [*names[:MAX_NAMES], "..."] if len(names) > MAX_NAMES else names


def _shadowing(kind: type, recorded: frozenset) -> list[str]:
    """Code set on `kind` since `recorded` (its names then) over a name one of its bases defines."""
    bases = [vars(base) for base in kind.__mro__[1:] if base is not object]
    return [key for key, value in list(vars(kind).items())
            if key not in recorded and (callable(value) or isinstance(value, _CODE))
            and any(key in base for base in bases)]


_MISSING = object()
