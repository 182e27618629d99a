"""Keras 3's ``rearrange`` (einops notation): a reshape into named axes, a transpose, and a reshape into
the output's axis groups, e.g. ``"b (h w) c -> b h w c"`` with ``h=4``."""

import math
import re

from companion._core._errors import InvalidArgumentError
from companion.keras.ops._base import tensor as _as_tensor
from companion.keras.ops._numpy import OPS as _NUMPY

__all__ = ["rearrange"]

_TOKEN = re.compile(r"\(([^)]*)\)|(\w+)|(\S)")


def _error(message):
    return InvalidArgumentError("keras.ops.rearrange: " + message)


def _groups(side, pattern):
    """``"b (h w) c"`` -> ``[["b"], ["h", "w"], ["c"]]``."""
    groups = []
    for inner, name, other in _TOKEN.findall(side):
        if other:
            raise _error(f"unexpected {other!r} in pattern {pattern!r}; use names, parenthesised groups "
                         "and a single '->'.")
        groups.append(inner.split() if inner or not name else [name])
    return groups


def _sizes(groups, shape, lengths, pattern):
    """The length of each named input axis, inferring at most one unknown per group."""
    if len(groups) != len(shape):
        raise _error(f"pattern {pattern!r} names {len(groups)} input axes but the tensor has shape "
                     f"{tuple(shape)}.")
    sizes = {}
    for group, dim in zip(groups, shape):
        unknown = [a for a in group if a not in lengths]
        if len(unknown) > 1:
            raise _error(f"cannot infer all of {unknown} in pattern {pattern!r}; pass all but one of them "
                         f"as keyword lengths (e.g. {unknown[0]}=...).")
        known = math.prod(lengths[a] for a in group if a in lengths)
        if dim % known or (not unknown and known != dim):
            raise _error(f"axis group {group} of pattern {pattern!r} does not fit the dimension {dim}; "
                         f"received lengths {lengths}.")
        sizes.update({a: lengths.get(a, dim // known) for a in group})
    return sizes


def rearrange(tensor, pattern, **axes_lengths):
    """Reorders, splits and merges axes as the einops ``pattern`` says (``"b h w c -> b (h w) c"``);
    ``axes_lengths`` gives the lengths of split axes."""
    x = _as_tensor(tensor)
    source, arrow, target = pattern.partition("->")
    if not arrow or "->" in target:
        raise _error(f"the pattern needs exactly one '->'; received {pattern!r}.")
    inputs, outputs = _groups(source, pattern), _groups(target, pattern)
    names_in = [a for g in inputs for a in g]
    names_out = [a for g in outputs for a in g]
    if sorted(names_in) != sorted(names_out) or len(set(names_in)) != len(names_in):
        raise _error(f"both sides of {pattern!r} must name the same axes, each once; received {names_in} "
                     f"and {names_out}.")
    sizes = _sizes(inputs, tuple(x.shape), dict(axes_lengths), pattern)
    x = _NUMPY["reshape"](x, [sizes[a] for a in names_in])
    x = _NUMPY["transpose"](x, [names_in.index(a) for a in names_out])
    return _NUMPY["reshape"](x, [math.prod(sizes[a] for a in g) for g in outputs])
