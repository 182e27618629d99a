"""TF1 graphs: `Graph`, its `Operation` nodes, symbolic tensors and graph Variables.

A graph is a recorded program. While a graph is being built (``Graph.as_default()``, or after
``compat.v1.disable_eager_execution()``), `companion._core._graph_mode.building` is that graph, and
`Op.apply` hands every op application to `Graph._record` instead of running it: the graph keeps
a node (the `Op`, its static parameters and its inputs: symbolic tensors, Variables, or concrete
constants) and returns `SymbolicTensor` outputs whose shapes and dtypes come from
``jax.eval_shape`` of the op's pure function (a ``None`` dimension is found by evaluating the
shape twice with two sizes for the unknown dimensions). Nothing is computed until a
`compat.v1.Session` runs the nodes (see `companion.compat.v1._session`, which stages them with
`companion._staging.stage`).

Variables built in a graph are `GraphVariable`s: they hold no value of their own (a Session
holds it), reading one in an op records a read node, and ``assign``/``initializer`` are nodes
that write the value only when a Session runs them.
"""

import contextlib
import functools
import re
import threading

import jax
import jax.numpy as jnp
import numpy as np

from companion._core import _convert, _dtypes, _graph_mode, _operation
from companion._core._context import state
from companion._core._convert import as_input
from companion._core._scopes import get_current_name_scope
from companion._core._shape import TensorShape
from companion._core._tensor import Tensor
from companion._core._tensor_names import tf_op_name, unique_name
from companion._core._variable import Variable
from companion._ops._math import cast
from companion._staging._errors import OperatorNotAllowedInGraphError

_WRITE_TYPES = {"assign": "AssignVariableOp", "add": "AssignAddVariableOp", "sub": "AssignSubVariableOp"}


class _Abstract:
    """Shape (a tuple that may hold None, or None: unknown rank) and dtype of a symbolic value."""

    __slots__ = ("shape", "dtype")

    def __init__(self, shape, dtype):
        self.shape = None if shape is None else tuple(shape)
        self.dtype = np.dtype(dtype)

    @property
    def ndim(self):
        return len(self.shape) if self.shape is not None else None


class Graph:
    """A TF1 graph: the nodes (`Operation`s) recorded while it is the default graph.

    Example:
        >>> import companion as tf
        >>> g = tf.Graph()
        >>> with g.as_default():
        ...     c = tf.constant(2.0) + 3.0
        >>> c
        <companion.Tensor 'add:0' shape=() dtype=float32>
        >>> with tf.compat.v1.Session(graph=g) as sess:
        ...     print(sess.run(c))
        5.0
    """

    def __init__(self):
        self._operations = []
        self._by_name = {}
        self._name_counts = {}
        self._collections = {}
        self._var_store = {}  # get_variable's store: full name -> Variable
        self._programs = {}  # Session.run's compiled programs, per fetch/feed signature
        self._variable_class = GraphVariable
        self._control_frames = []  # control_dependencies blocks being built: lists of Operations, or None

    # -- building --------------------------------------------------------------------
    def as_default(self):
        """A context manager making this graph the default: ops built inside are recorded here."""
        return _as_default(self)

    def unique_name(self, name, mark_as_used=True):
        """``name``, or ``name_1``, ``name_2``... if taken (TF's rule)."""
        return unique_name(self._name_counts, name, mark_as_used)

    def _new_operation(self, base, op_type, kind, inputs=(), abstracts=(), **details):
        scope = get_current_name_scope()
        name = self.unique_name(f"{scope}/{base}" if scope and not base.startswith(scope + "/") else base)
        control = list(details.get("control", ()))
        control += [op for op in self._control_inputs() if op not in control]
        if control:
            details["control"] = control
        operation = Operation(self, name, op_type, kind, inputs, details)
        operation._outputs = [SymbolicTensor(operation, i, a) for i, a in enumerate(abstracts)]
        self._operations.append(operation)
        self._by_name[name] = operation
        return operation

    def _record(self, op, inputs, params):
        """One op application while this graph is built: a node, and its symbolic output(s)."""
        refs = [self._input(x) for x in inputs]
        abstracts, single = _infer(op, params, refs)
        base, op_type = tf_op_name(op.name)
        operation = self._new_operation(base, op_type, "op", refs, abstracts, op=op, params=params)
        return operation._outputs[0] if single else tuple(operation._outputs)

    @contextlib.contextmanager
    def _control_dependencies(self, control_inputs):
        """Ops built in this block run after ``control_inputs`` (None: after none of the outer ones)."""
        frame = None if control_inputs is None else [_as_operation(c) for c in control_inputs]
        self._control_frames.append(frame)
        try:
            yield
        finally:
            self._control_frames.pop()

    def _control_inputs(self):
        inputs = []
        for frame in reversed(self._control_frames):
            if frame is None:
                break
            inputs += [op for op in frame if op not in inputs]
        return inputs

    def _input(self, x):
        """A node input: a symbolic tensor of this graph, a read of a graph Variable, or a constant."""
        if isinstance(x, SymbolicTensor):
            if x.graph is not self:
                raise ValueError(f"Tensor {x.name!r} belongs to another Graph than the one being built. "
                                 "Build all the ops you run together inside one `with graph.as_default():`.")
            return x
        if isinstance(x, GraphVariable):
            return x._read_node()
        if getattr(x, "_is_variable", False):  # an eager Variable: its current value, as a constant
            return _Constant(x._v)
        return _Constant(x._value)

    def _constant(self, value, name="Const"):
        value = jnp.asarray(value) if not isinstance(value, np.ndarray) or value.dtype != object else value
        operation = self._new_operation(name, "Const", "const", (), [_Abstract(value.shape, value.dtype)],
                                        value=value)
        return operation._outputs[0]

    # -- reading ---------------------------------------------------------------------
    def get_operations(self):
        """The graph's operations, in the order they were built."""
        return list(self._operations)

    def get_operation_by_name(self, name):
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(f"The name {name!r} refers to an Operation not in the graph.") from None

    def get_tensor_by_name(self, name):
        op_name, _, index = name.rpartition(":")
        if not op_name:
            raise ValueError(f"The name {name!r} looks like an Operation name, not a Tensor name "
                             "(a Tensor is named 'op_name:output_index', e.g. 'add:0').")
        return self.get_operation_by_name(op_name).outputs[int(index)]

    def add_to_collection(self, name, value):
        self._collections.setdefault(name, []).append(value)

    def get_collection(self, name, scope=None):
        """The values in collection ``name`` (those whose ``name`` starts with ``scope``, if given)."""
        values = list(self._collections.get(name, []))
        if scope is None:
            return values
        return [v for v in values if re.match(scope, getattr(v, "name", "") or "")]

    def get_collection_ref(self, name):
        return self._collections.setdefault(name, [])

    @property
    def version(self):
        return len(self._operations)

    def finalize(self):
        pass

    def _repr_html_(self):
        """The graph as a picture in a notebook: its nodes in topological layers (an inline SVG)."""
        # deferred: loaded on first use, so `import companion` does not load companion._staging._graph_picture
        from companion._staging._graph_picture import graph_html

        return graph_html(self)


class Operation(_operation.Operation):
    """A node of a `Graph` (TF's ``tf.Operation``): its name, type, inputs and outputs."""

    def __init__(self, graph, name, op_type, kind, inputs, details):
        self._graph = graph
        self._name = name
        self._type = op_type
        self._kind = kind  # "op", "const", "placeholder", "read", "assign", "init", "group", "minimize"
        self._inputs = list(inputs)
        self._details = details
        self._outputs = []

    name = property(lambda self: self._name)
    type = property(lambda self: self._type)
    graph = property(lambda self: self._graph)
    outputs = property(lambda self: list(self._outputs))
    device = property(lambda self: "")

    @property
    def inputs(self):
        return tuple(x for x in self._inputs if isinstance(x, SymbolicTensor))

    @property
    def control_inputs(self):
        return list(self._details.get("control", ()))

    def run(self, feed_dict=None, session=None):
        """Runs this operation in ``session`` (default: the default session)."""
        _session_for(session, "run()").run(self, feed_dict)

    def __repr__(self):
        return f"<companion.Operation '{self._name}' type={self._type}>"

    __str__ = __repr__


class SymbolicTensor(Tensor):
    """An output of a graph `Operation`: a shape and a dtype, and no value until a Session runs it."""

    def __init__(self, operation, index, abstract):
        self._value = abstract
        self._op = operation
        self._index = index

    op = property(lambda self: self._op)
    graph = property(lambda self: self._op._graph)
    value_index = property(lambda self: self._index)
    name = property(lambda self: f"{self._op._name}:{self._index}")
    device = property(lambda self: "")
    is_traced = property(lambda self: False)

    @property
    def shape(self):
        return TensorShape(self._v.shape)

    @property
    def ndim(self):
        return self._v.ndim

    def __hash__(self):  # a graph tensor is a feed_dict key, compared by identity (as TF's)
        return id(self)

    def eval(self, feed_dict=None, session=None):
        """This tensor's value computed by ``session`` (default: the default session)."""
        return _session_for(session, "eval()").run(self, feed_dict)

    def numpy(self):
        raise AttributeError(f"A symbolic tensor ({self.name}) has no value to convert with numpy(): "
                             "it is a node of a TF1 graph. Compute it with session.run(tensor).")

    def __array__(self, dtype=None, copy=None):
        raise TypeError(f"A symbolic tensor ({self.name}) cannot be converted to a NumPy array: it has "
                        "no value until a Session runs it. Use session.run(tensor).")

    def __bool__(self):
        raise OperatorNotAllowedInGraphError(
            "Using a symbolic `tf.Tensor` as a Python `bool` is not allowed: its value is only known "
            "when a Session runs the graph. Use companion.cond for a choice made by the graph.")

    def __float__(self):
        raise TypeError(f"float() argument must be a string or a real number, not a symbolic tensor "
                        f"({self.name}). Run it with session.run first.")

    __int__ = __index__ = __float__

    def __len__(self):
        raise TypeError(f"len() of a symbolic tensor ({self.name}) is not defined; use tensor.shape.")

    def __iter__(self):
        raise TypeError(f"Cannot iterate over a symbolic tensor ({self.name}) in graph mode.")

    def __format__(self, format_spec):
        return format(str(self), format_spec)

    def __repr__(self):
        return f"<companion.Tensor '{self.name}' shape={self.shape} dtype={self.dtype.name}>"

    def __str__(self):
        return f'Tensor("{self.name}", shape={self.shape}, dtype={self.dtype.name})'  # TF's, word for word


def _as_operation(control_input):
    """The graph Operation a control input stands for (an Operation, a graph tensor, a Variable)."""
    if isinstance(control_input, Operation):
        return control_input
    if isinstance(control_input, SymbolicTensor):
        return control_input.op
    if isinstance(control_input, GraphVariable):
        return control_input._read_node().op
    raise TypeError(f"Control input must be an Operation or a tensor of the graph being built. "
                    f"Received: {control_input!r}")


class _UnreadVariable(SymbolicTensor):
    """What ``v.assign(...)`` returns in a graph (TF's ``_UnreadVariable``): running it writes the
    Variable and gives its new value."""

    def __repr__(self):
        return f"<companion.Variable '{self._op._name}' shape={self.shape} dtype={self.dtype.name}>"


class _Constant:
    """A concrete value used as a node input (a Python number, an eager tensor)."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


class GraphVariable(Variable):
    """A Variable of a TF1 graph: its value lives in each Session, set by running its initializer."""

    _traced_by_spec = False

    def __init__(self, initial_value=None, trainable=None, validate_shape=True, name=None, dtype=None,
                 shape=None, aggregation=None, synchronization=None, **kwargs):
        if initial_value is None:
            raise ValueError("Variable needs an initial_value (a value, a tensor, or a callable "
                             "returning one). Received: initial_value=None")
        graph = _graph_mode.building
        # deferred: this module defines its own `constant` (the graph op); this is the eager one
        from companion._core._convert import constant

        if callable(initial_value):
            with suspended():
                initial_value = initial_value()
        if isinstance(initial_value, SymbolicTensor):
            initial = initial_value
            if dtype is not None and initial.dtype != _dtypes.as_dtype(dtype):
                initial = cast(initial, dtype)
            abstract = initial._value
        else:
            with suspended():
                initial = constant(initial_value._read() if getattr(initial_value, "_is_variable", False)
                                   else initial_value, dtype=dtype)
            abstract = _Abstract(initial.shape, initial._v.dtype)
        if abstract.shape is None or None in abstract.shape:
            raise ValueError(f"Variable {name!r}: the initial value's shape {TensorShape(abstract.shape)} "
                             "is not fully known. Give an initial value of known shape.")
        base = kwargs.pop("_full_name", None) or graph.unique_name(_scoped(name or "Variable"))
        self._graph = graph
        self._abstract = abstract
        self._shape = TensorShape(abstract.shape) if shape is None else TensorShape(shape)
        self._v = np.zeros(abstract.shape, abstract.dtype)  # only its shape and dtype are read
        self._read_cache = None
        self._name = f"{base}:0"
        self._op_name = base
        self._trainable = True if trainable is None else bool(trainable)
        self._is_rng_state = False
        self._constraint = kwargs.pop("constraint", None)
        self._aggregation = self._synchronization = None
        source = initial if isinstance(initial, SymbolicTensor) else _Constant(initial._value)
        self._initializer_op = graph._new_operation(f"{base}/Assign", "AssignVariableOp", "init",
                                                    [source], (), variable=self)
        graph.add_to_collection("variables", self)
        if self._trainable:
            graph.add_to_collection("trainable_variables", self)

    # the stored value: a Session's (traced) value while a Session runs, else only shape and dtype
    @property
    def _value(self):
        if state.staging:
            return Variable._value.fget(self)
        return self._abstract

    def _read_node(self):
        operation = self._graph._new_operation("ReadVariableOp", "ReadVariableOp", "read", (),
                                               [self._abstract], variable=self)
        return operation._outputs[0]

    def _read(self):
        if state.staging:
            return Tensor(Variable._value.fget(self))
        return self._read_node()

    def value(self):
        return self._read()

    read_value = value

    @property
    def graph(self):
        return self._graph

    @property
    def op(self):
        return self._graph._by_name.get(self._op_name)

    @property
    def initializer(self):
        """The operation that sets this Variable's initial value in the Session that runs it."""
        return self._initializer_op

    @property
    def initial_value(self):
        return self._initializer_op._inputs[0]

    @property
    def dtype(self):
        return _dtypes.as_dtype(self._abstract.dtype)

    @property
    def ndim(self):
        return len(self._abstract.shape)

    @property
    def is_traced(self):
        return False

    def assign(self, value, use_locking=None, name=None, read_value=True):
        """An op that writes ``value`` when a Session runs it (nothing happens until then)."""
        return self._write("assign", value, name or "AssignVariableOp")

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        return self._write("add", delta, name or "AssignAddVariableOp")

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        return self._write("sub", delta, name or "AssignSubVariableOp")

    def _write(self, how, value, name):
        value = value if isinstance(value, SymbolicTensor) else as_input(value, self.dtype)
        if value.dtype != self.dtype:
            raise ValueError(f"Variable.assign: a value of dtype {value.dtype.name} cannot be assigned to "
                             f"the {self.dtype.name} Variable {self._name!r}. Cast it first.")
        self._check_shape(value.shape, "assign")
        ref = self._graph._input(value)
        operation = self._graph._new_operation(name, _WRITE_TYPES[how], "assign", [ref], (), variable=self,
                                               how=how)
        operation._outputs = [_UnreadVariable(operation, 0, self._abstract)]
        return operation._outputs[0]

    def eval(self, session=None):
        return _session_for(session, "eval()").run(self)

    def numpy(self):
        raise NotImplementedError(f"numpy() is only available eagerly; {self._name!r} is a Variable of a "
                                  "TF1 graph: read it with session.run(variable).")

    def __array__(self, dtype=None, copy=None):
        raise TypeError(f"The graph Variable {self._name!r} has no value outside a Session: use "
                        "session.run(variable).")

    def __bool__(self):
        raise OperatorNotAllowedInGraphError("Using a graph Variable as a Python `bool` is not allowed.")

    def __repr__(self):
        return f"<companion.Variable '{self._name}' shape={self.shape} dtype={self.dtype.name}>"

    __str__ = __repr__


# -- the default graph ------------------------------------------------------------------
class _Defaults(threading.local):
    def __init__(self):
        self.stack = []  # graphs entered with as_default, innermost last
        self.sessions = []  # default sessions, innermost last


_defaults = _Defaults()
_global = {"graph": None, "eager": True}


def get_default_graph():
    """The graph ops are recorded into: the innermost ``as_default`` graph, else the global one."""
    if _defaults.stack:
        return _defaults.stack[-1]
    if _global["graph"] is None:
        _global["graph"] = Graph()
    return _global["graph"]


def reset_default_graph():
    """Replaces the global default graph by a new, empty one."""
    if _defaults.stack:
        raise AssertionError("Do not use tf.reset_default_graph() to clear nested graphs. If you need "
                             "a cleared graph, exit the nesting and create a new graph.")
    _global["graph"] = Graph()
    _refresh()


def _refresh():
    """Recomputes the graph being built (what `Op.apply` checks)."""
    if _defaults.stack:
        _graph_mode.building = _defaults.stack[-1]
    elif not _global["eager"]:
        _graph_mode.building = get_default_graph()
    else:
        _graph_mode.building = None


@contextlib.contextmanager
def _as_default(graph):
    _defaults.stack.append(graph)
    _refresh()
    try:
        yield graph
    finally:
        _defaults.stack.remove(graph)
        _refresh()


@contextlib.contextmanager
def suspended():
    """Runs a block eagerly while a graph is being built (initial values, initializers)."""
    saved, _graph_mode.building = _graph_mode.building, None
    try:
        yield
    finally:
        _graph_mode.building = saved


def disable_eager_execution():
    """TF1 mode: from now on, ops outside any ``as_default`` graph are recorded in the default graph."""
    _global["eager"] = False
    _refresh()


def enable_eager_execution(config=None, device_policy=None, execution_mode=None):
    """Back to eager execution (TF 2.21 only allows this at program start; companion allows it
    at any time, so a notebook can compare both styles)."""
    _global["eager"] = True
    _refresh()


def executing_eagerly():
    """True unless a TF1 graph is being built or a function is being traced."""
    return _graph_mode.building is None and state.staging == 0


def executing_eagerly_outside_functions():
    """False after ``disable_eager_execution()``, else True."""
    return _global["eager"]


def get_default_session():
    return _defaults.sessions[-1] if _defaults.sessions else None


def _session_for(session, what):
    session = session or get_default_session()
    if session is None:
        raise ValueError(f"Cannot evaluate tensor using `{what}`: No default session is registered. Use "
                         "`with sess.as_default()` or pass an explicit session to "
                         f"`{what[:-2]}(session=sess)`")
    return session


def _scoped(name):
    scope = get_current_name_scope()
    return f"{scope}/{name}" if scope else name


# -- shape inference ---------------------------------------------------------------------
_TRIAL_SIZES = (6, 12)  # sizes tried for unknown dimensions (divisible by the usual factors)


def _infer(op, params, refs):
    """Output `_Abstract`s of ``op`` on ``refs`` (and whether the op returns a single array)."""
    fn = functools.partial(op.fn, **params)
    known = [_abstract_of(r) for r in refs]
    unknown = any(a.shape is None or None in a.shape for a in known)
    sizes = _TRIAL_SIZES if unknown else _TRIAL_SIZES[:1]
    results = [jax.eval_shape(fn, *[jax.ShapeDtypeStruct(_trial_shape(a.shape, size), a.dtype)
                                    for a in known]) for size in sizes]
    single = not isinstance(results[0], (tuple, list))
    firsts = [results[0]] if single else list(results[0])
    seconds = [results[-1]] if single else list(results[-1])
    rank_unknown = any(a.shape is None for a in known)
    abstracts = []
    for first, second in zip(firsts, seconds):
        if rank_unknown and first.shape != second.shape:
            shape = None
        else:
            shape = tuple(d if d == e else None for d, e in zip(first.shape, second.shape))
        abstracts.append(_Abstract(shape, first.dtype))
    return abstracts, single


def _abstract_of(ref):
    if isinstance(ref, _Constant):
        value = ref.value
        return _Abstract(np.shape(value), value.dtype)
    return ref._value


def _trial_shape(shape, size):
    if shape is None:
        return ()
    return tuple(size if d is None else d for d in shape)


def constant(value, dtype=None, shape=None, name=None):
    """`companion.constant`; while a TF1 graph is built, a ``Const`` node holding the value."""

    tensor = _convert.constant(value, dtype=dtype, shape=shape)
    graph = _graph_mode.building
    if graph is None or state.staging:
        return tensor
    return graph._constant(tensor._value, name or "Const")


def _public_constant():
    constant.__doc__ = _convert.constant.__doc__


_public_constant()
