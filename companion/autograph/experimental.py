"""``companion.autograph.experimental``: ``do_not_convert`` and ``set_loop_options``.

``set_loop_options(maximum_iterations=N)`` written as the first statement of a loop body
(as in TensorFlow) is read by the converter: a loop compiled in a function then runs at
most ``N`` times, and with ``N`` known while tracing it is a bounded loop (a ``lax.scan``
of ``N`` steps: linear-cost gradients, and a capacity for ``TensorArray(dynamic_size=True)``).
Called outside a converted loop it does nothing, as in TensorFlow.
"""

from malt.impl.api import do_not_convert
from malt.lang.directives import set_loop_options

__all__ = ["do_not_convert", "set_loop_options"]
