"""``AUTOTUNE``: the sizes companion picks when a pipeline asks the runtime to choose.

tf.data tunes parallelism and buffer sizes while a pipeline runs. companion picks them once,
from the machine: parallel stages mostly wait (file reads, sleeps in Python functions,
compiled code that releases the GIL), so a few threads more than cores pay off.
"""

import os

AUTOTUNE = -1
INFINITE_CARDINALITY = -1
UNKNOWN_CARDINALITY = -2
PREFETCH_BUFFER = 2  # elements buffered by prefetch(AUTOTUNE)
MAX_THREADS = 16


def parallelism(requested, options, what):
    """The number of threads for ``num_parallel_calls=requested`` (an int >= 1 or AUTOTUNE).

    Raises:
        ValueError: ``requested`` is neither positive nor AUTOTUNE.
    """
    if requested == AUTOTUNE:
        count = min(max(4, 2 * (os.cpu_count() or 1)), MAX_THREADS)
    else:
        count = positive(requested, what)
    cap = options.threading.private_threadpool_size if options is not None else None
    return min(count, cap) if cap else count


def cycle_length(requested):
    """``interleave``'s cycle length for ``cycle_length=requested`` (None/AUTOTUNE: the CPU count)."""
    if requested is None or requested == AUTOTUNE:
        return max(2, os.cpu_count() or 1)
    return positive(requested, "cycle_length")


def buffer_size(requested, what):
    """A buffer size: AUTOTUNE gives `PREFETCH_BUFFER`; otherwise a positive int."""
    if requested is None or requested == AUTOTUNE:
        return PREFETCH_BUFFER
    if int(requested) == 0:
        return 0
    return positive(requested, what)


def positive(value, what):
    """``value`` as an int >= 1, or a ValueError naming ``what``."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        number = None
    if number is None or number < 1 or isinstance(value, bool):
        raise ValueError(f"`{what}` must be a positive integer or companion.data.AUTOTUNE. "
                         f"Received: {what}={value!r}")
    return number
