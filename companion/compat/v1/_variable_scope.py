"""TF1 variable sharing: `variable_scope`, `get_variable`, collections and regularization losses.

`get_variable` keeps a store per graph (full name -> Variable): in a scope opened with
``reuse=True`` it returns the stored Variable, with ``reuse=AUTO_REUSE`` it returns it or
creates it, and otherwise it refuses a name that exists (TF's ValueErrors). A ``regularizer``
is applied once, when the Variable is created, and its loss tensor is kept in the graph's
``REGULARIZATION_LOSSES`` collection, so reusing a layer's weights does not count them twice.
"""

import contextlib
import re

from companion._core import _dtypes, _graph_mode
from companion._core._convert import constant
from companion._core._scopes import get_current_name_scope, name_scope
from companion._ops._creation import identity
from companion._ops._math import add_n
from companion._staging._graph import GraphVariable, get_default_graph, suspended
from companion._staging._graph import constant as graph_constant
from companion.keras import initializers


class _ReuseMode:
    def __repr__(self):
        return "_ReuseMode.AUTO_REUSE"


AUTO_REUSE = _ReuseMode()


class GraphKeys:
    """Names of the standard graph collections."""

    GLOBAL_VARIABLES = "variables"
    TRAINABLE_VARIABLES = "trainable_variables"
    REGULARIZATION_LOSSES = "regularization_losses"
    LOSSES = "losses"
    UPDATE_OPS = "update_ops"
    GLOBAL_STEP = "global_step"


_scopes = []  # open variable scopes: (full name, reuse, initializer, regularizer)


@contextlib.contextmanager
def variable_scope(name_or_scope, default_name=None, values=None, initializer=None, regularizer=None,
                   reuse=None, dtype=None, **kwargs):
    """Opens a variable scope: `get_variable` names start with it, and ``reuse`` says whether
    existing Variables are returned (True), created (None/False) or either (AUTO_REUSE). Ops
    built inside get a name scope of the same name, made unique (``scope``, ``scope_1``...).

    Example:
        >>> import companion as tf
        >>> v1 = tf.compat.v1
        >>> with tf.Graph().as_default():
        ...     for _ in range(2):
        ...         with v1.variable_scope("layer", reuse=v1.AUTO_REUSE):
        ...             w = v1.get_variable("w", shape=[2])
        ...     print(w.name, len(v1.global_variables()))
        layer/w:0 1
    """

    name = name_or_scope if name_or_scope is not None else default_name
    if name is None:
        raise ValueError("variable_scope needs a name_or_scope (or a default_name).")
    outer = _scopes[-1] if _scopes else ("", None, None, None)
    full = f"{outer[0]}/{name}" if outer[0] else name
    inherited = outer[1] if reuse is None or reuse is False else reuse
    if reuse is False:
        inherited = None
    graph = _graph_mode.building or get_default_graph()

    current = get_current_name_scope()
    ops_scope = graph.unique_name(f"{current}/{name}" if current else name)
    _scopes.append((full, inherited if reuse is not True else True, initializer or outer[2],
                    regularizer or outer[3]))
    try:
        with name_scope(ops_scope + "/"):
            yield _Scope(full, _scopes[-1][1])
    finally:
        _scopes.pop()


class _Scope:
    def __init__(self, name, reuse):
        self.name = name
        self.original_name_scope = name + "/"
        self.reuse = reuse


def get_variable(name, shape=None, dtype=None, initializer=None, regularizer=None, trainable=None,
                 collections=None, **kwargs):
    """The Variable ``scope/name``, created or reused as the enclosing `variable_scope` says.

    ``initializer`` is a Keras/TF initializer (called with shape and dtype), a value, or None
    (glorot_uniform for floats, zeros otherwise, as TF). ``regularizer(variable)`` gives a loss
    tensor added to the ``REGULARIZATION_LOSSES`` collection when the Variable is created.
    """

    graph = _graph_mode.building
    if graph is None:
        raise RuntimeError("tf.compat.v1.get_variable() builds a graph Variable: call it inside "
                           "`with tf.Graph().as_default():` or after tf.compat.v1.disable_eager_execution().")
    scope, reuse, scope_initializer, scope_regularizer = _scopes[-1] if _scopes else ("", None, None, None)
    full = f"{scope}/{name}" if scope else name
    existing = graph._var_store.get(full)
    if existing is not None:
        if reuse is None:
            raise ValueError(f"Variable {full} already exists, disallowed. Did you mean to set reuse=True "
                             "or reuse=tf.AUTO_REUSE in VarScope?")
        if shape is not None and not existing.shape.is_compatible_with(shape):
            raise ValueError(f"Trying to share variable {full}, but specified shape {list(shape)} and found "
                             f"shape {existing.shape}.")
        return existing
    if reuse is True:
        raise ValueError(f"Variable {full} does not exist, or was not created with tf.get_variable(). Did "
                         "you mean to set reuse=tf.AUTO_REUSE in VarScope?")
    dtype = _dtypes.as_dtype(dtype or "float32")
    initializer = initializer if initializer is not None else scope_initializer
    regularizer = regularizer if regularizer is not None else scope_regularizer
    with suspended():
        value = _initial_value(initializer, shape, dtype)
    var = GraphVariable(value, trainable=trainable, dtype=dtype, _full_name=graph.unique_name(full))
    graph._var_store[full] = var
    for key in collections or ():
        if key not in (GraphKeys.GLOBAL_VARIABLES, GraphKeys.TRAINABLE_VARIABLES):
            graph.add_to_collection(key, var)
    if regularizer is not None:
        with name_scope(f"{full}/Regularizer/"):
            loss = regularizer(var)
        if loss is not None:
            graph._reg_losses = getattr(graph, "_reg_losses", [])
            graph._reg_losses.append((full, loss))
            graph.add_to_collection(GraphKeys.REGULARIZATION_LOSSES, loss)
    return var


def _initial_value(initializer, shape, dtype):
    if initializer is None:
        initializer = initializers.GlorotUniform() if dtype.is_floating else initializers.Zeros()
    if callable(initializer):
        if shape is None:
            raise ValueError("get_variable needs a shape when the initializer is a function.")
        return initializer(list(shape), dtype=dtype)
    value = constant(initializer, dtype=dtype)
    if shape is not None and list(value.shape) != list(shape):
        raise ValueError(f"The initializer's value has shape {value.shape}, but get_variable asked for "
                         f"shape {list(shape)}. Pass shape=None to use the value's shape.")
    return value


def get_collection(key, scope=None):
    """The values in the default graph's collection ``key`` (names matching ``scope``, if given)."""
    return get_default_graph().get_collection(key, scope)


def add_to_collection(name, value):
    get_default_graph().add_to_collection(name, value)


def global_variables(scope=None):
    """The default graph's Variables (in TF2 eager code: [])."""
    return get_collection(GraphKeys.GLOBAL_VARIABLES, scope)


def trainable_variables(scope=None):
    """The default graph's trainable Variables."""
    return get_collection(GraphKeys.TRAINABLE_VARIABLES, scope)


def get_regularization_losses(scope=None):
    """The regularization losses of the Variables whose names match ``scope``."""
    graph = get_default_graph()
    return [loss for name, loss in getattr(graph, "_reg_losses", [])
            if scope is None or re.match(scope, name)]


def get_regularization_loss(scope=None, name="total_regularization_loss"):
    """The sum of the regularization losses of the Variables in ``scope`` (0.0 if none).

    A Variable shared through ``reuse`` was regularized once, when it was created, so it counts once.
    """
    losses = get_regularization_losses(scope)
    graph = _graph_mode.building
    if not losses or graph is None:
        return graph_constant(0.0)
    total = add_n(losses) if len(losses) > 1 else identity(losses[0])
    graph._by_name.pop(total.op._name, None)
    total.op._name = graph.unique_name(name)
    graph._by_name[total.op._name] = total.op
    return total
