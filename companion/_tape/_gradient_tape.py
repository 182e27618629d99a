"""`GradientTape`: the recording interpreter. Ops append records; `gradient` replays them."""

import contextlib
import enum
import math
import sys

import jax

from companion._core import _deferred, _nest
from companion._core._context import state
from companion._core._convert import as_input, constant
from companion._core._dtypes import as_dtype
from companion._core._errors import (
    GradientSourceAttributeError,
    GradientSourceTypeError,
    InvalidArgumentError,
)
from companion._core._indexed_slices import IndexedSlices
from companion._core._tensor import Tensor
from companion._html import table
from companion._logger import get_logger
from companion._ops._array import broadcast_to, concat, reshape
from companion._ops._creation import ones_like, zeros
from companion._ops._math import add_n, cast
from companion._tape import _replay


class UnconnectedGradients(enum.Enum):
    """What `GradientTape.gradient` returns for a source the target does not depend on."""

    NONE = "none"
    ZERO = "zero"


class GradientTape:
    """Records the operations run inside its ``with`` block, to differentiate them later.

    Trainable Variables read inside the block are watched automatically; tensors must be
    watched with `watch`. A non-persistent tape answers one `gradient` call, a persistent
    one any number. Tapes nest: a `gradient` call made while an outer tape records is
    itself recorded, which gives second and higher derivatives.

    Example:
        >>> import companion as tf
        >>> x = tf.Variable(3.0)
        >>> with tf.GradientTape() as tape:
        ...     y = x * x
        >>> float(tape.gradient(y, x))
        6.0
    """

    def __init__(self, persistent=False, watch_accessed_variables=True):
        self._persistent = bool(persistent)
        self._watch_accessed = bool(watch_accessed_variables)
        self._recording = False
        self._used = False
        self._entered = False  # TF's tape exists from the first `with` on
        self.reset()

    # -- the recording interpreter ----------------------------------------------------------
    def __enter__(self):
        if self._recording:
            raise RuntimeError("This GradientTape is already recording. Enter it once at a time.")
        if not state.staging:  # a new training step: the last one's deferred ops run as one batch
            _deferred.flush()
        self._push()
        return self

    def __exit__(self, *exc_info):
        self._pop()

    def _push(self):
        state.tapes.append(self)
        self._recording = True
        self._entered = True

    def _pop(self):
        if self in state.tapes:
            state.tapes.remove(self)
        self._recording = False

    def _record(self, op, params, inputs, outputs, reads=None):
        """Called by every op while this tape records; keeps ops with a watched input.

        ``reads``: a dict the tapes recording one application share, so that they all see one
        read per Variable (a read while tracing is a new tensor each time)."""
        tracked = self._tracked
        hit = False
        resolved = None
        for i, x in enumerate(inputs):
            if x._is_variable:
                if reads is None:
                    read = x._read()
                else:
                    read = reads.get(id(x))
                    if read is None:
                        read = reads[id(x)] = x._read()
                if resolved is None:
                    resolved = list(inputs)
                resolved[i] = read
                hit = self._note_read(x, read) or hit
            elif id(x) in tracked:
                hit = True
        if hit and op.differentiable:
            inputs = tuple(resolved) if resolved else inputs
            connected = outputs
            if op.output_deps is not None:  # a gradient replay: each output only from what it uses
                connected = _connected_outputs(op.output_deps, inputs, outputs, tracked)
                if not connected:
                    return
            for o in connected:
                tracked[id(o)] = o
            self._records.append((op, params, inputs, outputs))
            if op.differentiable is not True:  # names a TF op with no registered gradient
                self._unregistered = True

    def _note_read(self, variable, read):
        """Called when ``variable`` is read as ``read``; True if the read is watched."""
        key = id(variable)
        if key not in self._watched:
            if variable._unread_of is not None:  # what assign returned: the Variable it stands for
                return self._note_read(variable._unread_of, read)
            if not (self._watch_accessed and variable.trainable):
                return False
            self._watched[key] = variable
        self._tracked[id(read)] = read
        self._reads.setdefault(key, {})[id(read)] = read
        return True

    # -- public API ---------------------------------------------------------------------
    def watch(self, tensor):
        """Watches a Tensor or Variable (or a nested structure of them) on this tape."""
        for item in _flatten(tensor):
            if getattr(item, "_is_variable", False):
                self._check_entered()
                item = _origin(item)
                self._watched[id(item)] = item
            elif isinstance(item, Tensor):
                dtype = item.dtype
                if not (dtype.is_floating or dtype.is_complex):  # TF's warning: its gradient is None
                    get_logger().warning("The dtype of the watched tensor must be floating "
                                         "(e.g. tf.float32), got tf.%s", dtype.name)
                self._check_entered()
                self._tracked[id(item)] = item
                self._watched_tensors[id(item)] = item
            else:
                raise ValueError(f"Passed in object {item!r} of type '{type(item).__name__}', not "
                                 "tf.Tensor or tf.Variable or ExtensionType.\nGradientTape.watch takes "
                                 "Tensors or Variables: convert a value with companion.constant.")

    def _check_entered(self):
        if not self._entered or self._used:  # TF's: no tape before the `with`, nor after a non-persistent
            # one answered
            raise AttributeError("'NoneType' object has no attribute '_tape'\nWatch inside the tape's "
                                 "block: with tf.GradientTape() as tape: tape.watch(x).")

    def watched_variables(self):
        """The Variables watched so far, in the order they were first watched."""
        return tuple(self._watched.values())

    @contextlib.contextmanager
    def stop_recording(self):
        """A block in which this tape records nothing (e.g. metrics inside a training step)."""
        if not self._entered or self._used:
            raise RuntimeError("Trying to stop recording a tape which is not recording.\nA tape records "
                               "from its `with` block on, and a non-persistent one stops at its gradient.")
        if not self._recording:
            raise ValueError("Tape is not recording.\nstop_recording() can only be used while the tape "
                             "records (inside its block, not within another stop_recording()).")
        self._pop()
        try:
            yield
        finally:
            self._push()

    def reset(self):
        """Forgets everything recorded so far, as if the tape were new."""
        self._records = []
        self._unregistered = False
        self._tracked = {}
        self._watched = {}
        self._watched_tensors = {}
        self._reads = {}

    def gradient(self, target, sources, output_gradients=None,
                 unconnected_gradients=UnconnectedGradients.NONE):
        """Computes the gradient of ``target`` with respect to ``sources``.

        Args:
            target: a Tensor or Variable, or a nested structure of them; several targets,
                or a non-scalar one, are summed.
            sources: a Tensor or Variable, or any nested list/tuple/dict of them.
            output_gradients: gradients to start from, one per target (default: ones).
            unconnected_gradients: ``"none"`` (default) or ``"zero"``: what to return for a
                source the target does not depend on.

        Returns:
            Gradients in the structure of ``sources``; ``None`` for sources that are not
            watched, not connected, or of integer dtype (unless ``"zero"`` was asked for).

        Raises:
            RuntimeError: a non-persistent tape was asked a second time.
        """
        return self._differentiate(target, sources, output_gradients, unconnected_gradients, "vjp")

    def jacobian(self, target, sources, unconnected_gradients=UnconnectedGradients.NONE,
                 parallel_iterations=None, experimental_use_pfor=True):
        """The Jacobian of ``target``: for each source, shape ``target.shape + source.shape``."""
        _single_tensor(target)
        return self._differentiate(target, sources, None, unconnected_gradients, "jacobian")

    def batch_jacobian(self, target, source, unconnected_gradients=UnconnectedGradients.NONE,
                       parallel_iterations=None, experimental_use_pfor=True):
        """Per-example Jacobian: ``target[i]`` by ``source[i]``, shape ``(b,) + t[1:] + s[1:]``.

        Assumes, as TensorFlow does, that example ``i`` of the target depends only on
        example ``i`` of the source. As in TF, an unconnected (or integer) source gets zeros
        of the target's dtype whatever ``unconnected_gradients`` says.
        """
        target_shape, source_shape = _single_tensor(target).shape, _single_tensor(source).shape
        if target_shape.rank == 0:
            raise IndexError("list index out of range")  # TF reads the scalar target's first dimension
        for shape in (target_shape, source_shape):
            if shape.rank is not None and shape.rank < 2:
                raise ValueError(f"Shape {shape} must have rank at least 2")
        if not target_shape[:1].is_compatible_with(source_shape[:1]):
            raise ValueError(f"Need first dimension of target shape ({target_shape}) and source shape "
                             f"({source_shape}) to match.")
        found = self._differentiate(target, source, None, unconnected_gradients, "batch_jacobian")
        if found is None:
            found = zeros(list(target_shape) + list(source_shape[1:]), dtype=_as_tensor(target).dtype)
        return found

    # -- the replay ---------------------------------------------------------------------
    def _differentiate(self, target, sources, output_gradients, unconnected, mode):
        self._check_usable()
        if self._recording and self._persistent:
            _warn_inside_context(mode)
        policy = _POLICIES.get(unconnected) if isinstance(unconnected, (str, UnconnectedGradients)) else None
        if policy is None:
            policy = _POLICIES.get(getattr(unconnected, "value", unconnected))
        if policy is None:
            raise ValueError(f"Unknown value for unconnected_gradients: {unconnected!r}")
        flat_sources, treedef = _flat_sources(sources)
        given = _flatten_targets(target)
        targets = [_target_tensor(t, self) for t in given]
        if mode != "vjp" and len(targets) != 1:
            raise ValueError(f"{mode} takes a single target tensor. Received {len(targets)} targets.")
        cotangents = self._cotangents(output_gradients, target, targets)
        grads = self._grads_for(flat_sources, targets, cotangents, mode)
        if mode == "vjp":
            grads = _sources_as_targets(grads, flat_sources, given, targets, cotangents)
        if not self._persistent:
            self._used = True
            self._records, self._tracked, self._reads = [], {}, {}
            self._unregistered = False
        if policy is UnconnectedGradients.ZERO:
            grads = [_fill_unconnected(g, s, mode, targets) for g, s in zip(grads, flat_sources)]
        if type(treedef) is type:
            return treedef(grads)
        return _nest.in_dict_orders(jax.tree_util.tree_unflatten(treedef, grads), _nest.dict_orders(sources))

    def _check_usable(self):
        if self._used or not self._entered:
            # TF's text exactly: programs print it
            raise RuntimeError("A non-persistent GradientTape can only be used to compute one set of "
                               "gradients (or jacobians)")

    def _cotangents(self, output_gradients, target, targets):
        """One output gradient per flat target, as TF pairs them: ``output_gradients`` flattened
        to its leaves (a list of numbers is several scalars, not one vector), matched by position,
        ones for the targets past its end and extra entries ignored."""
        if output_gradients is None:
            return []
        given = _flatten(output_gradients)
        if any(g is None for g in given):
            raise ValueError("Attempt to convert a value (None) with an unsupported type "
                             "(<class 'NoneType'>) to a Tensor.")
        cots = [_fit_cotangent(as_input(g, t.dtype), t) for g, t in zip(given, targets)]
        return cots + [ones_like(t) for t in targets[len(cots):]]

    def _grads_for(self, flat_sources, targets, cotangents, mode):
        """One gradient (or None) per flat source; a Variable's reads are summed."""
        if self._unregistered:
            _replay.check_registered(self._records, targets)
        float_targets = [(t, c) for t, c in _zip_longest(targets, cotangents) if _is_float(t)]
        groups = [self._source_tensors(s) for s in flat_sources]
        sparse = self._sparse_reads(flat_sources, groups, targets) if mode == "vjp" else {}
        for k, rows in sparse.items():
            groups[k] = [out for out, _ in rows]  # differentiate the looked-up rows, not the table
        wanted = [t for group in groups for t in group if _is_float(t)]
        if not float_targets or not wanted:
            return [None] * len(flat_sources)
        live = [t for t, _ in float_targets]
        cots = [c for _, c in float_targets if c is not None]
        outer_owned = self in state.tapes
        if outer_owned:
            state.tapes.remove(self)
        try:
            found = _replay.compute(self._records, live, wanted, cots, mode)
        finally:
            if outer_owned:
                state.tapes.append(self)
        by_id = dict(zip(map(id, wanted), found))
        return [_slices(sparse[k], by_id, source) if k in sparse else by_id.get(id(group[0]))
                if len(group) == 1 else _sum_grads([by_id.get(id(t)) for t in group])
                for k, (group, source) in enumerate(zip(groups, flat_sources))]

    def _sparse_reads(self, sources, groups, targets):
        """Variables used only through row lookups: position -> [(rows looked up, their indices)].

        As in TF, a Variable whose every read (a watched tensor, all of whose uses) feeds ``gather``
        (axis 0) or ``embedding_lookup`` as the table gets an `IndexedSlices` gradient: the
        looked-up rows' gradients and their indices.
        """
        found = {}
        if not any(record[0].name in _LOOKUPS for record in self._records):
            return found  # the common case costs one pass over the op names
        consumers = None
        target_ids = {id(t) for t in targets}
        for k, (source, group) in enumerate(zip(sources, groups)):
            if not group or len(source.shape) == 0:  # a Variable, or a watched tensor (TF: the same)
                continue
            if consumers is None:  # only the ops on a path to a target count (as TF's graph walk)
                consumers = {}
                for record in _replay.prune(self._records, [t for t in targets if _is_float(t)])[0]:
                    for x in {id(x) for x in record[2]}:
                        consumers.setdefault(x, []).append(record)
            rows = []
            for read in group:
                uses = consumers.get(id(read), [])
                if id(read) in target_ids or not all(_is_row_lookup(use, read) for use in uses):
                    rows = None
                    break
                rows += [(use[3][0], use[2][1]) for use in uses]
            if rows:
                found[k] = rows
        return found

    def _source_tensors(self, source):
        if getattr(source, "_is_variable", False):
            return list(self._reads.get(id(_origin(source)), {}).values())
        if isinstance(source, Tensor):
            return [source] if id(source) in self._tracked else []
        raise _not_a_tensor("source", source)

    def _repr_html_(self):
        """In Jupyter: the recorded ops with their input and output shapes."""
        rows = [(i, op.name, ", ".join(map(_describe, inputs)), ", ".join(map(_describe, outputs)))
                for i, (op, _, inputs, outputs) in enumerate(self._records)]
        watched = [v.name for v in self._watched.values()]
        watched += [f"tensor {_describe(t)}" for t in self._watched_tensors.values()]
        title = f"{self!r} — watching {', '.join(watched) or 'nothing'}"
        return table(title, ["#", "op", "inputs", "outputs"], rows)

    def __repr__(self):
        status = "recording" if self._recording else "stopped"
        ops, watched, tensors = len(self._records), len(self._watched), len(self._watched_tensors)
        return (f"<companion.GradientTape {status}, persistent={self._persistent}, "
                f"{ops} op{'s' * (ops != 1)} recorded, {watched} watched variable{'s' * (watched != 1)}, "
                f"{tensors} watched tensor{'s' * (tensors != 1)}>")


def _connected_outputs(deps, inputs, outputs, tracked):
    """The outputs that use a tracked input (``deps``: per output, the input positions it uses)."""
    live = {i for i, x in enumerate(inputs) if id(x) in tracked}
    return tuple(o for o, used in zip(outputs, deps) if not live.isdisjoint(used))


def _describe(tensor):
    value = tensor._value
    return f"{_dtype_name(value)}{list(value.shape)}"


def _dtype_name(value):
    return as_dtype(value.dtype).name



def _fit_cotangent(cot, target):
    """An output gradient of another shape than its target: broadcast (a scalar weighs every
    element) or, holding as many elements, reshaped, the way TF's elementwise gradients take it;
    anything else is TF's kernel error."""
    have, want = tuple(cot.shape), tuple(target.shape)
    if have == want:
        return cot
    if _broadcasts_to(have, want):
        return broadcast_to(cot, list(want))
    if math.prod(have) == math.prod(want):
        return reshape(cot, list(want))
    raise InvalidArgumentError(f"Incompatible shapes: {list(have)} vs. {list(want)} [Op:Mul]")


def _broadcasts_to(have, want):
    return len(have) <= len(want) and all(h in (1, w) for h, w in zip(have[::-1], want[::-1]))


def _flatten(structure):
    return _nest.tree_flatten(structure)[0]


def _warn_inside_context(mode):
    """TF's warning for a persistent tape differentiated inside its ``with`` block, logged once per
    place that asks: the caller's file and line for ``gradient``, and one place for every
    ``jacobian``/``batch_jacobian`` (TF's loop over the rows asks for them)."""
    if mode == "vjp":  # tape.gradient
        frame = sys._getframe(1)
        while frame is not None and frame.f_code.co_filename == __file__:
            frame = frame.f_back
        place = (frame.f_code.co_filename, frame.f_lineno) if frame is not None else None
    else:
        place = "jacobian"
    if place not in _warned_places:
        _warned_places.add(place)
        get_logger().warning(_INSIDE_CONTEXT)


_warned_places = set()
_INSIDE_CONTEXT = (
    "Calling GradientTape.gradient on a persistent tape inside its context is significantly less efficient "
    "than calling it outside the context (it causes the gradient ops to be recorded on the tape, leading to "
    "increased CPU and memory usage). Only call GradientTape.gradient inside the context if you actually "
    "want to trace the gradient in order to compute higher order derivatives.")
_POLICIES = {p: p for p in UnconnectedGradients} | {p.value: p for p in UnconnectedGradients}


def _is_leaf(x):
    return isinstance(x, Tensor) or getattr(x, "_is_variable", False)


def _flat_sources(sources):
    """``(flat sources, treedef)``; a flat list or tuple of tensors (the usual
    ``model.trainable_variables``) skips the tree walk, its "treedef" being its type."""
    if type(sources) in (list, tuple) and all(map(_is_leaf, sources)):
        return sources, type(sources)
    return _nest.tree_flatten(sources)


def _flatten_targets(target):
    return (target,) if isinstance(target, Tensor) else _flatten(target)


def _single_tensor(value):
    """jacobian's target (and batch_jacobian's source): one Tensor or Variable; TF reads ``.shape``
    of anything else, hence its AttributeError."""
    if not (isinstance(value, Tensor) or getattr(value, "_is_variable", False)):
        raise AttributeError(f"'{type(value).__name__}' object has no attribute 'shape'")
    return value


def _as_tensor(x):
    return x.value() if getattr(x, "_is_variable", False) else x


def _target_tensor(target, tape):
    if getattr(target, "_is_variable", False):
        reads = list(tape._reads.get(id(_origin(target)), {}).values())
        return reads[-1] if reads else target._read()
    if target is None:
        raise ValueError("tape.gradient(target, ...) got None as its target: the value to differentiate "
                         "was never computed. Compute it inside the `with tf.GradientTape() as tape:` block "
                         "(in a lab, check that no `None  # YOUR CODE HERE` placeholder is left). "
                         "Received: target=None")
    if not isinstance(target, Tensor):
        raise _not_a_tensor("target", target)
    return target


def _origin(variable):
    """The Variable itself for the view of it that an assignment returns."""
    return variable if variable._unread_of is None else variable._unread_of


def _not_a_tensor(role, value):
    """TF's class for a gradient source or target that is not a tensor: AttributeError (it reads
    the value's dtype), TypeError for None or a string source; both also catch as ValueError."""
    cls = GradientSourceTypeError if role == "source" and (value is None or isinstance(value, str)) \
        else GradientSourceAttributeError
    return cls(f"tape.gradient: every {role} must be a Tensor or a Variable. Received: {value!r} of "
               f"type {type(value).__name__}. Differentiate with respect to a Variable (or a tensor "
               "you tape.watch()ed), e.g. tape.gradient(loss, model.trainable_variables).")


def _is_float(tensor):
    if tensor is None:
        return False
    dtype = tensor._v.dtype
    floating = _FLOATING.get(dtype)
    if floating is None:
        try:
            floating = _FLOATING[dtype] = as_dtype(dtype).is_floating
        except TypeError:
            return False
    return floating


_FLOATING = {}


def _zip_longest(targets, cotangents):
    return zip(targets, cotangents) if cotangents else ((t, None) for t in targets)


_LOOKUPS = frozenset({"gather", "embedding_lookup"})


def _is_row_lookup(record, table):
    """Whether ``record`` looks rows of ``table`` up along axis 0 (TF's sparse-gradient ops)."""
    op, params, inputs, _ = record
    if len(inputs) < 2 or inputs[0] is not table or inputs[1] is table:
        return False
    if op.name == "gather":
        return params.get("axis") == 0 and params.get("batch_dims") == 0
    return op.name == "embedding_lookup" and params.get("max_norm") is None


def _slices(rows, by_id, variable):
    """The `IndexedSlices` gradient of a table from its looked-up rows' gradients (None if none flowed)."""
    parts = [(by_id.get(id(out)), indices) for out, indices in rows]
    parts = [(grad, indices) for grad, indices in parts if grad is not None]
    if not parts:
        return None
    row_shape = list(variable.shape[1:])
    values = [reshape(grad, [-1] + row_shape) for grad, _ in parts]
    indices = [reshape(indices, [-1]) for _, indices in parts]
    if len(parts) > 1:  # several lookups: their slices side by side (TF's aggregation)
        if len({i.dtype for i in indices}) > 1:
            indices = [cast(i, "int64") for i in indices]
        values, indices = [concat(values, 0)], [concat(indices, 0)]
    shape = constant(list(variable.shape), dtype="int32")
    return IndexedSlices(values[0], indices[0], shape)


def _sum_grads(grads):
    present = [g for g in grads if g is not None]
    if not present:
        return None
    total = present[0]
    for g in present[1:]:
        total = total + g
    return total


def _fill_unconnected(grad, source, mode, targets):
    if grad is not None:
        return grad

    shape = list(source.shape)
    if mode != "vjp":
        shape = list(targets[0].shape) + (shape[1:] if mode == "batch_jacobian" else shape)
    return zeros(shape, dtype=source.dtype)  # TF's zeros_like(source), integer sources included


def _sources_as_targets(grads, sources, given, targets, cotangents):
    """A target that is a source itself, recorded or not, has gradient 1 (its output gradient)
    with respect to itself, as in TF (``tape.gradient(x, x)`` is 1 even for an unwatched x)."""
    grads = list(grads)
    for i, source in enumerate(sources):
        if grads[i] is not None or not source.dtype.is_floating:
            continue
        seeds = [cotangents[j] if cotangents else ones_like(targets[j])
                 for j, target in enumerate(given) if target is source]
        if seeds:
            grads[i] = seeds[0] if len(seeds) == 1 else add_n(seeds)
    return grads
