"""``companion.autograph``: convert Python control flow on tensors into compiled control flow.

`to_code` shows the converted source; `to_graph` returns the converted function;
`experimental.do_not_convert` marks a function to be called as is.

AutoGraph is part of the staging layer: `companion._staging._control_flow` uses its converted
control flow (``_control_flow``, ``_loops``, ``_loop_op``, ``_blocks``, ``_state``) directly.
"""

from companion.autograph import experimental
from companion.autograph._converter import to_code, to_graph
from companion.autograph._verbosity import get_verbosity, set_verbosity

__all__ = ["experimental", "get_verbosity", "set_verbosity", "to_code", "to_graph"]
