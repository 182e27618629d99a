"""A traced program as text for people: Variable reads and prints named, unused reads left out.

`function` traces Python into a jaxpr. Printed as JAX prints it, the program shows staging
details a learner does not need: every Variable read is an ``optimization_barrier`` (some of
them unused), and each `companion.print` a ``debug_callback`` with a function address. For
display only, `program_text` rewrites those equations as ``read_variable`` and
``companion.print`` and drops reads whose result nothing uses; `legend` says which program
constants are Variables and which are plain values. The rewritten program is never run.
"""

import re

import jax.extend.core as jex
import numpy as np

_READ = jex.Primitive("read_variable")
_PRINT = jex.Primitive("companion.print")
_HEADER = re.compile(r"^\{ lambda (?P<consts>[^;]*); (?P<args>[^.]*)\. let", re.MULTILINE)


def program_text(closed, owners):
    """The program of ``closed`` (a ClosedJaxpr) as readable text.

    ``owners`` has one entry per constant of the program: the Variable it stands for, or None.
    """
    reads = {id(var) for var, owner in zip(closed.jaxpr.constvars, owners) if owner is not None}
    readable = closed.replace(jaxpr=_rewrite(closed.jaxpr, reads, {}))
    return readable.pretty_print(use_color=False)  # plain text also where JAX would colour it


def legend(text, closed, owners):
    """``(name, description)`` for each constant of the program printed as ``text``."""
    header = _HEADER.search(text)  # the only header at the start of a line is the program's own
    if header is None:
        return []
    names = [part.split(":")[0] for part in header["consts"].split()]
    if len(names) != len(owners):
        return []
    rows = []
    for name, owner, value in zip(names, owners, closed.consts):
        if owner is not None:
            rows.append((name, f"Variable {owner.name!r} ({owner.dtype.name}{list(owner.shape)})"))
        else:
            rows.append((name, _constant_text(value)))
    return rows


def _rewrite(jaxpr, reads, memo):
    used = {id(v) for v in jaxpr.outvars}
    eqns = []
    for eqn in reversed(jaxpr.eqns):
        if eqn.outvars and not eqn.effects and not any(id(v) in used for v in eqn.outvars):
            continue  # e.g. a Variable read whose value nothing uses
        used.update(id(v) for v in eqn.invars)
        eqns.append(_renamed(eqn, reads, memo))
    return jaxpr.replace(eqns=eqns[::-1])


def _renamed(eqn, reads, memo):
    inner = _single_inner_eqn(eqn)
    if inner is not None:  # tanh, sqrt, abs ...: shown as the op, not as the gradient rule's wrapper
        return _renamed(inner, reads, memo)
    name = eqn.primitive.name
    if name == "optimization_barrier" and all(id(v) in reads for v in eqn.invars):
        return eqn.replace(primitive=_READ)
    if name == "debug_callback":
        return eqn.replace(primitive=_PRINT, params={})
    return eqn.replace(params={key: _param(value, memo) for key, value in eqn.params.items()})


def _single_inner_eqn(eqn):
    """For a ``custom_jvp_call`` wrapping one operation (companion's ops with TF's gradient rules),
    that operation on the call's own inputs and outputs; else None."""
    if eqn.primitive.name != "custom_jvp_call":  # a custom_gradient of the user's own stays visible
        return None
    closed = eqn.params.get("call_jaxpr")
    inner = getattr(closed, "jaxpr", closed)
    if (inner is None or getattr(closed, "consts", ()) or inner.constvars or len(inner.eqns) != 1
            or len(inner.invars) != len(eqn.invars)):
        return None
    only = inner.eqns[0]
    if list(only.outvars) != list(inner.outvars):
        return None
    given = dict(zip(map(id, inner.invars), eqn.invars))
    if not all(isinstance(v, jex.Literal) or id(v) in given for v in only.invars):
        return None
    invars = [v if isinstance(v, jex.Literal) else given[id(v)] for v in only.invars]
    return only.replace(invars=invars, outvars=list(eqn.outvars))


def _param(value, memo):
    """Rewrites the programs inside an equation's parameters (once each, so shared ones stay shared)."""
    if isinstance(value, tuple):
        return tuple(_param(v, memo) for v in value)
    if not isinstance(value, (jex.ClosedJaxpr, jex.Jaxpr)):
        return value
    if id(value) not in memo:
        if isinstance(value, jex.ClosedJaxpr):
            memo[id(value)] = value.replace(jaxpr=_rewrite(value.jaxpr, set(), memo))
        else:
            memo[id(value)] = _rewrite(value, set(), memo)
    return memo[id(value)]


def _constant_text(value):
    array = np.asarray(value)
    if array.ndim == 0:
        return f"constant {array.item()!r} ({array.dtype}[])"
    if array.size <= 6:
        return f"constant {np.array2string(array, separator=', ')} ({array.dtype}{list(array.shape)})"
    return f"constant ({array.dtype}{list(array.shape)})"
