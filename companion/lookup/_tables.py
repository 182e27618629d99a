"""Hash tables of `companion.lookup`: `StaticHashTable`, `StaticVocabularyTable` and the mutable
`MutableHashTable`.

Numeric keys with numeric values are looked up by one op (a sorted-key search), so lookups run
inside `function` on computed keys and in compiled dataset pipelines; string keys or values are
looked up on the host (companion's strings live in NumPy), as the string ops are.
"""

import jax.numpy as jnp
import numpy as np

from companion._core import _dtypes
from companion._core._convert import as_input, constant, is_tensor
from companion._core._errors import InvalidArgumentError, RuntimeCheckError
from companion._core._op import op
from companion._ops._select import where
from companion.lookup._initializers import _array
from companion.strings._hash import to_hash_bucket_fast
from companion.strings._numbers import as_string


@op("lookup_table_find")
def _find(sorted_keys, values, default, query):
    if sorted_keys.shape[0] == 0:
        return jnp.broadcast_to(default, query.shape).astype(values.dtype)
    position = jnp.clip(jnp.searchsorted(sorted_keys, query), 0, sorted_keys.shape[0] - 1)
    return jnp.where(sorted_keys[position] == query, values[position], default).astype(values.dtype)


class _Table:
    """Shared by the tables: a host dict (for strings) and sorted arrays (for the numeric op)."""

    def _fill(self, keys, values, key_dtype, value_dtype, default_value):
        self._key_dtype, self._value_dtype = key_dtype, value_dtype
        self._default = as_input(default_value, value_dtype)
        if self._default.shape.rank != 0:
            raise ValueError(f"{type(self).__name__}: default_value must be a scalar. Received shape "
                             f"{self._default.shape.as_list()}")
        self._set(keys, values)

    def _set(self, keys, values):
        self._map = dict(zip(keys.tolist(), values.tolist()))
        self._refresh()

    def _refresh(self):
        keys = _array(list(self._map), self._key_dtype)
        values = _array(list(self._map.values()), self._value_dtype)
        if self._numeric():
            order = np.argsort(keys, kind="stable")
            self._sorted_keys = constant(keys[order], dtype=self._key_dtype)
            self._sorted_values = constant(values[order], dtype=self._value_dtype)

    def _numeric(self):
        return self._key_dtype.name != "string" and self._value_dtype.name != "string"

    key_dtype = property(lambda self: self._key_dtype)
    value_dtype = property(lambda self: self._value_dtype)
    default_value = property(lambda self: self._default)
    name = property(lambda self: type(self).__name__)

    def size(self, name=None):
        """The number of entries (an int64 scalar)."""
        return constant(len(self._map), dtype=_dtypes.int64)

    def lookup(self, keys, name=None):
        """The value of each key (``default_value`` for missing keys), in the keys' shape."""
        keys = self._keys_input(keys)
        if self._numeric():
            return _find(self._sorted_keys, self._sorted_values, self._default, keys)
        return self._host_lookup(keys)

    def _keys_input(self, keys):
        keys = as_input(keys) if is_tensor(keys) else as_input(keys, self._key_dtype)
        if keys.dtype != self._key_dtype:
            raise TypeError(f"{self.name}.lookup: the keys must have the table's key dtype "
                            f"{self._key_dtype.name}. "
                            f"Received dtype {keys.dtype.name}")
        return keys

    def _host_lookup(self, keys):
        if keys.is_traced:
            raise TypeError(f"{self.name}.lookup: this table maps to or from strings, which companion looks "
                            f"up "
                            "on the host; the keys are computed inside a function. Look them up eagerly, or "
                            "in a Dataset.map.")
        query = np.asarray(keys.numpy())
        default = self._default.numpy()
        found = [self._map.get(k, default) for k in query.reshape(-1).tolist()]
        return constant(_array(found, self._value_dtype).reshape(query.shape), dtype=self._value_dtype)

    def __getitem__(self, keys):
        return self.lookup(keys)

    def export(self, name=None):
        """``(keys, values)``: every entry, as two vectors."""
        keys = _array(list(self._map), self._key_dtype)
        values = _array(list(self._map.values()), self._value_dtype)
        return constant(keys, dtype=self._key_dtype), constant(values, dtype=self._value_dtype)


class StaticHashTable(_Table):
    """An immutable key-value table, filled once from an initializer.

    Example:
        >>> import companion as tf
        >>> init = tf.lookup.KeyValueTensorInitializer(["apple", "kiwi"], [1, 2])
        >>> table = tf.lookup.StaticHashTable(init, default_value=-1)
        >>> table.lookup(tf.constant(["kiwi", "plum"])).numpy()
        array([ 2, -1], dtype=int32)
    """

    def __init__(self, initializer, default_value, name=None, experimental_is_anonymous=False):
        keys, values = initializer.pairs()
        if len(set(keys.tolist())) != len(keys):
            raise RuntimeCheckError("StaticHashTable: the initializer has a key twice (keys must be "
                                    "unique).")
        self._initializer = initializer
        self._fill(keys, values, initializer.key_dtype, initializer.value_dtype, default_value)


class StaticVocabularyTable:
    """Ids for a vocabulary: a key in the initializer's table gets its value; any other key one of
    ``num_oov_buckets`` ids after the vocabulary, chosen by TF's FarmHash of its text.

    Example:
        >>> import companion as tf
        >>> init = tf.lookup.KeyValueTensorInitializer(["a", "b"], tf.constant([0, 1], tf.int64))
        >>> table = tf.lookup.StaticVocabularyTable(init, num_oov_buckets=2)
        >>> int(table.size()), table.lookup(tf.constant(["b"])).numpy().tolist()
        (4, [1])
    """

    def __init__(self, initializer, num_oov_buckets, lookup_key_dtype=None, name=None,
                 experimental_is_anonymous=False):
        if int(num_oov_buckets) <= 0:
            raise ValueError(f"StaticVocabularyTable: num_oov_buckets must be > 0. Received "
                             f"{num_oov_buckets}. "
                             "Use StaticHashTable for a vocabulary without out-of-vocabulary ids.")
        self._buckets = int(num_oov_buckets)
        self._table = None
        if initializer is not None:
            if not initializer.value_dtype.is_integer:
                raise TypeError(f"StaticVocabularyTable: the initializer's values must be int64 ids. "
                                f"Received "
                                f"{initializer.value_dtype.name}")
            self._table = StaticHashTable(initializer, -1)
        dtype = lookup_key_dtype or (initializer.key_dtype if initializer is not None else _dtypes.string)
        self._key_dtype = _dtypes.as_dtype(dtype)
        if self._key_dtype == _dtypes.int32:
            self._key_dtype = _dtypes.int64

    key_dtype = property(lambda self: self._key_dtype)
    value_dtype = property(lambda self: _dtypes.int64)
    name = property(lambda self: "StaticVocabularyTable")

    def size(self, name=None):
        """The vocabulary's size plus the number of out-of-vocabulary buckets."""
        known = 0 if self._table is None else int(self._table.size())
        return constant(known + self._buckets, dtype=_dtypes.int64)

    def lookup(self, keys, name=None):
        """The id of each key (int64), in the keys' shape."""
        keys = as_input(keys) if is_tensor(keys) else as_input(keys, self._key_dtype)
        if keys.dtype == _dtypes.int32 and self._key_dtype == _dtypes.int64:
            keys = as_input(keys.numpy().astype(np.int64)) if not keys.is_traced else keys
        if keys.dtype != self._key_dtype:
            raise TypeError(f"StaticVocabularyTable.lookup: the keys must have dtype {self._key_dtype.name}. "
                            f"Received dtype {keys.dtype.name}")
        buckets = to_hash_bucket_fast(keys if keys.dtype.name == "string" else as_string(keys), self._buckets)
        if self._table is None:
            return buckets
        ids = self._table.lookup(keys)
        return where(ids != -1, ids, buckets + self._table.size())

    def __getitem__(self, keys):
        return self.lookup(keys)


class MutableHashTable(_Table):
    """A key-value table that can change: `insert`, `remove`, `lookup`, `export`.

    Example:
        >>> import companion as tf
        >>> table = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, default_value=-1)
        >>> table.insert(tf.constant(["a"]), tf.constant([5], tf.int64))
        >>> table.lookup(tf.constant(["a", "b"])).numpy().tolist()
        [5, -1]
    """

    def __init__(self, key_dtype, value_dtype, default_value, name="MutableHashTable", checkpoint=True,
                 experimental_is_anonymous=False):
        key_dtype, value_dtype = _dtypes.as_dtype(key_dtype), _dtypes.as_dtype(value_dtype)
        self._fill(_array([], key_dtype), _array([], value_dtype), key_dtype, value_dtype, default_value)

    def insert(self, keys, values, name=None):
        """Sets ``values`` for ``keys`` (same shape), replacing existing entries."""
        keys = self._keys_input(keys)
        values = as_input(values) if is_tensor(values) else as_input(values, self._value_dtype)
        if values.dtype != self._value_dtype or keys.shape != values.shape:
            raise InvalidArgumentError(f"MutableHashTable.insert: values must be {self._value_dtype.name} "
                                       f"with the "
                                       f"keys' shape {keys.shape.as_list()}. Received {values.dtype.name} "
                                       f"{values.shape.as_list()}")
        self._map.update(zip(np.asarray(keys.numpy()).reshape(-1).tolist(),
                             np.asarray(values.numpy()).reshape(-1).tolist()))
        self._refresh()

    def remove(self, keys, name=None):
        """Removes ``keys`` (missing keys are ignored)."""
        for key in np.asarray(self._keys_input(keys).numpy()).reshape(-1).tolist():
            self._map.pop(key, None)
        self._refresh()
