"""`RaggedTensor`: the rows of different lengths that `strings.split` and `unicode_decode` return.

A small stand-in for TF's ``tf.RaggedTensor`` (which companion does not implement as a whole): rank 2,
made of ``flat_values`` and ``row_splits``, printed, indexed and converted as TF does. It has no
ops of its own: turn it into a padded tensor with ``to_tensor`` or into lists with ``to_list``.
"""

import numpy as np

from companion._core import _dtypes
from companion._core._shape import TensorShape
from companion._core._tensor import Tensor


class RaggedTensor:
    """Rows of different lengths: ``flat_values`` cut at ``row_splits`` (TF's layout).

    Example:
        >>> import companion as tf
        >>> words = tf.strings.split(tf.constant(["a b", "c"]))
        >>> print(words, words.to_list())
        <companion.RaggedTensor [[b'a', b'b'], [b'c']]> [[b'a', b'b'], [b'c']]
    """

    def __init__(self, flat_values, row_splits):
        self._values = np.asarray(flat_values)
        self._splits = np.asarray(row_splits, dtype=np.int64)

    @classmethod
    def from_rows(cls, rows, dtype):
        """Builds one from a list of 1-D NumPy arrays."""
        splits = np.concatenate([[0], np.cumsum([len(r) for r in rows])]).astype(np.int64)
        flat = np.concatenate(rows) if rows else np.zeros(0)
        return cls(flat.astype(dtype._np) if dtype != _dtypes.string else flat.astype(object), splits)

    # -- what it is ------------------------------------------------------------------------
    @property
    def flat_values(self):
        return _tensor(self._values)

    values = flat_values

    @property
    def row_splits(self):
        return _tensor(self._splits)

    @property
    def dtype(self):
        return _dtypes.as_dtype(self._values.dtype)

    @property
    def shape(self):
        return TensorShape([len(self._splits) - 1, None])

    @property
    def ragged_rank(self):
        return 1

    def row_lengths(self):
        """The length of each row (int64)."""
        return _tensor(np.diff(self._splits))

    def nrows(self):
        return _tensor(np.int64(len(self._splits) - 1))

    # -- conversions ------------------------------------------------------------------------
    def to_list(self):
        """Nested Python lists of the elements (``bytes`` for strings)."""
        return [row.tolist() for row in self._rows()]

    def to_tensor(self, default_value=None):
        """A dense tensor, rows padded at the end with ``default_value`` (``b''`` or 0)."""
        rows = self._rows()
        width = max((len(r) for r in rows), default=0)
        fill = (b"" if self.dtype == _dtypes.string else 0) if default_value is None else default_value
        out = np.full((len(rows), width), fill, dtype=self._values.dtype)
        for i, row in enumerate(rows):
            out[i, :len(row)] = row
        return _tensor(out)

    def numpy(self):
        """An object array holding one NumPy array per row, as TF gives it."""
        out = np.empty(len(self._splits) - 1, dtype=object)
        out[:] = self._rows()
        return out

    def __getitem__(self, index):
        return _tensor(self._rows()[index])

    def __len__(self):
        return len(self._splits) - 1

    def __iter__(self):
        return (_tensor(row) for row in self._rows())

    def __repr__(self):
        return f"<companion.RaggedTensor {self.to_list()}>"

    def _rows(self):
        return [self._values[a:b] for a, b in zip(self._splits[:-1], self._splits[1:])]


def _tensor(array):
    import jax.numpy as jnp

    array = np.asarray(array)
    return Tensor(array.astype(object) if array.dtype.kind in "OSU" else jnp.asarray(array))
