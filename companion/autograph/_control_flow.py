"""AutoGraph's runtime operators: ``if``/``while``/``for``/``x if c else y`` and the logic ops.

Each keeps Python's own semantics when its condition or iterable is a Python value (or a
tensor whose value is known while tracing) and emits ``lax.cond`` / ``lax.while_loop``
when it is a traced tensor. The converted code hands each operator the statement's
blocks as closures plus ``get_state``/``set_state`` for the locals they modify.
"""

import jax.numpy as jnp
import numpy as np
from jax import lax
from malt.operators import control_flow as malt_flow

from companion._core import _tensor_names
from companion._core._context import state
from companion._core._convert import convert_to_tensor
from companion._core._host_value import HostString, choose
from companion._core._tensor import Tensor
from companion._ops import _math
from companion.autograph import _state
from companion.autograph._blocks import trace_block, values_of
from companion.autograph._loops import loop_limit, staged_for, staged_while, stages
from companion.autograph._state import Chosen, Undefined, is_traced

# -- if / elif / else ---------------------------------------------------------------------------

def if_stmt(cond, body, orelse, get_state, set_state, symbol_names, nouts):
    """``if cond: body() else: orelse()``, staged with ``lax.cond`` for a traced ``cond``."""
    if not is_traced(cond):
        return body() if _truth(cond) else orelse()
    _staged_if(cond, body, orelse, get_state, set_state, symbol_names, nouts)


def if_exp(cond, if_true, if_false, expr_repr):
    """``if_true() if cond else if_false()``, staged with ``lax.cond`` for a traced ``cond``."""
    if not is_traced(cond):
        return if_true() if _truth(cond) else if_false()
    box = [None]
    _staged_if(cond, lambda: box.__setitem__(0, if_true()), lambda: box.__setitem__(0, if_false()),
               lambda: (box[0],), lambda v: box.__setitem__(0, v[0]), (expr_repr,), 1)
    return box[0]


def _staged_if(cond, body, orelse, get_state, set_state, names, nouts):
    if state.tapes:  # a tape recording inside the function: the cond must be one recorded op
        # deferred: companion._staging._control_flow imports this module at its top
        from companion._staging._control_flow import recorded_if

        if recorded_if(cond, body, orelse, get_state, set_state):
            return
    init = get_state()

    def branch(fn, prefix=None):
        def run():
            set_state(init)
            fn()
            return get_state()
        with _tensor_names.sub_graph("cond", prefix) as prefix:  # TF's branch graphs: `cond/...`
            return trace_block(run, [], _state.flatten), prefix

    true_block, prefix = branch(body)
    false_block, _ = branch(orelse, prefix)
    set_state(init)
    plan = _merge_plan(names, nouts, true_block.out_kinds, false_block.out_kinds)
    written = _union(true_block.written, false_block.written)
    before = values_of(written)
    outs = lax.cond(_predicate(cond),
                    lambda: _arrange(true_block, plan, written, before, 0),
                    lambda: _arrange(false_block, plan, written, before, 1))
    _tensor_names.name_sub_graph_outputs(prefix, outs)
    set_state(_rebuild(plan, outs))
    for var, value in zip(written, outs[len(outs) - len(written):]):
        var._set_value(value)


def _merge_plan(names, nouts, true_kinds, false_kinds):
    """Per symbol: how the two branches' values combine into the statement's result."""
    plan = []
    for i, (name, t, f) in enumerate(zip(names, true_kinds, false_kinds)):
        plan.append(_merge_one(name, t, f, is_output=i < nouts))
    return plan


def _merge_one(name, t, f, is_output):
    kinds = (t[0], f[0])
    if "no_return" in kinds:  # `return` in one branch only: the other gets a placeholder
        defined = f if t[0] == "no_return" else t
        if defined[0] == "no_return":
            return ("static", _state.UndefinedReturnValue())
        if defined[0] == "host":  # the side that did not return yet never uses the placeholder text
            return ("host", t, f)
        if defined[0] != "array":
            defined = _state.flatten([convert_to_tensor(defined[1])])[1][0]
        return ("array", defined, t, f)
    if "undefined" in kinds:
        if kinds == ("undefined", "undefined") or not is_output:
            return ("static", Undefined(name))
        missing = "else" if f[0] == "undefined" else "if"
        raise ValueError(f"{_state.where()}'{name}' must also be initialized in the {missing} branch: "
                         f"it is defined in only one branch of an `if` on a tensor, and used after it. "
                         f"Give '{name}' a value before the `if` or in both branches.")
    if kinds == ("array", "array"):
        return ("array", _common_kind(name, t, f), t, f)
    if kinds == ("static", "static") and (t[1] is f[1] or _safe_equal(t[1], f[1])):
        return ("static", t[1])
    if "array" in kinds and all(k[0] in ("array", "static") and _is_number(k) for k in (t, f)):
        return ("array", t if t[0] == "array" else f, t, f)
    if "host" in kinds:  # a string built on the host in one branch at least: the host picks
        if "array" in kinds:
            raise TypeError(f"{_state.where()}'{name}' is a string tensor in one branch of an `if` on a "
                            "tensor and a numeric tensor in the other. Both branches must give it one dtype.")
        return ("host", t, f)
    options = _options(t) + _options(f)
    return ("chosen", options, len(_options(t)))


def _common_kind(name, t, f):
    if t[1] == f[1] and t[2] == f[2]:
        return t
    if t[3] != f[3]:  # a Python number meets a tensor: the number takes the tensor's dtype
        return t if not t[3] else f
    raise TypeError(f"{_state.where()}'{name}' is a tensor of {_state._aval(t)} in the if branch and "
                    f"{_state._aval(f)} in the else branch. Both branches of an `if` on a tensor must "
                    "give it one dtype and shape.")


def _arrange(block, plan, written, before, side):
    outs = list(block.evaluate([]))
    state_outs, written_outs = outs[:block.n_state], outs[block.n_state:]
    arrays, it = [], iter(state_outs)
    for entry, kind in zip(plan, block.out_kinds):
        own = [next(it) for _ in _avals(kind)]
        value = own[0] if kind[0] in ("array", "chosen") else None
        if entry[0] == "host":  # [side, true branch's arrays, false branch's arrays]
            arrays.append(jnp.asarray(side, jnp.int32))
            for branch, branch_kind in ((0, entry[1]), (1, entry[2])):
                arrays.extend(own if branch == side else
                              [jnp.zeros(shape, dtype) for shape, dtype in _avals(branch_kind)])
        elif entry[0] == "array" and kind[0] == "no_return":
            arrays.append(jnp.zeros(entry[1][1], entry[1][2]))
        elif entry[0] == "array":
            arrays.append(_state.cast_like(value if value is not None else kind[1], entry[1]))
        elif entry[0] == "chosen":  # index into true options, then false options
            index = value if kind[0] == "chosen" else 0
            arrays.append(jnp.asarray(index, jnp.int32) + side * entry[2])
    by_var = dict(zip((id(v) for v in block.written), written_outs))
    return arrays + [by_var.get(id(v), b) for v, b in zip(written, before)]


def _rebuild(plan, outs):
    values, it = [], iter(outs)
    for entry in plan:
        if entry[0] == "array":
            values.append(Tensor(next(it)))
        elif entry[0] == "chosen":
            values.append(Chosen(next(it), entry[1]))
        elif entry[0] == "host":
            sides = [entry[1], entry[2]]
            arrays = [next(it) for _ in range(1 + sum(len(_avals(k)) for k in sides))]
            shape = next((k[3] for k in sides if k[0] == "host"), ())
            values.append(HostString(arrays, choose([(len(_avals(k)), _builder(k)) for k in sides]), shape))
        else:
            values.append(entry[1])
    return tuple(values)


def _avals(kind):
    """The (shape, dtype) of each array a branch value of ``kind`` contributes."""
    if kind[0] == "array":
        return [(kind[1], kind[2])]
    if kind[0] == "chosen":
        return [((), jnp.int32)]
    if kind[0] == "host":
        return list(kind[1])
    return []


def _builder(kind):
    """The host function giving a branch value's text from its arrays' values."""
    if kind[0] == "host":
        return kind[2]
    if kind[0] == "chosen":
        options = kind[1]
        return lambda index: _text(options[int(np.asarray(index))])
    value = kind[1]
    return lambda: _text(value)


def _text(value):
    if isinstance(value, Tensor):
        if value.dtype.name != "string":
            raise TypeError(f"An `if` on a tensor gives a string in one branch and {value!r} in the other.")
        return np.asarray(value._value, dtype=object)
    if isinstance(value, str):
        return np.asarray(value.encode("utf-8"), dtype=object)
    return np.asarray(value, dtype=object)


def _options(kind):
    return list(kind[1]) if kind[0] == "chosen" else [kind[1]]


def _is_number(kind):
    return kind[0] == "array" or isinstance(kind[1], (bool, int, float))


def _safe_equal(a, b):
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - any comparison failure means "not the same value"
        return False


def _union(first, second):
    seen = {id(v): v for v in first}
    for v in second:
        seen.setdefault(id(v), v)
    return list(seen.values())


# -- while and for ----------------------------------------------------------------------------

def while_stmt(test, body, get_state, set_state, symbol_names, opts):
    """``while test(): body()``, staged with ``lax.while_loop`` when the test is traced."""
    first = test()
    if not is_traced(first):
        while _truth(first):
            body()
            first = test()
        return

    limit = loop_limit(opts)
    if limit is None or isinstance(limit, int):
        with _state.shapes_may_change((opts or {}).get("shape_invariants")):
            staged_while(test, body, get_state, set_state, symbol_names, "while loop", limit)
        return
    count = [limit]  # a limit known only at run time: count iterations in the loop state

    def limited_test():
        return _math.logical_and(_math.less(count[0], limit), test())

    def counted_body():
        body()
        count[0] = count[0] + 1

    def get():
        return (count[0],) + tuple(get_state())

    def put(values):
        count[0] = values[0]
        set_state(values[1:])

    count[0] = Tensor(jnp.zeros((), jnp.int32))
    with _state.shapes_may_change((opts or {}).get("shape_invariants")):
        staged_while(limited_test, counted_body, get, put, ("<iteration count>",) + tuple(symbol_names),
                     "while loop")


def for_stmt(iter_, extra_test, body, get_state, set_state, symbol_names, opts):
    """``for x in iter_: body(x)``: staged for tensors and companion ranges, unrolled otherwise."""
    # deferred: companion.autograph._dataset_loop imports this module at its top
    from companion.autograph._dataset_loop import (
        is_dataset,
        is_staged_iterator,
        staged_dataset_for,
        staged_iterator_for,
    )

    if state.staging and is_dataset(iter_):
        return staged_dataset_for(iter_, extra_test, body, get_state, set_state, symbol_names)
    if state.staging and is_staged_iterator(iter_):
        return staged_iterator_for(iter_, extra_test, body, get_state, set_state, symbol_names)
    if stages(iter_):
        with _state.shapes_may_change((opts or {}).get("shape_invariants")):
            return staged_for(iter_, extra_test, body, get_state, set_state, symbol_names, opts)
    malt_flow._py_for_stmt(iter_, extra_test, body, None, None, None, None)


# -- logic ---------------------------------------------------------------------------------------

def and_(a, b):
    """``a() and b()``: element-wise ``logical_and`` when ``a()`` is a traced tensor."""
    left = a()
    if is_traced(left):
        return _math.logical_and(left, b())
    return b() if _truth(left) else left


def or_(a, b):
    """``a() or b()``: element-wise ``logical_or`` when ``a()`` is a traced tensor."""
    left = a()
    if is_traced(left):
        return _math.logical_or(left, b())
    return left if _truth(left) else b()


def not_(a):
    """``not a``: ``logical_not`` for a traced tensor."""
    if is_traced(a):
        return _math.logical_not(a)
    return not _truth(a)


def _truth(value):
    return bool(value)


def _predicate(cond):
    value = cond._value if isinstance(cond, Tensor) else cond._value
    value = jnp.reshape(value, ()) if value.size == 1 else value
    if value.ndim != 0:
        raise ValueError(f"{_state.where()}The condition of an `if`/`while` on a tensor must be a single "
                         f"boolean. Received a tensor of shape {tuple(value.shape)}: reduce it with "
                         "companion.reduce_any / reduce_all.")
    return value if value.dtype == jnp.bool_ else value != 0
