"""The summary state of a thread: the default writer, the default step and the record condition.

TensorFlow keeps these per thread (``summary_ops_v2._summary_state``); so does companion.
`SummaryWriter.as_default`, `experimental.set_step` and `record_if` change them.
"""

import threading


class _SummaryState(threading.local):
    def __init__(self):
        self.writer = None  # the default SummaryWriter, or None: summaries are not written
        self.step = None  # the default step: None, a Python int, a Tensor or a Variable
        self.condition = True  # record_if's condition: a bool, a callable or a boolean Tensor


state = _SummaryState()
