"""Harnesses of lecture lab L3 (input pipelines): a model of an epoch's time, and interleave's order.

Each call passes the case's plain values to the learner's function and returns what it gave back,
read as plain Python numbers (whatever numeric type held them). Nothing here computes the expected
values: those come from the solution notebook.
"""

from __future__ import annotations


def epoch_time(function, num_elements, open_s, read_s, train_s, prefetch) -> dict:
    """`epoch_time(num_elements, open_s, read_s, train_s, prefetch)`: the modelled seconds of one epoch."""
    seconds = function(int(num_elements), float(open_s), float(read_s), float(train_s), bool(prefetch))
    try:
        seconds = float(seconds)
    except (TypeError, ValueError):
        pass  # reported as a wrong type
    return {"seconds": seconds}


def interleave_order(function, lengths, cycle_length, block_length) -> dict:
    """`interleave_order(lengths, cycle_length, block_length)`: the (file, position) pairs in order."""
    found = function([int(n) for n in lengths], int(cycle_length), int(block_length))
    try:
        pairs = [[int(file), int(position)] for file, position in found]
    except (TypeError, ValueError):
        pairs = None
    return {"number of elements": None if pairs is None else len(pairs), "order": pairs}
