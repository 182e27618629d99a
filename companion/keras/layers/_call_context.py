"""The state of the layer call in progress: its ``training`` value, and what ``call`` accepts."""

import inspect
import threading


class CallContext:
    """The ``training`` value of the layer call in progress (per thread), for nested calls."""

    _local = threading.local()

    def __init__(self, training):
        self.training = training

    @classmethod
    def current(cls):
        stack = getattr(cls._local, "stack", None)
        return stack[-1] if stack else None

    def __enter__(self):
        if not hasattr(self._local, "stack"):
            self._local.stack = []
        self._local.stack.append(self)
        return self

    def __exit__(self, *exc):
        self._local.stack.pop()


_PARAMETERS = {}


def call_parameters(cls):
    """The keyword names ``cls.call`` accepts (``training`` and ``mask`` when it takes ``**kwargs``)."""
    params = _PARAMETERS.get(cls)
    if params is None:
        signature = inspect.signature(cls.call)
        params = set(signature.parameters)
        if any(p.kind is p.VAR_KEYWORD for p in signature.parameters.values()):
            params |= {"training", "mask"}
        _PARAMETERS[cls] = params
    return params
