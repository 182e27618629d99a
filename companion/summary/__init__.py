"""``companion.summary``: TensorBoard logs (TensorFlow's ``tf.summary``).

Event files are written by the ``tensorboard`` package's own writer and protos, with the
tags, value types and plugin metadata TensorFlow 2 writes, so TensorBoard (and its
``EventAccumulator``) reads them. Summary ops work eagerly and inside `companion.function`,
where they write on every call.

Example:
    >>> import tempfile
    >>> import companion as tf
    >>> writer = tf.summary.create_file_writer(tempfile.mkdtemp())
    >>> with writer.as_default():
    ...     for step in range(3):
    ...         ok = tf.summary.scalar("loss", 1.0 / (step + 1), step=step)
    >>> bool(ok)
    True
"""

from companion.summary import experimental as experimental
from companion.summary._ops import histogram as histogram
from companion.summary._ops import image as image
from companion.summary._ops import scalar as scalar
from companion.summary._ops import text as text
from companion.summary._ops import write as write
from companion.summary._record import record_if as record_if
from companion.summary._record import should_record_summaries as should_record_summaries
from companion.summary._trace import graph as graph
from companion.summary._trace import trace_export as trace_export
from companion.summary._trace import trace_off as trace_off
from companion.summary._trace import trace_on as trace_on
from companion.summary._writer import SummaryWriter as SummaryWriter
from companion.summary._writer import create_file_writer as create_file_writer
from companion.summary._writer import create_noop_writer as create_noop_writer
from companion.summary._writer import flush as flush

__all__ = ["SummaryWriter", "create_file_writer", "create_noop_writer", "experimental", "flush", "graph",
           "histogram", "image", "record_if", "scalar", "should_record_summaries", "text", "trace_export",
           "trace_off", "trace_on", "write"]
