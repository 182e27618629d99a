"""TF's warning when a `function` traces on too many of its recent calls.

Each Python function (its code object, so that `function` objects made again and again around one
Python function count together, as in TF) keeps the number of calls that followed each of its
recent traces. When five or more traces fall within its last ten calls, the "tensorflow" logger
warns, at most twice per Python function, with TF's text. Calls that do not trace are only counted
(`Detector.untraced`, one increment on `Function`'s fast path) and folded in at the next trace.
"""

import weakref

from companion._logger import get_logger

HISTORY = 10  # calls looked back over
THRESHOLD = 5  # traces among them that warn
MAX_WARNINGS = 2  # per Python function

_detectors = weakref.WeakKeyDictionary()


class Detector:
    __slots__ = ("untraced", "_calls_per_trace", "_calls", "_warnings", "_silent")

    def __init__(self, silent):
        self.untraced = 0  # calls without a trace since the last trace
        self._calls_per_trace = []  # for each recent trace: 1 + the calls without a trace after it
        self._calls = 0
        self._warnings = 0
        self._silent = silent

    def traced(self, python_function):
        """Counts a call that traced; warns when recent calls traced too often."""
        if self.untraced:
            if not self._calls_per_trace:
                self._calls_per_trace.append(0)
            self._calls_per_trace[-1] += self.untraced
            self._calls += self.untraced
            self.untraced = 0
        self._calls += 1
        self._calls_per_trace.append(1)
        while self._calls_per_trace and self._calls - self._calls_per_trace[0] > HISTORY:
            self._calls -= self._calls_per_trace.pop(0)
        if self._silent or self._warnings >= MAX_WARNINGS or len(self._calls_per_trace) < THRESHOLD:
            return
        self._warnings += 1
        get_logger().warning(
            "%d out of the last %d calls to %r triggered tf.function retracing. Tracing is expensive and "
            "the excessive number of tracings could be due to (1) creating @tf.function repeatedly in a "
            "loop, (2) passing tensors with different shapes, (3) passing Python objects instead of "
            "tensors. For (1), please define your @tf.function outside of the loop. For (2), "
            "@tf.function has reduce_retracing=True option that can avoid unnecessary retracing. For "
            "(3), please refer to https://www.tensorflow.org/guide/function#controlling_retracing and "
            "https://www.tensorflow.org/api_docs/python/tf/function for  more details.",
            len(self._calls_per_trace), self._calls, python_function)


def detector(python_function):
    """The detector shared by every `function` of ``python_function`` (by its code object). Functions
    companion itself stages (Keras's steps, dataset functions) count but never warn."""
    target = python_function
    while hasattr(target, "__wrapped__"):
        target = target.__wrapped__
    target = getattr(target, "__func__", target)
    key = getattr(target, "__code__", None)
    silent = str(getattr(target, "__module__", "") or "").startswith("companion.")
    if key is None:
        return Detector(silent)
    found = _detectors.get(key)
    if found is None:
        found = _detectors[key] = Detector(silent)
    return found
