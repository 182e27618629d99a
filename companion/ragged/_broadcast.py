"""Broadcasting a dense operand against a RaggedTensor (TF's ragged elementwise broadcasting).

A dense operand whose rank fits inside the uniform inner dimensions of the flat values broadcasts
against them as it is. A larger one is padded with leading 1s to the ragged tensor's rank; each of
its dimensions at a ragged level must then be 1 (repeated across the rows) or the size of every row
there. Its entries are gathered once per flat value, so the op runs on the flat values and tapes
see the gather.
"""

import numpy as np

from companion._core._convert import as_input
from companion._core._errors import InvalidArgumentError
from companion._core._tensor import Tensor
from companion._ops._array import reshape
from companion._ops._select import gather


def broadcast_to_flat(template, value):
    """``value`` (dense) arranged to combine elementwise with ``template.flat_values``."""
    is_python = not (isinstance(value, Tensor) or getattr(value, "_is_variable", False))
    rank = np.ndim(value) if is_python else value.shape.rank
    inner_rank = template.flat_values.shape.rank - 1
    if rank <= inner_rank:
        return value
    dense = as_input(value, template.dtype) if is_python else value
    outer_rank = template.ragged_rank + 1
    full_rank = outer_rank + inner_rank
    if rank > full_rank:
        raise ValueError(f"A dense operand of rank {rank} (shape {dense.shape}) cannot broadcast against "
                         f"a RaggedTensor of rank {full_rank}; it may have at most that rank.")
    dims = [1] * (full_rank - rank) + dense.shape.as_list()
    index = _flat_index(template, dims[:outer_rank])
    table = reshape(dense, [int(np.prod(dims[:outer_rank], dtype=np.int64)), *dims[outer_rank:]])
    return gather(table, Tensor(index))


def _flat_index(template, outer_dims):
    """For each flat value of ``template``, its row in ``outer_dims`` (dims of 1 repeat)."""
    partitions = _partitions(template)
    coords = _coordinates(partitions)
    index = np.zeros(len(coords[0]), np.int64)
    for level, (dim, coord) in enumerate(zip(outer_dims, coords)):
        if dim != 1:
            _check_level(partitions, level, dim)
            index = index * dim + coord
    return index


def _partitions(template):
    """The row splits of every ragged level, outermost first (host arrays)."""
    out, node = [], template
    while hasattr(node, "_splits"):
        out.append(node._splits)
        node = node._values
    return out


def _coordinates(partitions):
    """Each flat value's index at every level: its top row, then its position within each row."""
    nvals = int(partitions[-1][-1])
    coords, ids = [], np.arange(nvals, dtype=np.int64)
    for splits in reversed(partitions):
        rows = np.repeat(np.arange(len(splits) - 1, dtype=np.int64), np.diff(splits))[ids]
        coords.append(ids - splits[rows])
        ids = rows
    coords.append(ids)
    return coords[::-1]


def _check_level(partitions, level, dim):
    """A dense dimension ``dim`` (not 1) must equal the number of rows, or every row's length."""
    sizes = [len(partitions[0]) - 1] if level == 0 else np.diff(partitions[level - 1]).tolist()
    if any(size != dim for size in sizes):
        where = "rows" if level == 0 else f"row lengths at ragged dimension {level}"
        raise InvalidArgumentError(f"Cannot broadcast a dense dimension of size {dim} against the {where} "
                                   f"{sorted(set(sizes))}; it must be 1 or equal every one of them.")
