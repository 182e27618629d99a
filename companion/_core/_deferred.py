"""Deferred eager execution: eager ops recorded at the call, run together when a value is needed.

An eager op does not dispatch at once: it returns `Pending` outputs (shape and dtype known, value
not yet computed) and joins the thread's open *batch*. The first application of an op to given
input shapes and dtypes is traced to learn its output shapes (JAX keeps that trace, so nothing
is traced twice); later ones reuse what was learned. The batch runs when any value in it is
needed — ``.numpy()``, printing, a Python ``if`` on a tensor, a staged function's argument,
anything that reads ``Tensor._value`` — when a `GradientTape` starts recording (so one training
step is one batch), and when it reaches `LIMIT` ops. How it runs:
- a batch whose structure (ops, static parameters, wiring, output counts) has a compiled program
  runs as that one program: XLA fuses across the ops and one dispatch replaces one per op;
- ops that already have their own kernel for their shapes run on it, op by op, so exploratory
  code compiles nothing new; a structure run this way `REPEAT` times is compiled as one program;
- two or more ops without a kernel (code running for the first time) compile as one program
  with the ops between them, not one each: the first step of a training loop is one compile, and
  its later steps find that program; a model's initializers (random keys and bits are `Kernel`s,
  and a new Variable keeps a pending initial value) are one program.
A program returns only the outputs Python can still reach (reference counts); a later batch of
the same structure that needs more gets a program returning both sets.

What stays as it was:
- errors: the first application of an op to given input shapes and dtypes is traced at the
  call, so its shape and dtype errors come from the call site; running it later is the same
  computation on values, and pure XLA ops raise nothing at run time;
- values: every output is computed by the same op functions, and a tensor's value never changes
  once computed (a fused program may round a multiply-add once, as any compiled program does);
- order: only pure ops are deferred (staged functions with effects, host callbacks, string ops
  and ops that are not jitted run at once), and Variables keep their values as arrays or
  `Pending`s, so a read before an assignment sees the old value.

Only the main thread defers, and only in a process with one device: ops on other threads, under
a distribution strategy's scope, or on several devices run at once as before.
``COMPANION_DEFERRED=0`` turns it off (`set_enabled`).
"""

import os
import sys
import threading

import jax
import numpy as np
from jax._src import core as _jax_core  # trace_state_clean: is any JAX trace active
from jax._src.array import ArrayImpl  # the class of concrete arrays, for exact-type checks

from companion import _compiled_programs
from companion._core._context import state

LIMIT = 512  # ops in one batch before it runs on its own
REPEAT = 8  # runs of a batch structure op by op before it is compiled as one program (a short
# loop never pays the compile; a training loop of hundreds of steps gains from its ninth)

_ARRAY = ArrayImpl  # a concrete array (named here without creating one: no backend starts at import)


class Pending:
    """One output of a deferred op: ``shape``/``dtype`` now, the array after its batch runs."""

    __slots__ = ("node", "index", "shape", "dtype", "weak_type", "value")

    def __init__(self, node, index, aval):
        self.node = node
        self.index = index
        self.shape, self.dtype, self.weak_type = aval
        self.value = None

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        size = 1
        for d in self.shape:
            size *= d
        return size

    def force(self):
        """The array, running this output's batch first if it has not run."""
        if self.value is None:
            node = self.node
            batch = node.batch
            if batch is not None:
                batch.run()
            if self.value is None:
                if batch is not None and batch.error is not None:  # the batch failed: its error again
                    raise batch.error
                out = _apply(node)  # left out of the program as unreachable, yet asked for
                self.value = out if node.single else out[self.index]
        return self.value

    def __array__(self, dtype=None, copy=None):  # raw reads of an array (np.asarray(v._v))
        array = np.asarray(self.force())
        return array if dtype is None else array.astype(dtype)

    def __jax_array__(self):
        return self.force()

    def __deepcopy__(self, memo):  # a copied or pickled Variable holds the array, not the batch
        return self.force()

    def __reduce__(self):
        return self.force().__reduce__()

    def __repr__(self):
        state = "pending" if self.value is None else "computed"
        return f"<Pending {self.dtype}{list(self.shape)} {state}>"


class _Node:
    __slots__ = ("op", "params", "inputs", "outputs", "single", "batch", "key")

    def __init__(self, op, params, inputs, batch, key=None):
        self.op = op
        self.params = params  # a tuple of (name, value) pairs
        self.inputs = inputs
        self.batch = batch
        self.outputs = ()
        self.single = True
        self.key = key  # its `_AVALS` key while the op has no kernel of its own for these avals


class _Batch:
    __slots__ = ("nodes", "lock", "done", "error")

    def __init__(self):
        self.nodes = []
        self.lock = threading.RLock()
        self.done = False
        self.error = None

    def run(self):
        with self.lock:
            if self.done:
                return
            self.done = True
            if _local.batch is self:
                _local.batch = None
            try:
                if _jax_core.trace_state_clean():
                    _compiled_programs.at_safe_point()
                    _execute(self.nodes)
                else:  # read inside a JAX trace: computed now all the same, never staged into it
                    with jax.ensure_compile_time_eval():
                        _execute(self.nodes)
            except BaseException as error:
                self.error = error
                raise
            finally:
                # computed values stay on the outputs and the graph goes, so no reference cycle
                # (output -> node -> output) is left for the garbage collector; an output left
                # uncomputed keeps its node and the node its inputs
                for node in self.nodes:
                    kept = False
                    for out in node.outputs:
                        if out.value is None:
                            kept = True
                        else:
                            out.node = None
                    if not kept:
                        node.inputs = ()
                    node.outputs = ()
                    node.batch = None if self.error is None else self
                self.nodes = []


class _Local(threading.local):
    batch = None


_local = _Local()
_main = threading.main_thread().ident
_enabled = None  # decided on the first op: on unless switched off or several devices exist
_AVALS = {}  # (op, params, input avals) -> (single, output avals, has its own kernel), or False
_SEEN = {}  # batch structure -> times run
_PROGRAMS = {}  # batch structure -> [(outputs kept, jitted program)], the newest first
_CACHE_LIMIT = 4096


def _forget_programs():
    """Drops the batch programs and marks every op's kernel as not compiled (JAX's compiled
    programs are being dropped with them: `_compiled_programs`)."""
    _PROGRAMS.clear()
    for key, spec in _AVALS.items():
        if spec:
            _AVALS[key] = (spec[0], spec[1], False)


_compiled_programs.on_release(_forget_programs)


def set_enabled(enabled):
    """Turns deferral on or off for the process (pending values run first when turned off)."""
    global _enabled
    if not enabled:
        flush()
    _enabled = bool(enabled) and _single_device()


def enabled():
    global _enabled
    if _enabled is None:
        _enabled = os.environ.get("COMPANION_DEFERRED", "1") != "0" and _single_device()
    return _enabled


def _single_device():
    try:
        return jax.device_count() == 1
    except RuntimeError:
        return False


def flush():
    """Runs this thread's open batch now (a no-op when nothing is pending)."""
    batch = _local.batch
    if batch is not None:
        batch.run()


def resolve(value):
    """``value`` as an array: a `Pending` runs its batch; anything else comes back as is."""
    return value.force() if value.__class__ is Pending else value


def run(op, values, params):
    """Applies ``op`` to raw input ``values`` (arrays or `Pending`s) eagerly or deferred.

    Returns the output (an array, a `Pending`, or a tuple of them), or None when the
    application cannot be deferred here (the caller then runs it as before).
    """
    if state.strategies or threading.get_ident() != _main or not (_enabled or enabled()):
        return None
    avals = []
    for v in values:
        if v.__class__ is not _ARRAY and v.__class__ is not Pending:
            return None  # a tracer, a host (string) array, a value on several devices
        avals.append((v.shape, v.dtype, v.weak_type))
    try:
        key = (op, tuple(params.items()), tuple(avals))
        spec = _AVALS.get(key)
    except TypeError:  # an unhashable parameter: not cacheable, run at once
        return None
    if spec is None:  # first time with these shapes: traced now (errors surface here), not run
        spec = _trace(op, values, params, key)
        if spec is None:
            return None
    elif spec is False:  # outputs not a flat tuple of arrays
        return None
    batch = _local.batch
    if batch is None or batch.done:
        batch = _local.batch = _Batch()
    node = _Node(op, key[1], tuple(values), batch, None if spec[2] else key)
    single, out_avals, _ = spec
    node.single = single
    outputs = node.outputs = tuple(Pending(node, i, a) for i, a in enumerate(out_avals))
    with batch.lock:
        if batch.done:  # another thread ran it meanwhile: start a fresh one
            batch = _local.batch = _Batch()
            node.batch = batch
        batch.nodes.append(node)
    if len(batch.nodes) >= LIMIT:
        batch.run()
    return outputs[0] if single else outputs


class Kernel:
    """A jitted function on raw arrays that eager code calls like an op and that waits in the batch
    like one (random keys and bits: a model's initializers then compile as one program, not one
    kernel each). No tape records it and it returns raw values (arrays or `Pending`s); callers use
    it outside staging only."""

    __slots__ = ("_eager", "name")

    def __init__(self, fn, name, static_argnames=()):
        self._eager = jax.jit(fn, static_argnames=static_argnames)
        self.name = name

    def __call__(self, *values, **params):
        out = run(self, values, params)
        if out is None:  # not deferred here (another thread, a strategy's scope): run now
            return self._eager(*[resolve(v) for v in values], **params)
        return out

    def __repr__(self):
        return f"<Kernel {self.name}>"


def _execute(nodes):
    """Runs a batch: as one program when its structure has one or has run `REPEAT` times, else in
    segments (`_run_in_segments`)."""
    if _run_compiled(nodes, False):
        return
    _run_in_segments(nodes)


def _run_compiled(nodes, compile_now):
    """Runs ``nodes`` as one jitted program if one exists for their structure (or ``compile_now``,
    or the structure has run op by op `REPEAT` times: then it is compiled). Returns whether it ran."""
    # described in a function of its own, so no loop variable left here refers to an output
    # when the references are counted below
    leaves, structure, uses = _describe(nodes)
    programs = _PROGRAMS.get(structure)
    if programs is None and not compile_now and _count_run(structure):
        return False  # no program, none due yet: the references need no counting
    # outputs Python can still reach (held by a Tensor, a Variable, a frame, a later op of the
    # batch): the rest are intermediates only these ops read, which XLA may fuse away
    live = tuple(count - _UNREACHABLE > uses.get(key, 0) for count, key in _reference_counts(nodes))
    if programs is not None:
        for kept, program in programs:  # a program keeping these outputs, and maybe more
            if all(k or not wanted for k, wanted in zip(kept, live)):
                _store(nodes, program(*leaves), kept)
                return True
        if not compile_now and _count_run(structure):
            return False
    if programs is None:
        if len(_PROGRAMS) >= _CACHE_LIMIT:
            _PROGRAMS.clear()
        programs = _PROGRAMS[structure] = []
    else:  # kept outputs differ from every program's: one keeping both, so variants stay few
        for kept, _ in programs:
            live = tuple(a or b for a, b in zip(live, kept))
    program = jax.jit(_program(structure, live))
    values = program(*leaves)
    programs.insert(0, (live, program))  # kept once it has compiled and run
    _store(nodes, values, live)
    return True


def _count_run(structure):
    """Counts one more op-by-op run of ``structure``; True while it has run fewer than `REPEAT` times."""
    seen = _SEEN.get(structure, 0)
    if seen >= REPEAT:
        return False
    if len(_SEEN) >= _CACHE_LIMIT:
        _SEEN.clear()
    _SEEN[structure] = seen + 1
    return True


def _run_in_segments(nodes):
    """Runs ``nodes`` in order, op by op on the kernels ops have for their avals, except that the
    span from the first to the last of two or more ops without one is compiled as one program
    (one compile, not one per op or per run of new ops; the same span in a later batch finds it).
    A lone op without a kernel runs on its own, compiling its kernel."""
    new = [i for i, node in enumerate(nodes) if node.key is not None]
    if len(new) > 1:
        first, last = new[0], new[-1] + 1
        _run_op_by_op(nodes[:first])
        try:
            _run_compiled(nodes[first:last], True)
        except Exception:  # an op that traced but cannot compile or run: op by op, so the error
            _run_op_by_op(nodes[first:last])  # raised is that op's own and the ops before it
        _run_op_by_op(nodes[last:])  # have their values (a program stores nothing until it ran)
    else:
        _run_op_by_op(nodes)


def _run_op_by_op(nodes):
    for node in nodes:
        _run_node(node)
        if node.key is not None:  # its kernel exists now
            spec = _AVALS.get(node.key)
            if spec is not None:
                _AVALS[node.key] = (spec[0], spec[1], True)


def _store(nodes, values, live):
    """Gives the outputs of ``nodes`` marked in ``live`` the program's ``values``, in order."""
    values = iter(values)
    wanted = iter(live)
    for node in nodes:
        for out in node.outputs:
            if next(wanted):
                out.value = next(values)


def _trace(op, values, params, key):
    """The output avals of an application not seen before, from tracing it (nothing is compiled
    or run; the trace is JAX's cached one, so the op's kernel or a program calling it reuses it).
    Returns ``(single, avals, False)``, also kept in `_AVALS`, or None when its outputs are not a
    flat tuple of arrays (it then runs at once, as an op that cannot be deferred)."""
    specs = [jax.ShapeDtypeStruct(v.shape, v.dtype, weak_type=v.weak_type) for v in values]
    traced = op._eager.trace(*specs, **params)
    out = traced.out_info
    single = not isinstance(out, (tuple, list))
    if not single and any(isinstance(o, (tuple, list, dict)) for o in out):
        spec = False
    else:
        spec = (single, tuple((a.shape, a.dtype, a.weak_type) for a in traced.jaxpr.out_avals), False)
    if len(_AVALS) >= _CACHE_LIMIT:
        _AVALS.clear()
    _AVALS[key] = spec
    return spec or None


def _describe(nodes):
    """The batch's leaves (concrete inputs), its hashable structure and each output's uses in it."""
    leaves, leaf_index, structure, where, uses = [], {}, [], {}, {}
    for pos, node in enumerate(nodes):
        refs = []
        for v in node.inputs:
            if v.__class__ is Pending:
                found = where.get(id(v)) if v.value is None else None
                if found is not None:
                    refs.append(found)
                    uses[id(v)] = uses.get(id(v), 0) + 1
                    continue
                v = v.force()  # computed already, or pending in another thread's batch
            k = leaf_index.get(id(v))
            if k is None:
                k = leaf_index[id(v)] = len(leaves)
                leaves.append(v)
            refs.append(-k - 1)
        structure.append((node.op, node.params, tuple(refs), 0 if node.single else len(node.outputs)))
        for i, out in enumerate(node.outputs):
            where[id(out)] = (pos, i)
    return leaves, tuple(structure), uses


def _apply(node):
    return node.op._eager(*[resolve(v) for v in node.inputs], **dict(node.params))


def _run_node(node):
    out = _apply(node)
    if node.single:
        node.outputs[0].value = out
    else:
        for target, value in zip(node.outputs, out):
            target.value = value


def _reference_counts(nodes):
    """(references to each output, its id), in batch order."""
    return [(sys.getrefcount(out), id(out)) for node in nodes for out in node.outputs]


def _unreachable_count():
    """What `_reference_counts` reports for an output nothing else refers to."""
    node = _Node(None, (), (), None)
    node.outputs = (Pending(node, 0, ((), None, False)),)
    return _reference_counts([node])[0][0]


_UNREACHABLE = _unreachable_count()


def _program(structure, live):
    def program(*leaves):
        env = []
        for op, params, refs, n_out in structure:  # n_out: 0 for a single output, else how many
            args = [leaves[-r - 1] if r.__class__ is int else env[r[0]][r[1]] for r in refs]
            out = op._eager(*args, **dict(params))  # nested jit: reuses the op's cached trace
            env.append(tuple(out) if n_out else (out,))
        values = [value for outs in env for value in outs]
        return [value for value, wanted in zip(values, live) if wanted]

    return program
