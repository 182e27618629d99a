"""Functional control flow: `cond`, `while_loop`, `switch_case` and `case`.

Eagerly (or with a predicate known while tracing) they run the Python callables as plain
Python control flow. Inside `companion.function` with a traced predicate they reuse
AutoGraph's staged ``if``/``while`` (`companion.autograph`): each branch or the loop
body is traced once and lowered to ``lax.cond``/``lax.while_loop``. A `while_loop` with a
``maximum_iterations`` known while tracing becomes a ``lax.scan`` of that length; one whose
trip count is known only at run time a while loop with a recomputing derivative
(`companion.autograph._loop_op`). A `GradientTape` around the function differentiates
both; a tape recording inside the function sees a staged loop, `cond` (and
`switch_case`/`case`) as one op on the tensors and Variables they capture, so it
differentiates through them too.
"""

import itertools
import sys
import warnings

import jax

from companion._core import _nest
from companion._core._context import state
from companion._core._convert import convert_to_tensor
from companion._core._errors import InvalidArgumentError
from companion._core._op import Op
from companion._core._shape import TensorShape
from companion._core._tensor import Tensor
from companion._ops._math import cast, equal, less, logical_and
from companion.autograph._blocks import trace_block
from companion.autograph._control_flow import _predicate, if_stmt
from companion.autograph._loop_op import captured_input, tapes_paused
from companion.autograph._loops import staged_while
from companion.autograph._state import is_traced, shapes_may_change

__all__ = ["case", "cond", "switch_case", "while_loop"]


def cond(pred, true_fn=None, false_fn=None, name=None):
    """``true_fn()`` if ``pred`` else ``false_fn()``; inside a function, a compiled conditional.

    With a traced ``pred`` both callables are traced once and must return the same
    structure (nested tuples, lists and dicts) of tensors of one dtype and shape each.

    Example:
        >>> import companion as tf
        >>> x, y = tf.constant(2), tf.constant(5)
        >>> print(tf.cond(x < y, lambda: tf.add(x, 10), lambda: tf.square(y)))
        companion.Tensor(12, shape=(), dtype=int32)
    """
    if not callable(true_fn) or not callable(false_fn):
        raise TypeError(f"cond: true_fn and false_fn must be callables taking no arguments. Received: "
                        f"true_fn={true_fn!r}, false_fn={false_fn!r}")
    if not is_traced(pred):
        return true_fn() if _truth(pred, "cond") else false_fn()
    return _staged_cond(pred, true_fn, false_fn)


def _staged_cond(pred, true_fn, false_fn):
    if state.tapes:
        result = _recorded_cond(convert_to_tensor(pred), true_fn, false_fn)
        if result is not _UNRECORDABLE:
            return result
        _warn_inner_tape("cond")
    box = {"leaves": ()}
    structures = []

    def block(fn, label):
        def run():
            leaves, treedef = _flatten(fn())
            structures.append((label, treedef))
            box["leaves"] = tuple(convert_to_tensor(x) if getattr(x, "_is_variable", False) else x
                                  for x in leaves)
        return run

    def set_leaves(values):
        box["leaves"] = tuple(values)

    with tapes_paused():  # (a recorded cond was tried above: the if statement must not try again)
        if_stmt(convert_to_tensor(pred), block(true_fn, "true_fn"), block(false_fn, "false_fn"),
                lambda: box["leaves"], set_leaves, _Names("cond output"), sys.maxsize)
    (_, true_structure), (_, false_structure) = structures
    if true_structure != false_structure:
        raise ValueError(f"cond: true_fn and false_fn must return the same structure, but true_fn returned "
                         f"{true_structure} and false_fn {false_structure} (a * is one tensor). Make both "
                         "branches return the same nesting of tensors.")
    return jax.tree_util.tree_unflatten(true_structure, box["leaves"])


def while_loop(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10, back_prop=True,
               swap_memory=False, maximum_iterations=None, name=None):
    """Repeats ``loop_vars = body(*loop_vars)`` while ``cond(*loop_vars)`` is true.

    ``loop_vars`` is a list or tuple (its entries may be nested structures of tensors);
    ``body`` returns a list or tuple of the same structure, with each tensor keeping its
    dtype and shape inside a function. As in TensorFlow, eagerly the result is what the last
    ``body`` call returned (a tuple if it returned one; ``loop_vars``, as tensors, if it never
    ran), and inside a function it has the structure of ``loop_vars``.
    ``maximum_iterations`` stops the loop after that many iterations. Inside a function
    the loop is compiled (`companion.autograph`: a bounded ``lax.scan`` when the trip count
    is bounded while tracing, else ``lax.while_loop``) and a `GradientTape` around or
    inside the function differentiates it. Shapes may not change in a compiled loop: with
    ``shape_invariants`` given, a loop variable that changes shape makes a top-level `function`
    call run eagerly (TF's result; see `companion._staging._needs_values`). ``parallel_iterations``,
    ``back_prop`` and ``swap_memory`` are accepted for compatibility.

    Example:
        >>> import companion as tf
        >>> i, total = tf.while_loop(lambda i, s: i < 5, lambda i, s: (i + 1, s + i),
        ...                          [tf.constant(0), tf.constant(0)])
        >>> print(int(i), int(total))
        5 10
    """
    if not callable(cond) or not callable(body):
        raise TypeError(f"while_loop: cond and body must be callables. Received: cond={cond!r}, "
                        f"body={body!r}")
    single = not isinstance(loop_vars, (list, tuple))
    variables = [loop_vars] if single else list(loop_vars)
    if not variables:
        raise ValueError("while_loop: loop_vars must contain at least one loop variable. Received: []")
    limit = maximum_iterations
    if limit is not None and not is_traced(limit):
        limit = int(convert_to_tensor(limit).numpy())
        if limit < 0:
            raise InvalidArgumentError(f"while_loop: maximum_iterations must be >= 0. Received: {limit}")
    if not state.staging:
        return _python_while(cond, body, loop_vars, single, limit)
    invariants = _invariants_by_name(variables, shape_invariants, single)
    with shapes_may_change(shape_invariants is not None, invariants):
        result = _staged_while(cond, body, variables, limit)
    if single:
        return result[0]
    return tuple(result) if isinstance(loop_vars, tuple) else result


def _invariants_by_name(variables, shape_invariants, single):
    """``shape_invariants`` as loop variable name (``loop_vars[1]``, as `_staged_while` names them)
    -> TensorShape, for the leaves it gives a shape for."""
    if shape_invariants is None:
        return None
    given = [shape_invariants] if single else list(shape_invariants)
    shapes = []
    if not _pair_shapes(variables, given, shapes):
        return None
    paths = jax.tree_util.tree_flatten_with_path(variables, is_leaf=_nest.is_value)[0]
    if len(shapes) != len(paths):
        return None
    return {f"loop_vars{jax.tree_util.keystr(path)}": TensorShape(shape)
            for (path, _), shape in zip(paths, shapes) if shape is not None}


def _pair_shapes(variables, invariants, out):
    """Appends to ``out`` the invariant of each leaf of ``variables`` (same nesting); False when
    the structures differ."""
    if _nest.is_value(variables) or not isinstance(variables, (list, tuple, dict)):
        out.append(invariants)
        return True
    if isinstance(variables, dict):
        if not isinstance(invariants, dict) or set(invariants) != set(variables):
            return False
        return all(_pair_shapes(variables[k], invariants[k], out) for k in sorted(variables))
    if not isinstance(invariants, (list, tuple)) or len(invariants) != len(variables):
        return False
    return all(_pair_shapes(v, i, out) for v, i in zip(variables, invariants))


def _python_while(cond, body, loop_vars, single, limit):
    """TF's eager loop: loop_vars become tensors; the result is what ``body`` last returned."""
    current = _nest.map_structure(_eager_leaf, loop_vars)
    count = 0
    while limit is None or count < limit:
        args = [current] if single else list(current)
        if not _truth(cond(*args), "while_loop"):
            break
        out = body(*args)
        if single:
            out = _as_list(out, 1)[0]
        elif not isinstance(out, (list, tuple)):
            raise TypeError(f"while_loop: body must return a list or tuple of {len(args)} loop variable(s), "
                            f"as loop_vars is a {type(loop_vars).__name__}. Received: {out!r}. Return "
                            "(value,) or [value] for a single loop variable.")
        _check_eager_structure(args, list(out) if not single else [out])
        current = out
        count += 1
    return current


def _staged_while(cond, body, variables, limit):
    leaves, treedef = _flatten(variables)
    names = ("iteration counter",) + tuple(
        f"loop_vars{jax.tree_util.keystr(path)}"
        for path, _ in jax.tree_util.tree_flatten_with_path(variables, is_leaf=_nest.is_value)[0])
    box = {"state": (Tensor(jax.numpy.zeros((), jax.numpy.int32)),) + tuple(_tensor_leaf(x) for x in leaves)}

    def current():
        return jax.tree_util.tree_unflatten(treedef, box["state"][1:])

    def test():
        keep_going = cond(*current())
        if limit is None:
            return keep_going

        count = box["state"][0]
        return logical_and(less(count, _limit_tensor(limit)), convert_to_tensor(keep_going))

    def step():
        out = _as_list(body(*current()), len(variables))
        _check_structure(treedef, out)
        counter = Tensor(box["state"][0]._value + 1)
        box["state"] = (counter,) + tuple(_tensor_leaf(x) for x in _flatten(out)[0])

    def set_state(values):
        box["state"] = tuple(values)

    static_count = limit if isinstance(limit, int) else None
    staged_while(test, step, lambda: box["state"], set_state, names, "while_loop", static_count)
    return list(current())


def switch_case(branch_index, branch_fns, default=None, name=None):
    """Runs ``branch_fns[branch_index]()``; an index out of range runs ``default`` (else the last branch).

    ``branch_fns`` is a list of callables, a list of ``(index, callable)`` pairs or a dict
    from index to callable. Inside a function with a traced index, every branch is traced
    once and they must return the same structure of tensors.

    Example:
        >>> import companion as tf
        >>> fns = [lambda: tf.constant(10), lambda: tf.constant(20)]
        >>> fallback = lambda: tf.constant(-1)
        >>> print(tf.switch_case(tf.constant(1), fns), tf.switch_case(7, fns, default=fallback))
        companion.Tensor(20, shape=(), dtype=int32) companion.Tensor(-1, shape=(), dtype=int32)
    """
    table = _branch_table(branch_fns)
    fallback = default if default is not None else table[max(table)]
    if not callable(fallback):
        raise TypeError(f"switch_case: default must be a callable. Received: {default!r}")
    if not is_traced(branch_index):
        index = convert_to_tensor(branch_index)
        if not index.dtype.is_integer or index._v.ndim != 0:
            raise TypeError(f"switch_case: branch_index must be an int32 scalar. Received: {index!s}")
        return table.get(int(index.numpy()), fallback)()
    index = convert_to_tensor(branch_index)

    def chain(keys):
        if not keys:
            return fallback()
        return _staged_cond(equal(index, keys[0]), table[keys[0]], lambda: chain(keys[1:]))

    return chain(sorted(table))


def case(pred_fn_pairs, default=None, exclusive=False, strict=False, name="case"):
    """Runs the callable of the first true predicate of ``pred_fn_pairs`` (pairs ``(pred, fn)``).

    If no predicate is true, ``default()`` runs; with no default, eagerly an
    `InvalidArgumentError`, and inside a function the last pair's callable.
    ``exclusive=True`` is accepted; as in TensorFlow 2.21 (eagerly and inside a function)
    it is not checked, and the first true predicate wins.

    Example:
        >>> import companion as tf
        >>> x = tf.constant(3)
        >>> print(tf.case([(x < 0, lambda: tf.constant(-1)), (x > 0, lambda: tf.constant(1))],
        ...               default=lambda: tf.constant(0)))
        companion.Tensor(1, shape=(), dtype=int32)
    """
    pairs = list(pred_fn_pairs.items()) if isinstance(pred_fn_pairs, dict) else list(pred_fn_pairs)
    if not pairs and default is None:
        raise ValueError("case: give at least one (predicate, callable) pair or a default.")
    for pair in pairs:
        if not isinstance(pair, tuple) or len(pair) != 2 or not callable(pair[1]):
            raise TypeError(f"case: pred_fn_pairs must hold (predicate, callable) pairs. Received: {pair!r}")
    if default is not None and not callable(default):
        raise TypeError(f"case: default must be a callable. Received: {default!r}")
    if not any(is_traced(p) for p, _ in pairs):
        truths = [_truth(p, "case") for p, _ in pairs]
        for truth, (_, fn) in zip(truths, pairs):
            if truth:
                return fn()
        if default is None:
            raise InvalidArgumentError("case: none of the conditions evaluated as True and no default was "
                                       "given. Pass default=callable for that case.")
        return default()
    fallback = default if default is not None else pairs[-1][1]
    if default is None:
        pairs = pairs[:-1]

    def chain(rest):
        if not rest:
            return fallback()
        (pred, fn), tail = rest[0], rest[1:]
        return cond(pred, fn, lambda: chain(tail))

    return chain(pairs)


def _branch_table(branch_fns):
    """``branch_fns`` (callables, ``(index, callable)`` pairs or a dict) as a dict index -> callable."""
    if isinstance(branch_fns, dict):
        items = list(branch_fns.items())
    elif isinstance(branch_fns, (list, tuple)) and all(isinstance(b, tuple) for b in branch_fns):
        items = list(branch_fns)
    elif isinstance(branch_fns, (list, tuple)):
        items = list(enumerate(branch_fns))
    else:
        items = None
    if not items or any(len(i) != 2 or type(i[0]) is not int or not callable(i[1]) for i in items):
        raise TypeError("switch_case: branch_fns must be a non-empty list of callables, of (int, callable) "
                        f"pairs, or a dict from int to callable. Received: {branch_fns!r}")
    table = dict(items)
    if len(table) != len(items):
        raise ValueError(f"switch_case: a branch index appears twice in branch_fns: {[i for i, _ in items]}")
    if sorted(table) != list(range(len(table))):
        raise ValueError(f"switch_case: branch indices (keys) must form the contiguous range "
                         f"[0, {len(table)}), as TensorFlow requires. Received: {sorted(table)}. Number the "
                         "branches 0, 1, ... and pass default= for every other index.")
    return table


_UNRECORDABLE = object()


def _recorded_cond(pred, true_fn, false_fn):
    """A staged cond that a GradientTape recording inside the function differentiates.

    Each branch is traced (with the tapes paused) into a program whose constants are the
    tensors and Variable reads it captured; the ``lax.cond`` of the two programs is applied
    as one op on those captures, so the tape records it like any other op. Branches that
    assign Variables, or whose outputs differ in dtype or shape, give `_UNRECORDABLE`.
    """

    tapes, state.tapes = state.tapes, []
    structures = []

    def block(fn):
        def run():
            leaves, treedef = _flatten(fn())
            structures.append(treedef)
            return leaves

        return trace_block(run, [], _flatten_outputs)

    try:
        blocks = [block(true_fn), block(false_fn)]
    finally:
        state.tapes = tapes
    if any(b.written for b in blocks) or structures[0] != structures[1] or \
            any(k is None for b in blocks for k in b.out_kinds) or blocks[0].out_kinds != blocks[1].out_kinds:
        return _UNRECORDABLE
    trace = state.traces[-1]
    captured = [captured_input(c, trace, tapes) for b in blocks for c in b.closed.consts]
    n_true = len(blocks[0].closed.consts)

    def run_cond(p, *consts):
        def branch(which, values):
            return lambda: tuple(jax.core.eval_jaxpr(blocks[which].closed.jaxpr, list(values)))

        taken = _predicate(Tensor(p))
        return tuple(jax.lax.cond(taken, branch(0, consts[:n_true]), branch(1, consts[n_true:])))

    outputs = Op("cond", run_cond, jit=False).apply([pred, *captured], {})
    return jax.tree_util.tree_unflatten(structures[0], list(outputs))


def recorded_if(cond, body, orelse, get_state, set_state):
    """AutoGraph's ``if`` on a traced ``cond`` as a recorded cond (`_recorded_cond`), so a tape
    recording inside the function differentiates it, as TF's does; False when its state (the
    variables the branches assign) is not all tensors of one type in both branches."""
    init = get_state()

    def branch(fn):
        def run():
            set_state(init)
            fn()
            return tuple(get_state())

        return run

    try:
        result = _recorded_cond(convert_to_tensor(cond), branch(body), branch(orelse))
    except (TypeError, ValueError):  # a state value no tensor can stand for (Undefined in a branch)
        result = _UNRECORDABLE
    set_state(init)
    if result is _UNRECORDABLE:
        return False
    set_state(tuple(result))
    return True


def _flatten_outputs(leaves):
    arrays, kinds = [], []
    for leaf in leaves:
        if not (isinstance(leaf, (Tensor, bool, int, float)) or getattr(leaf, "_is_variable", False)):
            arrays.append(jax.numpy.zeros(()))
            kinds.append(None)  # not a tensor: only the AutoGraph lowering handles it
            continue
        value = convert_to_tensor(leaf)._value
        arrays.append(value)
        kinds.append((tuple(value.shape), value.dtype))
    return arrays, kinds


def _warn_inner_tape(what):
    if state.tapes:
        warnings.warn(f"A GradientTape inside this function is recording, but it does not see through a "
                      f"compiled {what}: gradients through it will be None. Put the tape around the call "
                      "of the function instead (that differentiates the whole compiled program), or use "
                      "companion.where to select between values.", stacklevel=3)


class _Names:
    """Names for AutoGraph's messages about the n-th output of a staged branch."""

    def __init__(self, prefix):
        self._prefix = prefix

    def __iter__(self):
        return (f"{self._prefix} {i}" for i in itertools.count())



def _flatten(structure):
    return _nest.tree_flatten(structure)


def _tensor_leaf(x):
    if getattr(x, "_is_variable", False):
        return convert_to_tensor(x)
    if isinstance(x, (Tensor, bool, int, float)) or x is None:
        return x
    try:
        return convert_to_tensor(x)
    except (TypeError, ValueError):
        return x


def _as_list(out, n):
    if isinstance(out, (list, tuple)) and (n != 1 or len(out) == 1):
        return list(out)
    if n == 1:  # a single loop variable: the body may return it bare
        return [out]
    raise ValueError(f"while_loop: body must return {n} loop variables (a list or tuple), as loop_vars. "
                     f"Received: {out!r}")


def _eager_leaf(x):
    """A loop variable as TF's eager loop holds it: numbers, arrays and Variables become tensors."""
    if isinstance(x, Tensor) or x is None or not (getattr(x, "_is_variable", False) or _nest.is_value(x)
                                                  or isinstance(x, (bool, int, float, complex))):
        return x
    return convert_to_tensor(x)


def _check_eager_structure(before, after):
    """TF's eager check: the nesting and the sequence types (list vs tuple) of nested variables."""
    try:
        _nest.assert_same_structure(before, after, check_types=True)
    except (TypeError, ValueError) as error:
        reason = str(error).splitlines()[0].split(" Pass check_types")[0]
        raise type(error)(f"while_loop: body must return the structure of loop_vars, {before!r}, but "
                          f"returned {after!r} ({reason}). Return every loop variable, nested as in "
                          "loop_vars, with the same list/tuple types.") from None


def _check_structure(expected, values):
    got = _flatten(values)[1]
    if got != expected:
        raise ValueError(f"while_loop: body must return the structure of loop_vars, {expected}, but "
                         f"returned {got} (a * is one tensor). Return every loop variable, nested as in "
                         "loop_vars.")


def _limit_tensor(limit):
    return cast(convert_to_tensor(limit), "int32")


def _truth(pred, what):
    if isinstance(pred, Tensor) or getattr(pred, "_is_variable", False):
        value = convert_to_tensor(pred)
        if value._value.size != 1:
            raise ValueError(f"{what}: the predicate must be a single boolean. Received a tensor of shape "
                             f"{tuple(value._v.shape)}; reduce it with companion.reduce_any/reduce_all.")
    return bool(pred)
