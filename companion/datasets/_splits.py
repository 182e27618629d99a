"""Split strings in the tfds style: ``'train'``, ``'train[:80%]'``, ``'train[10:20]+test'``, ``'all'``.

A spec is one or more parts joined by ``+``; each part is a split name with an optional
slice ``[from:to]`` whose bounds are example counts or percentages (``%``), possibly
negative (counted from the end). Percentages are turned into counts as tfds does by
default (``rounding='closest'``): ``bound = round(percent * num_examples / 100)`` with
Python's ``round`` (halves go to the even neighbour). So ``'train[:80%]'`` of 569
examples ends at ``round(455.2) = 455`` and ``'train[80%:]'`` starts there: the two
never overlap and together cover every example.
"""

import dataclasses
import re

_PART = re.compile(r"^\s*(?P<name>\w+)\s*(\[(?P<slice>[^\]]*)\])?\s*$")
_BOUND = re.compile(r"^\s*(?P<value>[+-]?\d+(\.\d+)?)?\s*(?P<unit>%)?\s*$")


class Split:
    """The standard split names (``Split.TRAIN == 'train'``), as ``tfds.Split``."""

    TRAIN = "train"
    VALIDATION = "validation"
    TEST = "test"
    ALL = "all"


@dataclasses.dataclass(frozen=True)
class Instruction:
    """Examples ``[start, stop)`` of the split ``name``."""

    name: str
    start: int
    stop: int

    @property
    def num_examples(self):
        return self.stop - self.start


def resolve(spec, sizes):
    """The `Instruction` list a split spec selects, given ``sizes`` (split name → num_examples).

    Example:
        >>> from companion.datasets._splits import resolve
        >>> resolve("train[:80%]", {"train": 569})
        [Instruction(name='train', start=0, stop=455)]
        >>> resolve("train[80%:90%]+test", {"train": 569, "test": 10})
        [Instruction(name='train', start=455, stop=512), Instruction(name='test', start=0, stop=10)]
    """
    if not isinstance(spec, str) or not spec.strip():
        raise TypeError(f"A split must be a string such as 'train' or 'train[:80%]'. Received: {spec!r}")
    instructions = []
    for part in spec.split("+"):
        instructions.extend(_resolve_part(part, spec, sizes))
    return instructions


def _resolve_part(part, spec, sizes):
    match = _PART.match(part)
    if not match:
        raise ValueError(f"Unrecognized split format: {spec!r}. Write a split name with an optional slice, "
                         "e.g. 'train', 'train[:80%]', 'train[80%:90%]', 'test[:100]', joined with '+'.")
    name, selector = match.group("name"), match.group("slice")
    if name == Split.ALL:
        if selector is not None:
            raise ValueError(f"'all' cannot be sliced ({spec!r}). Slice each split: "
                             f"{'+'.join(f'{n}[...]' for n in sizes)}.")
        return [Instruction(n, 0, size) for n, size in sizes.items()]
    if name not in sizes:
        raise ValueError(f"Unknown split {name!r} in {spec!r}. This data set has the splits {list(sizes)}.")
    total = sizes[name]
    if selector is None:
        return [Instruction(name, 0, total)]
    start, stop = _slice_bounds(selector, spec, total)
    return [Instruction(name, start, max(start, stop))]


def _slice_bounds(selector, spec, total):
    pieces = selector.split(":")
    if len(pieces) != 2:
        raise ValueError(f"Split slices need a colon: 'train[10:20]', 'train[:50%]'. Received: {spec!r}")
    bounds = [_BOUND.match(p) for p in pieces]
    if not all(bounds) or not any(b.group("value") for b in bounds):
        raise ValueError(f"Unrecognized split slice in {spec!r}: bounds are integers or percentages such as "
                         "'[:80%]' or '[100:200]'.")
    percent = any(b.group("unit") for b in bounds)
    start = _bound(bounds[0].group("value"), percent, total, 0, spec)
    stop = _bound(bounds[1].group("value"), percent, total, total, spec)
    return start, stop


def _bound(text, percent, total, default, spec):
    if text is None:
        return default
    value = float(text) if percent else _int(text, spec)
    if percent:
        if abs(value) > 100:
            raise ValueError(f"Percent slice bounds must be in [-100, 100]. Received {spec!r}.")
        value = int(round(value * total / 100.0))
    elif abs(value) > total:
        raise ValueError(f"Requested slice {spec!r} is incompatible with {total} examples.")
    return total + value if value < 0 else value


def _int(text, spec):
    if "." in text:
        raise ValueError(f"Absolute split bounds must be integers (use '%' for fractions). Received {spec!r}")
    return int(text)
