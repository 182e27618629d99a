"""``embedding_lookup``: rows of an embedding matrix gathered by integer ids; the sparse forms
(`embedding_lookup_sparse`, `safe_embedding_lookup_sparse`) combine the rows of each batch row."""

import functools

import jax
import jax.numpy as jnp
import numpy as np

from companion._core._convert import as_input
from companion._core._dispatch import dispatch
from companion._core._errors import RuntimeCheckError
from companion._core._op import op
from companion._ops._host_index_checks import checked_now
from companion._ops._math import cast
from companion._ops._nn import shape_of
from companion._ops._select import gather


@op("embedding_lookup", static=("max_norm",))
def _embedding_lookup(params, ids, max_norm):
    rows = jnp.take(params, ids, axis=0)  # out-of-range ids (possible only when traced) give NaN
    if max_norm is None:
        return rows
    axes = tuple(range(ids.ndim, rows.ndim))
    square_sum = jnp.sum(jnp.square(rows), axis=axes, keepdims=True)
    positive = square_sum > 0
    norm = jnp.where(positive, jnp.sqrt(jnp.where(positive, square_sum, 1)), 0)  # safe at 0
    return rows * max_norm / jnp.maximum(norm, max_norm)


def embedding_lookup(params, ids, max_norm=None, name=None):
    """The rows ``params[ids]``: one embedding vector per id.

    Args:
        params: a tensor (or a list holding one tensor) of shape ``[vocabulary, ...]``.
        ids: an integer tensor of any shape, values in ``[0, vocabulary)``.
        max_norm: if given, each looked-up row with a larger L2 norm is scaled down to it.

    Returns:
        A tensor of shape ``ids.shape + params.shape[1:]``. Gradients flow to ``params``.

    Raises:
        InvalidArgumentError: (eager only) an id is out of range. Inside a staged function
            an out-of-range id gives a row of NaN instead.

    Example:
        >>> import companion as tf
        >>> table = tf.constant([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]])
        >>> print(tf.nn.embedding_lookup(table, [2, 0]))
        companion.Tensor(
        [[2. 2.]
         [0. 0.]], shape=(2, 2), dtype=float32)
    """
    ragged = dispatch("embedding_lookup", [ids], params, ids, max_norm)
    if ragged is not NotImplemented:  # TF dispatches ragged ids to tf.ragged's lookup
        return ragged
    params = _single_table(params)
    ids = _check_ids(params, as_input(ids))
    return _embedding_lookup(params, ids, max_norm=None if max_norm is None else float(max_norm))


def _single_table(params):
    if isinstance(params, (list, tuple)):
        if len(params) != 1:
            raise ValueError("embedding_lookup supports a single embedding table (sharded tables are not "
                             f"supported). Received a list of {len(params)} tables: concatenate them "
                             "with companion.concat(params, axis=0).")
        params = params[0]
    params = as_input(params)
    if params.ndim == 0:
        raise ValueError(f"embedding_lookup: params must have rank 1 or more. Received a scalar: {params!s}")
    return params


def _check_ids(params, ids):
    if not ids.dtype.is_integer:
        raise TypeError(f"embedding_lookup: ids must be an integer tensor. Received dtype {ids.dtype.name}: "
                        f"{ids!s}. Cast it with companion.cast(ids, companion.int32).")
    if ids.is_traced:
        return ids
    return checked_now(ids, functools.partial(_check_id_range, rows=shape_of(params)[0]), params.is_traced)


def _check_id_range(values, rows):
    bad = np.argwhere((values < 0) | (values >= rows))
    if bad.size:
        where = tuple(int(i) for i in bad[0])
        position = f"ids{list(where)}" if where else "ids"
        raise RuntimeCheckError(f"embedding_lookup: {position} = {values[where]} is not in "
                                f"[0, {rows}): params has {rows} rows. Ids must index its first "
                                   "dimension.")


# -- sparse ids: one combined embedding per row ---------------------------------------------------

@op("embedding_combine", static=("rows", "combiner"))
def _combine(found, positions, weights, segments, rows, combiner):
    total = jax.ops.segment_sum(found[positions] * weights[:, None], segments, num_segments=rows)
    if combiner == "mean":
        scale = jax.ops.segment_sum(weights, segments, num_segments=rows)
    elif combiner == "sqrtn":
        scale = jnp.sqrt(jax.ops.segment_sum(weights * weights, segments, num_segments=rows))
    else:
        return total
    present = scale > 0
    return jnp.where(present[:, None], total / jnp.where(present, scale, 1)[:, None], 0)


@op("embedding_fill_rows", static=("rows",))
def _fill_rows(combined, default, segments, rows):
    filled = jax.ops.segment_sum(jnp.ones(segments.shape, combined.dtype), segments, num_segments=rows) > 0
    return jnp.where(filled[:, None], combined, default[None, :])


def _lookup_sparse(params, sp_ids, sp_weights, rows, combiner, max_norm, prune, op_name):
    """The looked-up rows (each distinct id once, as TF: a Variable's gradient is `IndexedSlices`)
    combined per row of ``sp_ids``."""
    if not hasattr(sp_ids, "indices") or not hasattr(sp_ids, "dense_shape"):
        raise TypeError(f"{op_name}: sp_ids must be a SparseTensor of ids (rows of a batch). Received: "
                        f"{type(sp_ids).__name__}")
    ids, segments = sp_ids.values, sp_ids.indices[:, 0]
    if not ids.dtype.is_integer:
        raise TypeError(f"{op_name}: sp_ids' values must be integer ids. Received dtype {ids.dtype.name}")
    if sp_weights is None:
        weights = as_input(np.ones(shape_of(ids), np.float64), params.dtype)
    elif shape_of(sp_weights.values) != shape_of(ids):
        raise ValueError(f"{op_name}: sp_weights must have one weight per id: {shape_of(ids)} ids, "
                         f"weights of shape {shape_of(sp_weights.values)}.")
    else:
        weights = as_input(sp_weights.values, params.dtype)
    if ids.is_traced or segments.is_traced:
        valid = ids >= 0
        weights = weights * cast(valid, params.dtype)
        clipped = ids * cast(valid, ids.dtype)
        found = embedding_lookup(params, clipped, max_norm)
        positions = as_input(np.arange(shape_of(ids)[0], dtype=np.int64))
    else:
        host_ids, host_segments = np.asarray(ids), np.asarray(segments)
        keep = host_ids >= 0 if prune else np.ones(host_ids.shape, bool)
        if not keep.all():
            weights = gather(weights, as_input(np.flatnonzero(keep).astype(np.int64)))
            host_ids, host_segments = host_ids[keep], host_segments[keep]
        distinct, first = np.unique(host_ids, return_index=True)
        order = np.argsort(first, kind="stable")  # TF's unique: first-appearance order
        distinct = distinct[order]
        lookup = {int(v): i for i, v in enumerate(distinct)}
        positions = as_input(np.asarray([lookup[int(v)] for v in host_ids], np.int64))
        found = embedding_lookup(params, as_input(distinct.astype(host_ids.dtype)), max_norm)
        segments = as_input(host_segments.astype(np.int64))
        if rows is None:
            rows = int(host_segments.max()) + 1 if host_segments.size else 0
    return _combine(found, positions, weights, segments, rows=rows, combiner=combiner), segments


def _combiner(combiner, op_name):
    if combiner not in ("sum", "mean", "sqrtn"):
        raise ValueError(f"{op_name}: combiner must be 'sum', 'mean' or 'sqrtn'. Received: {combiner!r}")
    return combiner


def embedding_lookup_sparse(params, sp_ids, sp_weights, combiner=None, max_norm=None, name=None,
                            allow_fast_lookup=False):
    """One embedding per row of the SparseTensor ``sp_ids`` (a batch of id lists): the row's
    embeddings combined by ``combiner`` ("mean" by default, "sum" or "sqrtn"), weighted by
    ``sp_weights``' values when given. As in TF, the result has one row per row index up to the
    largest one present (rows without ids are zeros), and a Variable table gets `IndexedSlices`
    gradients.

    Example:
        >>> import companion as tf
        >>> table = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
        >>> ids = tf.SparseTensor([[0, 0], [0, 1], [1, 0]], tf.constant([0, 2, 1], tf.int64), [2, 2])
        >>> print(tf.nn.embedding_lookup_sparse(table, ids, None, combiner="sum"))
        companion.Tensor(
        [[6. 8.]
         [3. 4.]], shape=(2, 2), dtype=float32)
    """
    op_name = "embedding_lookup_sparse"
    params = _single_table(params)
    if sp_ids.indices.is_traced:
        raise TypeError(f"{op_name}: the number of result rows is the largest row index present, which is "
                        "not known inside a function. Call it eagerly, or use safe_embedding_lookup_sparse "
                        "(one row per row of the dense shape).")
    combiner = _combiner(combiner or "mean", op_name)
    return _lookup_sparse(params, sp_ids, sp_weights, None, combiner, max_norm, False, op_name)[0]


def safe_embedding_lookup_sparse(embedding_weights, sparse_ids, sparse_weights=None, combiner="mean",
                                 default_id=None, max_norm=None, name=None, allow_fast_lookup=False):
    """`embedding_lookup_sparse` with one result row per row of ``sparse_ids``' dense shape: ids below
    0 are dropped, and rows without valid ids give zeros (or ``default_id``'s embedding)."""
    op_name = "safe_embedding_lookup_sparse"
    params = _single_table(embedding_weights)
    rows = int(sparse_ids.shape[0])
    combined, segments = _lookup_sparse(params, sparse_ids, sparse_weights, rows,
                                        _combiner(combiner, op_name), max_norm, True, op_name)
    if default_id is None:
        return combined
    return _fill_rows(combined, embedding_lookup(params, int(default_id), max_norm), segments, rows=rows)
