"""Between sparse and dense: `to_dense`, `from_dense`, `eye`."""

import jax.numpy as jnp
import numpy as np

from companion._core import _dtypes
from companion._core._convert import as_input, constant
from companion._core._errors import RuntimeCheckError
from companion._core._op import op
from companion._ops._select import gather_nd
from companion._ops._static import static_int
from companion.sparse._sparse_tensor import SparseTensor, as_sparse


@op("sparse_to_dense", static=("shape",))
def _scatter(indices, values, default, shape):
    dense = jnp.full(shape, default, dtype=values.dtype)
    return dense.at[tuple(indices.T)].set(values)


def check_indices(indices, shape, what):
    """TF's ``validate_indices``: every index in range, rows in row-major order without repeats."""
    if indices.size == 0:
        return
    bounds = np.asarray(shape, np.int64)
    bad = np.flatnonzero(((indices < 0) | (indices >= bounds)).any(axis=1))
    if bad.size:
        row = int(bad[0])
        raise RuntimeCheckError(f"{what}: indices[{row}] = {indices[row].tolist()} is out of bounds: need "
                                f"0 <= index < {bounds.tolist()}.")
    linear = np.ravel_multi_index(tuple(indices.T), tuple(int(d) for d in shape)) if bounds.size else \
        np.zeros(len(indices), np.int64)
    step = np.diff(linear)
    if (step <= 0).any():
        row = int(np.flatnonzero(step <= 0)[0]) + 1
        problem = "is repeated" if step[row - 1] == 0 else "is out of order"
        raise RuntimeCheckError(f"{what}: indices[{row}] = {indices[row].tolist()} {problem}. Many sparse "
                                "operations require sorted indices without repeats: use "
                                "companion.sparse.reorder first.")


def to_dense(sp_input, default_value=None, validate_indices=True, name=None):
    """The dense tensor of ``sp_input``: its values at its indices, ``default_value`` (0 or ``b''``)
    elsewhere.

    Raises:
        InvalidArgumentError (a ValueError): with ``validate_indices``, an index out of range,
            repeated, or out of row-major order (known eagerly).
    """
    sp = as_sparse(sp_input, "sparse.to_dense")
    shape = sp._shape
    if validate_indices and not sp.indices.is_traced:
        check_indices(sp.indices.numpy(), shape, "sparse.to_dense")
    if sp.dtype == _dtypes.string:
        dense = np.full(shape, b"" if default_value is None else default_value, dtype=object)
        dense[tuple(sp.indices.numpy().T)] = sp.values.numpy()
        return constant(dense)
    default = as_input(0 if default_value is None else default_value, sp.dtype)
    return _scatter(sp.indices, sp.values, default, shape=shape)


def from_dense(tensor, name=None):
    """The SparseTensor of ``tensor``'s non-zero (non-empty for strings) entries, in row-major order.

    Needs ``tensor``'s values (eager, or concrete while tracing): their count sets the result's size.

    Example:
        >>> import companion as tf
        >>> print(tf.sparse.from_dense([[0, 3], [4, 0]]).values)
        companion.Tensor([3 4], shape=(2,), dtype=int32)
    """
    tensor = as_input(tensor)
    if tensor.is_traced:
        raise TypeError("sparse.from_dense: the number of non-zero entries sets the result's size, and "
                        "this tensor is computed inside a function (XLA compiles fixed shapes). Call it "
                        f"eagerly. Received: {tensor!s}")
    array = tensor.numpy()
    present = array != (b"" if tensor.dtype == _dtypes.string else 0)
    indices = np.argwhere(present).astype(np.int64).reshape(-1, array.ndim)
    if tensor.dtype == _dtypes.string:
        return SparseTensor(indices, constant(array[present]), array.shape)
    return SparseTensor(indices, gather_nd(tensor, constant(indices)), array.shape)


def eye(num_rows, num_columns=None, dtype=_dtypes.float32, name=None):
    """The ``num_rows`` x ``num_columns`` identity as a SparseTensor (ones on the diagonal)."""
    rows = static_int(num_rows, "sparse.eye: num_rows")
    columns = rows if num_columns is None else static_int(num_columns, "sparse.eye: num_columns")
    diagonal = np.arange(min(rows, columns), dtype=np.int64)
    return SparseTensor(np.stack([diagonal, diagonal], axis=1), constant(np.ones(len(diagonal)), dtype=dtype),
                        [rows, columns])
