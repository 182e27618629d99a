"""Running Python code with what it prints discarded, on the calling thread only.

companion sometimes runs a traced Python function again where TensorFlow would not: a
shape-generic signature staged for a new concrete shape, a dataset function staged per element
shape or vectorised. The user must not see those runs, so what they print is dropped.

``contextlib.redirect_stdout`` cannot do this: it swaps the process-wide ``sys.stdout``, so a
print on another thread (the program's own output while a prefetching dataset re-stages in the
background) would vanish, and two overlapping redirects on two threads restore each other's
stream and lose all later output. Instead, while any thread is quiet, ``sys.stdout`` is a
proxy that drops writes made on quiet threads and passes every other write through.
"""

import sys
import threading

_lock = threading.Lock()
_local = threading.local()
_installed = [None, 0]  # the proxy while any thread is quiet, and how many quiet blocks are open


class _QuietOnSomeThreads:
    """``sys.stdout`` while some thread is quiet: drops that thread's writes, passes others on."""

    def __init__(self, target):
        self._target = target

    def write(self, text):
        if getattr(_local, "depth", 0):
            return len(text)
        return self._target.write(text)

    def flush(self):
        if not getattr(_local, "depth", 0):
            self._target.flush()

    def __getattr__(self, name):
        return getattr(self._target, name)


def quietly(run):
    """``run()``, with what it prints on this thread discarded."""
    with _lock:
        if _installed[1] == 0:
            _installed[0] = _QuietOnSomeThreads(sys.stdout)
            sys.stdout = _installed[0]
        _installed[1] += 1
    _local.depth = getattr(_local, "depth", 0) + 1
    try:
        return run()
    finally:
        _local.depth -= 1
        with _lock:
            _installed[1] -= 1
            if _installed[1] == 0:
                proxy, _installed[0] = _installed[0], None
                if sys.stdout is proxy:  # else the program swapped it since: leave its stream alone
                    sys.stdout = proxy._target
