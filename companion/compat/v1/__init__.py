"""`companion.compat.v1`: TensorFlow 1's graph-and-session API (``tf.compat.v1``), for comparing
TF1 code with TF2's eager execution and `companion.function`.

How it works: a graph is a recorded program. While a graph is being built (inside
``tf.Graph().as_default()``, or after `disable_eager_execution`), applying any op does not run
it: `Op.apply` sees `companion._core._graph_mode.building` and records a node (the op, its static
parameters and its input nodes) in the default graph, returning a symbolic tensor that has a
shape and a dtype but no value (``<companion.Tensor 'add:0' shape=() dtype=float32>``; names
are made unique per graph as TF does: ``add``, ``add_1``). Variables built in a graph hold no
value: each `Session` holds its own, set by running their ``initializer``.

`Session.run(fetches, feed_dict)` stages, with the one staging function
`companion._staging.stage`, a program that evaluates just the nodes the fetches need from the
fed arrays and the session's Variable values; assign, initializer and ``minimize`` nodes are
side effects that write the session's Variable values only when a run includes them. The
program is compiled once and cached per fetch/feed signature. ``minimize``'s gradients are
``jax.grad`` of the loss node's evaluation with respect to the Variables' values, inside the
staged program.

Example:
    >>> import companion as tf
    >>> v1 = tf.compat.v1
    >>> g = tf.Graph()
    >>> with g.as_default():
    ...     w = tf.Variable(10)
    ...     grow = w.assign(100)
    ...     with v1.Session() as sess:
    ...         sess.run(w.initializer)
    ...         print(sess.run(w))  # the assign op was built, not run
    10
"""

import companion
from companion._core import _graph_mode
from companion._core._dimension import Dimension, dimension_value
from companion._core._shape import dimension_at_index
from companion._core._variable import Variable
from companion._missing import missing_attribute
from companion._staging._graph import (
    Graph,
    Operation,
    disable_eager_execution,
    enable_eager_execution,
    executing_eagerly,
    executing_eagerly_outside_functions,
    get_default_graph,
    get_default_session,
    reset_default_graph,
)
from companion.compat.v1 import losses, train
from companion.compat.v1._session import InteractiveSession, Session, placeholder
from companion.compat.v1._variable_scope import (
    AUTO_REUSE,
    GraphKeys,
    add_to_collection,
    get_collection,
    get_variable,
    global_variables,
    trainable_variables,
    variable_scope,
)
from companion.keras import initializers

__all__ = [
    "AUTO_REUSE", "Dimension", "Graph", "GraphKeys", "InteractiveSession", "Operation", "Session",
    "Variable", "add_to_collection", "constant_initializer", "dimension_at_index", "dimension_value",
    "disable_eager_execution", "enable_eager_execution", "executing_eagerly",
    "executing_eagerly_outside_functions", "get_collection", "get_default_graph", "get_default_session",
    "get_variable", "global_variables", "global_variables_initializer", "initialize_all_variables",
    "losses", "ones_initializer", "placeholder", "random_normal_initializer", "random_uniform_initializer",
    "reset_default_graph", "train", "trainable_variables", "truncated_normal_initializer", "variable_scope",
    "variables_initializer", "zeros_initializer"
]


def variables_initializer(var_list, name="init"):
    """One op that runs the initializers of ``var_list``."""
    graph = _graph_mode.building or get_default_graph()
    return graph._new_operation(name, "NoOp", "group", (), (), control=[v.initializer for v in var_list])


def global_variables_initializer():
    """One op (``init``) that runs the initializer of every Variable of the default graph.

    Example:
        >>> import companion as tf
        >>> with tf.Graph().as_default():
        ...     init = tf.compat.v1.global_variables_initializer()
        >>> init
        <companion.Operation 'init' type=NoOp>
    """
    return variables_initializer(global_variables())


initialize_all_variables = global_variables_initializer

_INITIALIZERS = {"constant_initializer": "Constant", "ones_initializer": "Ones", "zeros_initializer": "Zeros",
                 "random_normal_initializer": "RandomNormal", "random_uniform_initializer": "RandomUniform",
                 "truncated_normal_initializer": "TruncatedNormal",
                 "glorot_uniform_initializer": "GlorotUniform", "glorot_normal_initializer": "GlorotNormal"}


def __getattr__(name):
    if name in _INITIALIZERS:
        value = getattr(initializers, _INITIALIZERS[name])
        globals()[name] = value
        return value
    if name in ("nn", "math", "random", "errors", "dtypes", "float32", "float64", "int32", "int64", "bool",
                "constant", "reduce_sum", "reduce_mean", "matmul", "square", "zeros", "ones"):
        return getattr(companion, name)

    raise missing_attribute("companion.compat.v1", name, __all__)
