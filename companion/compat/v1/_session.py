"""`Session`: runs the part of a TF1 graph its fetches need, as one staged and compiled program.

``run(fetches, feed_dict)`` flattens the fetches (lists, tuples, dicts, namedtuples, nested),
walks back from them to the nodes they need (stopping at fed tensors), and stages those nodes
with `companion._staging.stage`: the program takes the fed arrays, reads Variables through the
staging trace (so their values are the session's, passed in on every call) and writes them
through it (assign, initializer and optimizer nodes become extra outputs, stored back into
the session). The compiled program is cached on the graph per fetch/feed signature (which
nodes, and the fed arrays' shapes and dtypes), so a training loop compiles once.

Within one run, side effects happen in the order the fetches name them, each seeing the
values written before it; a fetched op that does not depend on an assign does not run it.
"""

import jax
import numpy as np

from companion import nest
from companion._core import _dtypes, _graph_mode
from companion._core._context import state
from companion._core._errors import FailedPreconditionError, InvalidArgumentError
from companion._core._shape import TensorShape
from companion._staging import Trace, stage
from companion._staging._graph import (
    GraphVariable,
    Operation,
    SymbolicTensor,
    _Abstract,
    _as_default,
    _Constant,
    _defaults,
    get_default_graph,
    suspended,
)


class Session:
    """A TF1 session: holds the values of a graph's Variables and runs its nodes.

    Example:
        >>> import companion as tf
        >>> g = tf.Graph()
        >>> with g.as_default():
        ...     x = tf.compat.v1.placeholder(tf.float32, shape=[None])
        ...     y = x * 2 + 1
        >>> with tf.compat.v1.Session(graph=g) as sess:
        ...     print(sess.run(y, feed_dict={x: [1.0, 2.0]}))
        [3. 5.]
    """

    def __init__(self, target="", graph=None, config=None):
        self._graph = graph if graph is not None else get_default_graph()
        self._values = {}  # id(GraphVariable) -> its value in this session
        self._closed = False
        self._contexts = []

    graph = property(lambda self: self._graph)

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        """The values of ``fetches`` (same structure; ops give None), with ``feed_dict`` fed."""
        if self._closed:
            raise RuntimeError("Attempted to use a closed Session.")
        flat = nest.flatten(fetches)
        targets = [self._target(f) for f in flat]
        feeds = self._feeds(feed_dict or {})
        key = (tuple(id(t) for t in targets),
               tuple((id(t), a.shape, a.dtype) for t, a in feeds))
        program = self._graph._programs.get(key)
        if program is None:
            program = _Program(targets, [t for t, _ in feeds])
            self._graph._programs[key] = program
        values = program.run(self, [a for _, a in feeds])
        results = [None if isinstance(t, Operation) else _numpy(values.pop(0)) for t in targets]
        return nest.pack_sequence_as(fetches, results) if nest.is_nested(fetches) else results[0]

    def _target(self, fetch):
        if isinstance(fetch, str):
            fetch = (self._graph.get_tensor_by_name(fetch) if ":" in fetch
                     else self._graph.get_operation_by_name(fetch))
        if isinstance(fetch, (SymbolicTensor, Operation, GraphVariable)):
            if fetch.graph is not self._graph:
                raise ValueError(f"Fetch argument {fetch!r} is not an element of this Session's graph. "
                                 "Create the Session with graph=the graph you built it in.")
            return fetch
        raise TypeError(f"Fetch argument {fetch!r} has invalid type {type(fetch).__name__}: fetch a Tensor, "
                        "an Operation, a Variable of this graph, or a list/tuple/dict of them.")

    def _feeds(self, feed_dict):
        feeds = []
        for tensor, value in feed_dict.items():
            if isinstance(tensor, str):
                tensor = self._graph.get_tensor_by_name(tensor)
            if not isinstance(tensor, SymbolicTensor):
                raise TypeError(f"The key of a feed_dict must be a symbolic tensor of the graph (e.g. a "
                                f"placeholder). Received: {tensor!r}")
            array = np.asarray(value.numpy() if hasattr(value, "numpy") else value,
                               dtype=tensor.dtype.as_numpy_dtype)
            if not tensor.shape.is_compatible_with(array.shape):
                raise ValueError(f"Cannot feed value of shape {array.shape} for Tensor {tensor.name}, "
                                 f"which has shape {tensor.shape}")
            feeds.append((tensor, array))
        return feeds

    def close(self):
        """Frees the session; later calls to `run` raise RuntimeError."""
        self._closed = True
        self._values = {}

    def as_default(self):
        return _DefaultSession(self)

    def __enter__(self):
        graph_context = _as_default(self._graph) if _graph_mode.building is not self._graph else None
        if graph_context is not None:
            graph_context.__enter__()
        _defaults.sessions.append(self)
        self._contexts.append(graph_context)
        return self

    def __exit__(self, *exc_info):
        _defaults.sessions.remove(self)
        graph_context = self._contexts.pop()
        if graph_context is not None:
            graph_context.__exit__(*exc_info)
        self.close()
        return False


class InteractiveSession(Session):
    """A Session that makes itself the default when created (for ``tensor.eval()`` in notebooks)."""

    def __init__(self, target="", graph=None, config=None):
        super().__init__(target, graph, config)
        _defaults.sessions.append(self)

    def close(self):
        if self in _defaults.sessions:
            _defaults.sessions.remove(self)
        super().close()


class _DefaultSession:
    def __init__(self, session):
        self._session = session

    def __enter__(self):
        _defaults.sessions.append(self._session)
        return self._session

    def __exit__(self, *exc_info):
        _defaults.sessions.remove(self._session)
        return False


class _Program:
    """The staged program of one fetch/feed signature, compiled once."""

    def __init__(self, targets, fed):
        self.targets = targets
        self.fed = fed
        _check_feeds(targets, {id(t) for t in fed})
        self.staged = None
        self.compiled = None

    def run(self, session, feed_arrays):
        if self.staged is None:
            self._stage(feed_arrays)
        for var in self.staged.variables:
            if id(var) not in session._values:
                raise FailedPreconditionError(
                    None, None,
                    f"Attempting to use uninitialized value {var._op_name}: the Variable {var.name!r} has "
                    "no value in this Session yet. Run its initializer first: "
                    "sess.run(tf.compat.v1.global_variables_initializer()) "
                    "(or sess.run(variable.initializer)).")
        outs = self.compiled(feed_arrays, [session._values[id(v)] for v in self.staged.variables])
        n_out = self.staged.n_out
        for var, value in zip(self.staged.written, outs[n_out:]):
            session._values[id(var)] = value
        return list(outs[:n_out])

    def _stage(self, feed_arrays):
        avals = [jax.ShapeDtypeStruct(a.shape, a.dtype) for a in feed_arrays]
        fed_ids = [id(t) for t in self.fed]

        def program(*arrays):
            evaluator = _Evaluator(dict(zip(fed_ids, arrays)))
            outs = []
            for target in self.targets:
                if isinstance(target, Operation):
                    evaluator.operation(target)
                elif isinstance(target, GraphVariable):
                    outs.append(evaluator.variable(target))
                else:
                    outs.append(evaluator.tensor(target))
            return outs

        with suspended():
            staged = stage(program, avals, Trace(allow_create=False, owner="Session.run"))
        self.staged = staged
        self.compiled = jax.jit(lambda feeds, values: staged.evaluate(feeds, values))


class _Evaluator:
    """Evaluates graph nodes on traced arrays inside the staged program (each node at most once)."""

    def __init__(self, fed, overrides=None, snapshot=None):
        self.fed = fed
        self.overrides = overrides or {}  # id(GraphVariable) -> value (the gradient's arguments)
        self.snapshot = {} if snapshot is None else snapshot  # id(GraphVariable) -> value first read
        self.memo = {}

    def tensor(self, tensor):
        if id(tensor) in self.fed:
            return self.fed[id(tensor)]
        return self.operation(tensor.op)[tensor.value_index]

    def input(self, ref):
        return ref.value if isinstance(ref, _Constant) else self.tensor(ref)

    def variable(self, var):
        """The value a read of ``var`` sees: the one at its first read in this run (TF computes a
        fetched loss before the update that depends on it), or its latest write if written first."""
        if id(var) in self.overrides:
            return self.overrides[id(var)]
        value = self.snapshot.get(id(var))
        if value is None:
            # while staging: the session's value, passed in as a program constant
            value = self.snapshot[id(var)] = var._value
        return value

    def current(self, var):
        """``var``'s latest value in this run (what an assign_add adds to)."""
        return var._value

    def operation(self, operation):
        outs = self.memo.get(id(operation))
        if outs is None:
            for dependency in operation._details.get("control", ()):  # control inputs run first
                self.operation(dependency)
            outs = self.memo[id(operation)] = getattr(self, "_" + operation._kind)(operation)
        return outs

    def _op(self, operation):
        details = operation._details
        out = details["op"].fn(*[self.input(r) for r in operation._inputs], **details["params"])
        return tuple(out) if isinstance(out, (tuple, list)) else (out,)

    def _const(self, operation):
        return (operation._details["value"],)

    def _placeholder(self, operation):
        raise _unfed(operation)

    def _read(self, operation):
        return (self.variable(operation._details["variable"]),)

    def _assign(self, operation):
        var, how = operation._details["variable"], operation._details["how"]
        value = self.input(operation._inputs[0])
        if how != "assign":
            current = self.current(var)
            value = current + value if how == "add" else current - value
        var._set_value(value.astype(var._abstract.dtype))
        return (value,)

    def _init(self, operation):
        var = operation._details["variable"]
        var._set_value(self.input(operation._inputs[0]).astype(var._abstract.dtype))
        return ()

    def _group(self, operation):  # its control inputs have run
        return ()

    def _minimize(self, operation):
        details = operation._details
        variables, loss, learning_rate = details["variables"], operation._inputs[0], details["learning_rate"]

        def loss_of(values):
            inner = _Evaluator(self.fed, {id(v): x for v, x in zip(variables, values)}, self.snapshot)
            return inner.tensor(loss)

        current = [self.variable(v) for v in variables]
        grads = jax.grad(loss_of)(current)
        for var, value, grad in zip(variables, current, grads):
            var._set_value((value - learning_rate * grad).astype(value.dtype))
        if details.get("global_step") is not None:
            step = details["global_step"]
            step._set_value(self.current(step) + 1)
        return ()


def _check_feeds(targets, fed):
    """Raises InvalidArgumentError for a placeholder the fetches need that is not fed."""
    seen = set()
    stack = [t.op if isinstance(t, SymbolicTensor) and id(t) not in fed else t for t in targets]
    while stack:
        node = stack.pop()
        if not isinstance(node, Operation) or id(node) in seen:
            continue
        seen.add(id(node))
        if node._kind == "placeholder":
            raise _unfed(node)
        for ref in node._inputs:
            if isinstance(ref, SymbolicTensor) and id(ref) not in fed:
                stack.append(ref.op)
        stack.extend(node._details.get("control", ()))


def _unfed(operation):
    tensor = operation._outputs[0]
    dims = tensor.shape._dims
    shape = "<unknown>" if dims is None else "[" + ",".join("?" if d is None else str(d) for d in dims) + "]"
    dtype = {"float32": "float", "float64": "double"}.get(tensor.dtype.name, tensor.dtype.name)
    return InvalidArgumentError(
        None, None,
        f"You must feed a value for placeholder tensor '{operation.name}' with dtype {dtype} and shape "
        f"{shape}: pass it in feed_dict, e.g. sess.run(fetches, feed_dict={{{tensor.name.split(':')[0]}: "
        "value}).")


def _numpy(value):
    array = np.asarray(value)
    return array[()] if array.ndim == 0 else array


def placeholder(dtype, shape=None, name=None):
    """A graph input whose value is given when the graph runs (``feed_dict``); ``None`` dimensions
    take any size.

    Example:
        >>> import companion as tf
        >>> with tf.Graph().as_default():
        ...     x = tf.compat.v1.placeholder(tf.float32, shape=[None, 3])
        >>> x
        <companion.Tensor 'Placeholder:0' shape=(None, 3) dtype=float32>
    """

    graph = _building("placeholder")
    dims = TensorShape(shape)._dims
    abstract = _Abstract(dims, _dtypes.as_dtype(dtype)._np)
    operation = graph._new_operation(name or "Placeholder", "Placeholder", "placeholder", (), [abstract])
    return operation._outputs[0]


def _building(what):
    graph = _graph_mode.building
    if graph is None or state.staging:
        raise RuntimeError(f"tf.compat.v1.{what}() is not compatible with eager execution. Call it inside "
                           "`with tf.Graph().as_default():`, or after "
                           "tf.compat.v1.disable_eager_execution().")
    return graph
