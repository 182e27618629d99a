"""The ragged implementations of dense ops, by op name (TF's ``dispatch_for_api`` table).

The dense ops (`companion._ops`) ask `companion._core._dispatch.dispatch` for the op's ragged
version when an argument is a RaggedTensor; this table answers.
"""

from companion.ragged import _array_ops, _like

RAGGED_APIS = {
    "concat": _array_ops.concat,
    "stack": _array_ops.stack,
    "expand_dims": _array_ops.expand_dims,
    "tile": _array_ops.tile,
    "gather": _array_ops.gather,
    "reverse": _array_ops.reverse,
    "embedding_lookup": _array_ops.embedding_lookup,
    "zeros_like": _like.zeros_like,
    "ones_like": _like.ones_like,
    "where": _like.where,
    "size": _like.size,
    "rank": _like.rank,
}
