"""``embedding_lookup``: rows of an embedding matrix gathered by integer ids."""

import jax.numpy as jnp
import numpy as np

from companion._core._convert import as_input
from companion._core._errors import InvalidArgumentError
from companion._core._op import op
from companion._ops._nn import shape_of


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
    params = _single_table(params)
    ids = as_input(ids)
    _check_ids(params, ids)
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
        return
    values = np.asarray(ids)
    rows = shape_of(params)[0]
    bad = np.argwhere((values < 0) | (values >= rows))
    if bad.size:
        where = tuple(int(i) for i in bad[0])
        position = f"ids{list(where)}" if where else "ids"
        raise InvalidArgumentError(f"embedding_lookup: {position} = {values[where]} is not in "
                                   f"[0, {rows}): params has {rows} rows. Ids must index its first "
                                   "dimension.")
