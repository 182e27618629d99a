"""Staging: the one way companion turns Python code into a program, and its Variable bookkeeping.

`stage` runs a Python callable once on abstract arrays under ``jax.make_jaxpr`` and returns a
`Staged` program. Every staging user goes through it: `companion.function`'s concrete
functions, `Strategy.run`'s replica programs (with the replica axis bound), AutoGraph's
blocks (a branch or loop body staged inside an enclosing trace), `Dataset.map` functions and
Keras' symbolic layer calls.

While `companion.function` traces Python code (``state.staging > 0``), a Variable read
returns a traced alias of its value instead of the concrete array. The alias is a fresh
copy made once per trace, so after tracing, the copy's position among the traced
program's constants says which Variable it stands for; each call then passes the
Variables' current values in those positions. Writes replace the Variable's value by a
tracer; the trace returns the final values as extra outputs and restores the originals,
and the caller writes the outputs back after each call.
"""

import contextlib

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax._src import core as _jax_core  # trace_state_clean: is any JAX trace active

from companion._core import _deferred, _out_of_scope
from companion._core._context import state
from companion._core._convert import to_device
from companion._core._errors import (
    InvalidArgumentError,
    InvalidArgumentTypeError,
    TracedShapeError,
    TracedUnsupportedDtypeError,
)
from companion._core._tensor import Tensor
from companion._core._tensor_spec import TensorSpec


class Staged:
    """A staged program: ``closed`` (a closed jaxpr) and what its trace did to Variables.

    The program's outputs are the callable's flat outputs (``n_out`` of them) followed by the
    final values of ``written`` Variables. Among its constants, those in ``variable_slots``
    stand for the Variables ``variables`` (pass their current values when evaluating) and
    those in ``feed_slots`` for dataset arrays refilled per call; the rest are constants.
    """

    def __init__(self, closed, trace, written, n_out):
        self.closed = closed
        self.trace = trace
        self.written = written
        self.n_out = n_out
        owners = [trace.variable_for(c) for c in closed.consts]
        self.owners = owners
        self.variable_slots = [i for i, v in enumerate(owners) if v is not None]
        self.variables = [owners[i] for i in self.variable_slots]
        feeds = [trace.feed_owner.get(id(c)) for c in closed.consts]
        self.feed_slots = [(i, f) for i, f in enumerate(feeds) if f is not None]
        self._consts = [None if v is not None or f is not None else c
                        for c, v, f in zip(closed.consts, owners, feeds)]

    @property
    def out_avals(self):
        return self.closed.out_avals

    def evaluate(self, args, variable_values=(), feed_values=(), jaxpr=None):
        """Runs the program (traceable): ``args`` in order, the Variables' and feeds' values."""
        consts = list(self._consts)
        for slot, value in zip(self.variable_slots, variable_values):
            consts[slot] = value
        for (slot, _), value in zip(self.feed_slots, feed_values):
            consts[slot] = value
        return jax.core.eval_jaxpr(jaxpr or self.closed.jaxpr, consts, *args)


def stage(fn, avals, trace, axis_env=()):
    """Runs ``fn(*arrays)`` exactly once as staged code recorded by ``trace``; a `Staged`.

    ``fn`` receives traced arrays shaped like ``avals`` and returns a flat list of arrays.
    Variables it reads become program constants (`Staged.variables`), Variables it writes
    become extra outputs and are restored afterwards, so no traced value outlives the trace.
    ``axis_env`` binds named axes (``[("replica", 4)]``) so collectives can be traced.

    With ``trace`` already the innermost active trace, the block is staged *inside* it (an
    AutoGraph branch or loop body): writes are judged against the values the enclosing trace
    had, and the enclosing trace's records are left as they were.
    """
    nested = current() is trace
    if not nested:  # deferred eager values are computed before tracing starts (none leak into it)
        _deferred.flush()
    # a function traced while another traces (a nested `function`'s own graph): the Variables the
    # outer trace wrote hold its tracers, which must not leak in; the inner trace reads stand-ins
    hidden = {} if nested else _hide_outer_writes(trace)
    before = {key: var._v for key, (var, _) in trace.originals.items()}
    info = {}

    def traced(*arrays):
        if not nested:
            jax_traces.append(_jax_core.trace_ctx.trace)
        with contextlib.nullcontext() if nested else staging(trace):
            outs = list(fn(*arrays))
            written = [var for key, (var, _) in trace.originals.items()
                       if key not in before or var._v is not before[key]]
            # a program run on its own keeps a mirrored Variable's placement; under shard_map
            # (a replica program, axis_env given) the out_specs place the outputs
            finals = [var._v if nested or axis_env else var._staged_output(var._v) for var in written]
        info.update(written=written, n_out=len(outs))
        return outs + finals

    jax_traces = []
    try:
        closed = jax.make_jaxpr(traced, axis_env=list(axis_env))(*avals)
    except InvalidArgumentError as error:
        # shapes and dtypes are static while tracing: TF's shape inference raises ValueError and its
        # op definitions TypeError where the eager op raises InvalidArgumentError; errors of other
        # classes (TF's class for a trace already, or a check of values) are left as they are
        traced_class = _TRACED_CLASSES.get(type(error))
        if traced_class is None:
            raise
        traced = traced_class(*error.args).with_traceback(error.__traceback__)
        for note in getattr(error, "__notes__", ()):
            traced.add_note(note)
        metadata = getattr(error, "ag_error_metadata", None)
        if metadata is not None:  # the user's frames, recorded as it was raised (TF's "in user code:")
            metadata.cause_message = f"{traced_class.__name__}: {error}"
            traced.ag_error_metadata = metadata
        raise traced from None
    finally:
        for ended in jax_traces:  # a tensor kept from it is out of scope from now on (TF's TypeError)
            _out_of_scope.function_ended(ended)
        _put_back(trace, before)
        for var, value in hidden.values():
            var._v, var._read_cache = value, None
    return Staged(closed, trace, info["written"], info["n_out"])


_TRACED_CLASSES = {InvalidArgumentError: TracedShapeError,
                   InvalidArgumentTypeError: TracedUnsupportedDtypeError}


def _hide_outer_writes(trace):
    """Gives each Variable an enclosing trace wrote a concrete stand-in of its type (zeros: only
    the type matters to a trace); returns ``{id: (variable, the tracer it held)}`` to put back."""
    hidden = {}
    for outer in state.traces:
        if outer is trace:
            continue
        for var, _ in outer.originals.values():
            if isinstance(var._v, jax.core.Tracer) and id(var) not in hidden:
                hidden[id(var)] = (var, var._v)
                var._v, var._read_cache = np.zeros(var._v.shape, var._v.dtype), None
    return hidden


def _put_back(trace, before):
    """Restores every Variable written since ``before`` and forgets writes made after it."""
    for key, (var, previous) in list(trace.originals.items()):
        var._v = before.get(key, previous)
        var._read_cache = None
        if key not in before:
            del trace.originals[key]


class Trace:
    """What one staged trace did to Variables (reads by alias, writes, creations)."""

    def __init__(self, allow_create, owner, first_call=False):
        self.allow_create = allow_create
        self.owner = owner
        self.first_call = first_call  # the first call's second trace, which checks Variable reuse
        self.aliases = {}  # id(var) -> the concrete copy standing for the variable
        self.alias_owner = {}  # id(copy) -> var
        self.originals = {}  # id(var) -> (var, value before this trace first wrote it)
        self.created = []
        self.feed_owner = {}  # id(copy) -> (Feed, index): arrays refilled from a dataset per call
        # id(dataset) -> (dataset, layout) of the datasets read while tracing: a dataset looped
        # over again (each epoch of an unrolled Python loop, the first call's second trace) is
        # not read again, since only its layout matters until a call refills the feeds
        self.dataset_layouts = {}
        # a `function`'s trace counts its unseeded random ops (TF's graph-level op seeds: 0, 1, ...);
        # None for other traces (dataset functions, strategy.run, Keras's symbolic calls)
        self.random_ops = None
        # a `function`'s trace names its tensors as TF's graph does (`companion._core._tensor_names`)
        # while it runs; None for other traces
        self.tensor_names = None

    def read(self, variable, concrete):
        """A traced stand-in for ``variable``'s concrete value; a concrete value this trace wrote
        (``v.assign(10.0)``) is read as itself, a constant of the program."""
        if id(variable) in self.originals:
            return concrete
        alias = self.aliases.get(id(variable))
        if alias is None:
            alias = _stand_in(concrete)
            self.aliases[id(variable)] = alias
            self.alias_owner[id(alias)] = variable
        return lax.optimization_barrier(alias)

    def feed(self, feed, index, concrete):
        """A traced stand-in for array ``index`` of a dataset `Feed`, refilled on every call."""
        alias = _stand_in(concrete)
        self.feed_owner[id(alias)] = (feed, index)
        self.aliases[("feed", id(alias))] = alias  # keeps the copy alive until the trace ends
        return lax.optimization_barrier(alias)

    def wrote(self, variable, previous):
        """Remembers ``variable``'s value before its first write in this trace."""
        if id(variable) not in self.originals:
            self.originals[id(variable)] = (variable, previous)

    def written(self):
        """Variables written during the trace, in first-write order."""
        return [var for var, _ in self.originals.values()]

    def restore(self):
        """Puts back every value a write replaced during the trace (tracers must not leak)."""
        for var, previous in self.originals.values():
            var._v = previous
            var._read_cache = None

    def created_user_variables(self):
        """True if the trace created Variables other than companion's random-number state."""
        return any(not var._is_rng_state for var in self.created)

    def variable_for(self, constant):
        """The Variable a traced program's constant stands for, or None."""
        return self.alias_owner.get(id(constant))


def _stand_in(concrete):
    """A fresh concrete copy of ``concrete`` on one device: a program constant that stands for it.

    Its value is replaced on every call, so only its shape and dtype matter; a copy of a
    Variable mirrored over a mesh is made unsharded, so the staged program's types carry no
    mesh and it can run under ``shard_map`` as well as on its own.
    """
    with jax.ensure_compile_time_eval():
        if isinstance(getattr(concrete, "sharding", None), jax.sharding.NamedSharding):
            # (a device copy would keep the mesh in its type; jnp.asarray of a NumPy array would
            # compile a copy program per shape when it runs inside a nested staging)
            return jax.device_put(np.asarray(concrete), jax.devices()[0])
        if isinstance(concrete, jax.Array):  # a runtime copy: no program to compile per shape
            return jax.device_put(concrete, may_alias=False)
        if isinstance(concrete, np.ndarray):  # a dataset's batches: a transfer, no program per shape
            return to_device(concrete)
        return jnp.array(concrete, copy=True)


def leaf_key(x):
    """One argument's part of a call signature, the cache key of every staged program:
    shape and dtype of a tensor, identity of a Variable or unhashable object, value of a
    hashable Python value (and of a string tensor).

    Python values compare as TensorFlow compares them, by ``==`` and hash: ``1``, ``1.0`` and
    ``True`` are one signature. A spec's shape may hold ``None`` (unknown size), or be ``None``
    itself (unknown rank); a spec's name is part of its key."""
    if getattr(x, "_is_variable", False):
        return ("variable", id(x), x._v.shape, x._v.dtype)
    if isinstance(x, TensorSpec):  # a named spec names its graph's input: a trace of its own (TF)
        key = ("tensor", x.shape._dims, x.dtype._np)
        return key + (x.name,) if x.name else key
    if is_traced_leaf(x):
        value = x._value if isinstance(x, Tensor) else x
        return ("tensor", value.shape, value.dtype)
    if isinstance(x, (Tensor, np.ndarray)):  # strings are part of the signature, by value
        array = np.asarray(x._value if isinstance(x, Tensor) else x)
        return ("string", tuple(array.ravel().tolist()), array.shape)
    try:
        hash(x)
    except TypeError:
        return ("object", id(x))
    return ("python", x)


def is_traced_leaf(x):
    """True for arguments that become traced inputs: non-string tensors, arrays, NumPy scalars (a
    tensor of their dtype in TF, not a Python value) and specs."""
    if isinstance(x, TensorSpec):
        return True
    if isinstance(x, Tensor):
        return x._value.__class__ is not np.ndarray
    return isinstance(x, (np.ndarray, np.generic)) and x.dtype.kind in "biufc"


def current():
    """The innermost active Trace, or None when executing eagerly."""
    return state.traces[-1] if state.traces else None


@contextlib.contextmanager
def staging(trace):
    """Runs a block as staged code recorded by ``trace``."""
    outer_tapes, state.tapes = state.tapes, []  # the call is recorded as one op, not its insides
    state.traces.append(trace)
    state.staging += 1
    try:
        yield trace
    finally:
        state.staging -= 1
        state.traces.pop()
        state.tapes = outer_tapes


@contextlib.contextmanager
def eager_scope(detached=False):
    """Runs a block eagerly even inside a trace (TF's ``init_scope``): for initializers.

    ``detached=True`` for a block that never touches the enclosing trace's values (a pass over a
    dataset looped over in a function): it runs as outside any trace, so a jitted call takes
    JAX's fast dispatch path (about 10 µs) instead of the traced one (about 200 µs).
    """
    saved = state.traces, state.staging, state.tapes
    state.traces, state.staging, state.tapes = [], 0, []
    try:
        if saved[1] or not _jax_core.trace_state_clean():
            with _jax_core.eval_context() if detached else jax.ensure_compile_time_eval():
                yield
        else:  # nothing is tracing: plain eager, where ensure_compile_time_eval would only
            yield  # key every eager op's compiled program apart from the same op outside
    finally:
        state.traces, state.staging, state.tapes = saved
