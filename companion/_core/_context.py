"""Per-thread interpreter state: recording tapes, active staging traces, the strategy in scope.

The core reads the distribution state here and nowhere else: `Strategy.scope` pushes its
strategy (a new Variable asks it to ``place_variable``), and the replica context of a
`Strategy.run` being staged is pushed while its function runs (the optimizer sums gradients
over replicas with its ``all_reduce``; losses use its ``example_mask``).
"""

import contextlib
import threading


class _State(threading.local):
    def __init__(self):
        self.tapes = []  # recording GradientTapes, innermost last
        self.staging = 0  # > 0 while a companion.function or strategy.run traces Python code
        self.traces = []  # the active staging Traces (companion._staging.Trace), innermost last
        self.strategies = []  # strategies whose scope is entered, innermost last
        self.replicas = []  # ReplicaContexts of the Strategy.run calls being staged, innermost last
        self.metric_reads_global = 0  # > 0 inside `global_metric_reads` (Keras fit's replica step)
        # a mixed-precision layer's compute dtype while it calls: its float Keras weights are read
        # in it (`companion._core._convert.autocast`); None outside such a call
        self.autocast = None
        # > 0 while a dataset function runs its Python on concrete elements, where TF runs a graph
        # (`companion._ops._py_function.running_as_graph_code`); 0 inside a py_function's own code
        self.graph_code = 0


state = _State()


class flags:
    """Process-wide execution settings (not per thread), set through `companion.config`:
    ``run_functions_eagerly`` (every `companion.function` runs its Python eagerly) and
    ``op_determinism``."""

    run_functions_eagerly = False
    op_determinism = False
    # `companion.data.experimental.enable_debug_mode`: dataset functions run eagerly on each element
    data_debug_mode = False
    # `companion.debugging.enable_check_numerics`: every op's float outputs are checked for NaN/Inf
    check_numerics = False


def current_strategy():
    """The innermost strategy in scope (or of the replica being staged); None: the default."""
    if state.replicas:
        return state.replicas[-1].strategy
    return state.strategies[-1] if state.strategies else None


@contextlib.contextmanager
def global_metric_reads():
    """`Strategy.run` calls staged inside see a metric's global value in every replica: each
    ``update_state`` sums its change over the replicas at once (Keras's distributed ``fit`` reads
    its logs inside the replicas, as Keras 2's merge_call did). Elsewhere, as in TF 2.21, an
    update changes the replica's own state, summed over the replicas when ``run`` returns."""
    state.metric_reads_global += 1
    try:
        yield
    finally:
        state.metric_reads_global -= 1


def current_replica():
    """The replica context of the `Strategy.run` being staged, or None."""
    return state.replicas[-1] if state.replicas else None


def executing_eagerly():
    """True unless the calling code is being traced by `companion.function` or a strategy.

    Example:
        >>> import companion as tf
        >>> tf.executing_eagerly()
        True
    """
    return state.staging == 0


def replica_example_mask(values, flat=False):
    """Inside `Strategy.run` on a padded final batch: the 0/1 mask of real examples, shaped to
    broadcast against ``values`` (one per example along axis 0; ``flat``: shape ``(n,)``);
    otherwise None."""
    replica = current_replica()
    mask = None if replica is None else replica.example_mask
    shape = tuple(values.shape)
    if mask is None or not shape or shape[0] != mask.shape[0]:
        return None
    # deferred: the op layer is built on this module (an upward import is a cycle)
    from companion._ops._array import reshape

    return mask if flat else reshape(mask, (shape[0],) + (1,) * (len(shape) - 1))
