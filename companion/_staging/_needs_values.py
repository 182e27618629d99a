"""`NeedsValues`: a trace met a shape that only the argument values decide.

XLA compiles arrays of fixed shapes, so a `TensorArray` whose size is a function argument
(``TensorArray(size=n)``), or a dynamic one filled by a loop over ``tf.range(n)``, cannot be
staged from the arguments' specs alone; TensorFlow grows such arrays at run time. A
top-level `companion.function` call that meets one runs the function eagerly instead, for that
signature and every later call of it (its Python prints, as on a TF trace, show once: at the
failed trace), so the program gets TensorFlow's results. Anywhere else (a dataset function, a
function traced inside another) the error is raised: it is a ValueError saying what to change.
"""


class NeedsValues(ValueError):
    """Raised while tracing when an array's shape depends on values known only when it runs."""
