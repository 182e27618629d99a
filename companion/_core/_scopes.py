"""Graph-building utilities that eager TensorFlow code still calls: name scopes, `init_scope`,
`no_op`/`group`, `ensure_shape`, `get_static_value` and `timestamp`.

companion has no graph to name or group, so these keep TensorFlow's results (scope strings,
``None`` for control ops) without graph side effects.
"""

import contextlib
import re
import threading
import time

import jax
import jax.numpy as jnp
import numpy as np

from companion._core import _graph_mode, _nest, _tensor_names
from companion._core._context import state
from companion._core._convert import convert_to_tensor, is_tensor
from companion._core._errors import InvalidArgumentError
from companion._core._operation import traced_group
from companion._core._shape import TensorShape
from companion._core._tensor import Tensor

__all__ = ["control_dependencies", "ensure_shape", "get_current_name_scope", "get_static_value", "group",
           "init_scope", "name_scope", "no_op", "timestamp"]

_VALID_SCOPE = re.compile(r"^[A-Za-z0-9_.\\/>-]*$")
_scopes = threading.local()


class name_scope:  # noqa: N801 - TensorFlow's public name
    """A context manager that opens the name scope ``name`` (nested scopes join with ``/``).

    Entering returns the full scope name, ending in ``/``. companion does not name tensors,
    so scopes only matter for code that reads them (`get_current_name_scope`, `Module`).

    Example:
        >>> import companion as tf
        >>> with tf.name_scope("outer"):
        ...     with tf.name_scope("inner") as scope:
        ...         print(scope)
        outer/inner/
    """

    def __init__(self, name):
        if not isinstance(name, str) or not _VALID_SCOPE.match(name):
            raise ValueError(f"name_scope: {name!r} is not a valid scope name: use letters, digits and "
                             "'_', '.', '-', '/'. ")
        self._name = name
        self._previous = None

    @property
    def name(self):
        return self._name

    def __enter__(self):
        self._previous = get_current_name_scope()
        if not self._name:
            full = ""
        elif self._name.endswith("/"):  # an absolute scope, as TensorFlow
            full = self._name
        else:
            full = f"{self._previous}/{self._name}/" if self._previous else f"{self._name}/"
            if state.staging:  # a function's graph makes the scope unique (TF: ``a``, then ``a_1``)
                full = _tensor_names.unique_scope(full[:-1]) + "/"
        _scopes.current = full.rstrip("/")
        return full

    def __exit__(self, *exc_info):
        _scopes.current = self._previous
        return False


def get_current_name_scope():
    """The name of the innermost open `name_scope`, without the trailing ``/`` (``""`` at top level).

    Example:
        >>> import companion as tf
        >>> with tf.name_scope("block"):
        ...     print(tf.get_current_name_scope())
        block
    """
    return getattr(_scopes, "current", "")


@contextlib.contextmanager
def init_scope():
    """A block that runs eagerly even inside a traced function, as TensorFlow's ``init_scope``.

    Use it to create state (Variables, constants) once, outside the compiled program; tensors
    computed by the function's traced code cannot be used inside it, and no tape records it.

    Example:
        >>> import companion as tf
        >>> @tf.function
        ... def f(x):
        ...     with tf.init_scope():
        ...         eager = tf.executing_eagerly()
        ...     return x, eager
        >>> bool(f(tf.constant(1.0))[1])
        True
    """
    # deferred: the staging layer is built on this module (an upward import is a cycle)
    from companion._staging import eager_scope

    with eager_scope():
        yield


@contextlib.contextmanager
def control_dependencies(control_inputs):
    """Runs the block after ``control_inputs``. Eager and traced companion code runs in program
    order, so there it only checks its argument (a list of tensors, operations or None), as eager
    TensorFlow; while a TF1 graph is built, every op built in the block gets ``control_inputs`` as
    control inputs: a Session runs them first (``None`` clears the outer blocks' inputs).

    Example:
        >>> import companion as tf
        >>> v = tf.Variable(1.0)
        >>> with tf.control_dependencies([v.assign_add(1.0)]):
        ...     doubled = v * 2
        >>> float(doubled)
        4.0
    """
    if control_inputs is not None and not isinstance(control_inputs, (list, tuple)):
        raise TypeError(f"control_dependencies expects a list of tensors or operations (or None). "
                        f"Received: {control_inputs!r}")
    graph = _graph_mode.building
    if graph is None or state.staging:
        yield
        return
    with graph._control_dependencies(control_inputs):  # a TF1 graph: recorded as control inputs
        yield


def no_op(name=None):
    """Does nothing and returns None (TensorFlow's placeholder for control dependencies); while a
    function is traced or a TF1 graph is built, a ``NoOp`` `Operation`.

    Example:
        >>> import companion as tf
        >>> print(tf.no_op())
        None
    """
    graph = _graph_mode.building
    if graph is None or state.staging:
        return traced_group(name or "NoOp", ())
    return graph._new_operation(name or "NoOp", "NoOp", "group", (), ())


def group(*inputs, **kwargs):
    """Groups operations so they run together; eager and traced companion code already runs
    them in order, so this returns None eagerly (as TensorFlow does) and, while a function is
    traced, TF's ``NoOp`` `Operation` named ``group_deps``. While a TF1 graph is built, it is a
    ``NoOp`` operation whose control inputs are ``inputs``: running it runs them.

    Example:
        >>> import companion as tf
        >>> print(tf.group(tf.constant(1), tf.constant(2)))
        None
    """
    unknown = set(kwargs) - {"name"}
    if unknown:
        raise TypeError(f"group got unexpected keyword arguments {sorted(unknown)}; it takes tensors "
                        "and name.")
    graph = _graph_mode.building
    if graph is None or state.staging:
        return traced_group(kwargs.get("name") or "group_deps", _nest.flatten(list(inputs)))
    # deferred: the staging layer is built on this module (an upward import is a cycle)
    from companion._staging._graph import _as_operation

    control = [_as_operation(x) for x in _nest.flatten(list(inputs)) if x is not None]
    return graph._new_operation(kwargs.get("name") or "group_deps", "NoOp", "group", (), (), control=control)


def ensure_shape(x, shape, name=None):
    """``x`` unchanged, after checking that its shape is compatible with ``shape`` (None: any size).

    Raises:
        InvalidArgumentError: the shapes differ in rank or in a known dimension.

    Example:
        >>> import companion as tf
        >>> print(tf.ensure_shape(tf.zeros((2, 3)), [None, 3]).shape)
        (2, 3)
    """
    x = convert_to_tensor(x)
    expected = TensorShape(shape)
    if not expected.is_compatible_with(x._v.shape):
        shown = None if expected.rank is None else expected.as_list()
        raise InvalidArgumentError(
            f"Shape of tensor {tuple(x._v.shape)} is not compatible with expected shape "
            f"{shown}. Each known dimension must match (None matches any size). Reshape "
            "the tensor or fix the expected shape.")
    # deferred: the op layer is built on this module (an upward import is a cycle)
    from companion._ops._py_function import _note_shapes

    # a py_function output in a dataset function then has this static shape, as in TF
    _note_shapes([x], expected, only_known=True)
    return x


def get_static_value(tensor, partial=False):
    """The value of ``tensor`` as a NumPy array when it is known without running anything, else None.

    Eager tensors have one. Inside a function, as in TF's graph, only constants, values read from
    static shapes (``tf.shape``, ``tf.size``, ``tf.rank``) and what casts, stacks, concatenates,
    fills, compares for equality or passes them on (``Cast``, ``Pack``, ``ConcatV2``, ``Fill``,
    ``Equal``, ``Identity``...) do; arithmetic on them (``tf.constant(3.0) + 1.0``) and anything
    computed from the function's inputs do not. Other values are returned unchanged.

    Example:
        >>> import companion as tf
        >>> tf.get_static_value(tf.constant([1, 2]))
        array([1, 2], dtype=int32)
    """
    if getattr(tensor, "_is_variable", False):
        return None  # a Variable's value can change: TensorFlow gives None too
    if not is_tensor(tensor):
        return tensor
    if isinstance(tensor._value, jax.core.Tracer):
        return None
    if state.staging and _tensor_names.known_in_graph(tensor._v) is False:
        return None  # companion knows it while tracing (`x + 1.0` of constants), TF's graph does not
    return tensor.numpy()


def timestamp(name=None):
    """The current time in seconds since the epoch, as a float64 scalar tensor.

    Inside a function it is read each time the compiled program runs, not when it is traced.

    Example:
        >>> import companion as tf
        >>> float(tf.timestamp()) > 1.6e9
        True
    """
    if state.staging:
        shape = jax.ShapeDtypeStruct((), jnp.float64)
        return Tensor(jax.pure_callback(lambda: np.asarray(time.time(), np.float64), shape))
    return Tensor(jnp.asarray(time.time(), jnp.float64))
