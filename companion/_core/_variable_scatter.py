"""Sparse writes to a Variable: ``scatter_nd_update``/``_add``/``_sub`` and ``scatter_update``/
``scatter_add``/``_sub``/``_max``/``_min``/``_mul``/``_div`` with `IndexedSlices`, as TF has them.

Each computes the new value with the matching ``tensor_scatter_nd_*`` rule (repeated indices add
up in the adding forms) and writes it the way ``assign`` does, eagerly and inside a function;
like ``assign`` they are not differentiable and return the Variable.
"""

import jax.numpy as jnp

from companion._core._indexed_slices import IndexedSlices
from companion._core._op import op
from companion._ops import _scatter


class ScatterMethods:
    """The scatter methods of `companion.Variable` (a mixin: ``self`` is the Variable)."""

    def scatter_nd_update(self, indices, updates, name=None):
        """Replaces the entries (or slices) at ``indices`` by ``updates``; returns the Variable.

        Example:
            >>> import companion as tf
            >>> v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
            >>> print(v.scatter_nd_update([[0, 0]], [5.0]).numpy())
            [[5. 2.]
             [3. 4.]]
        """
        return _write(self, _scatter.tensor_scatter_nd_update, indices, updates)

    def scatter_nd_add(self, indices, updates, name=None):
        """Adds ``updates`` at ``indices`` (repeated indices add up); returns the Variable."""
        return _write(self, _scatter.tensor_scatter_nd_add, indices, updates)

    def scatter_nd_sub(self, indices, updates, name=None):
        """Subtracts ``updates`` at ``indices`` (repeated indices add up); returns the Variable."""
        return _write(self, _scatter.tensor_scatter_nd_sub, indices, updates)

    def scatter_update(self, sparse_delta, use_locking=False, name=None):
        """Replaces the rows ``sparse_delta.indices`` by ``sparse_delta.values`` (an `IndexedSlices`).

        Example:
            >>> import companion as tf
            >>> w = tf.Variable([1, 2, 3, 4])
            >>> print(w.scatter_update(tf.IndexedSlices(tf.constant([10, 20]), tf.constant([0, 3]))).numpy())
            [10  2  3 20]
        """
        return _write_rows(self, _scatter.tensor_scatter_nd_update, sparse_delta, "scatter_update")

    def scatter_add(self, sparse_delta, use_locking=False, name=None):
        """Adds ``sparse_delta.values`` to the rows ``sparse_delta.indices`` (an `IndexedSlices`)."""
        return _write_rows(self, _scatter.tensor_scatter_nd_add, sparse_delta, "scatter_add")

    def scatter_sub(self, sparse_delta, use_locking=False, name=None):
        """Subtracts ``sparse_delta.values`` from the rows ``sparse_delta.indices``."""
        return _write_rows(self, _scatter.tensor_scatter_nd_sub, sparse_delta, "scatter_sub")

    def scatter_max(self, sparse_delta, use_locking=False, name=None):
        """Each row ``sparse_delta.indices[k]`` becomes ``maximum(row, sparse_delta.values[k])``."""
        return _write_rows(self, _scatter.tensor_scatter_nd_max, sparse_delta, "scatter_max")

    def scatter_min(self, sparse_delta, use_locking=False, name=None):
        """Each row ``sparse_delta.indices[k]`` becomes ``minimum(row, sparse_delta.values[k])``."""
        return _write_rows(self, _scatter.tensor_scatter_nd_min, sparse_delta, "scatter_min")

    def scatter_mul(self, sparse_delta, use_locking=False, name=None):
        """Multiplies the rows ``sparse_delta.indices`` by ``sparse_delta.values``."""
        return _write_rows(self, _multiply, sparse_delta, "scatter_mul")

    def scatter_div(self, sparse_delta, use_locking=False, name=None):
        """Divides the rows ``sparse_delta.indices`` by ``sparse_delta.values`` (integers: floor)."""
        return _write_rows(self, _divide, sparse_delta, "scatter_div")


@op("scatter_mul")
def _mul(tensor, indices, updates):
    return _scatter._where(tensor, indices).multiply(updates, mode="drop")


@op("scatter_div")
def _div(tensor, indices, updates):
    rows = _scatter._where(tensor, indices)
    if jnp.issubdtype(tensor.dtype, jnp.integer):  # TF's integer division truncates toward zero
        old = rows.get(mode="fill", fill_value=1)
        return rows.set(jnp.trunc(old / updates).astype(tensor.dtype), mode="drop")
    return rows.divide(updates, mode="drop")


def _multiply(tensor, indices, updates):
    tensor, indices, updates = _scatter._inputs(tensor, indices, updates, "scatter_mul")
    return _mul(tensor, indices, updates)


def _divide(tensor, indices, updates):
    tensor, indices, updates = _scatter._inputs(tensor, indices, updates, "scatter_div")
    return _div(tensor, indices, updates)


def _write(variable, scatter, indices, updates):
    new = scatter(variable._read(), indices, updates)
    variable._set_value(new._value)
    return variable._assigned_result()  # TF: the Variable, named 'UnreadVariable'


def _write_rows(variable, scatter, sparse_delta, what):
    if not isinstance(sparse_delta, IndexedSlices):
        raise TypeError(f"Variable.{what}: the argument `sparse_delta` must be a companion.IndexedSlices "
                        f"(values and the rows they go to). Received: {sparse_delta!r}. Wrap the update, "
                        "e.g. companion.IndexedSlices(values, indices), or use "
                        "scatter_nd_update/scatter_nd_add with explicit indices.")
    # deferred: the op layer is built on this module (an upward import is a cycle)
    from companion._ops._array import expand_dims

    values = sparse_delta.values
    if values.dtype != variable.dtype:
        raise ValueError(f"Variable.{what}: the update has dtype {values.dtype.name} but the variable "
                         f"{variable.name!r} has dtype {variable.dtype.name}. Cast the values with "
                         f"companion.cast(values, companion.{variable.dtype.name}).")
    return _write(variable, scatter, expand_dims(sparse_delta.indices, -1), values)
