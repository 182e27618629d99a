"""`parse_single_example` and `parse_example`: serialized ``tf.train.Example`` records to tensors.

Parsing runs on the host (protobuf decoding), like TensorFlow's parsing kernels: call it
eagerly or inside a ``Dataset.map``, not inside code staged by ``companion.function``.
"""

import numpy as np

from companion._core._convert import constant, is_tensor
from companion._core._errors import RuntimeCheckError
from companion.io._features import KIND_OF, FixedLenFeature, VarLenFeature
from companion.io._sparse_tensor import SparseTensor
from companion.train._example import message_class

_NUMPY = {"int64": np.int64, "float32": np.float32, "string": object}


def parse_single_example(serialized, features, example_names=None, name=None):
    """Parses one serialized ``tf.train.Example`` into a dict of tensors, as TensorFlow does.

    Args:
        serialized: the record: ``bytes`` or a scalar string tensor.
        features: a dict from feature name to `FixedLenFeature` (→ a dense tensor of its
            shape) or `VarLenFeature` (→ a 1-D `SparseTensor`). Features of the record that
            are not named here are ignored.

    Returns:
        A dict with the keys of ``features``.

    Raises:
        InvalidArgumentError: the record is not an Example, a required feature is missing,
            or a feature has the wrong kind or number of values.

    Example:
        >>> import companion as tf
        >>> record = tf.train.Example(features=tf.train.Features(feature={
        ...     "x": tf.train.Feature(float_list=tf.train.FloatList(value=[1.5, 2.5]))})).SerializeToString()
        >>> print(tf.io.parse_single_example(record, {"x": tf.io.FixedLenFeature([2], tf.float32)})["x"])
        companion.Tensor([1.5 2.5], shape=(2,), dtype=float32)
    """
    specs = _check_specs(features)
    example = _decode(_as_bytes(serialized), 0)
    out = {}
    for key, spec in specs.items():
        values = _values(example, key, spec, 0)
        if isinstance(spec, FixedLenFeature):
            out[key] = _dense(values, key, spec, 0)
        else:
            out[key] = _sparse_single(values, spec)
    return out


def parse_example(serialized, features, example_names=None, name=None):
    """Parses a batch (1-D string tensor or list) of serialized Examples, as ``tf.io.parse_example``.

    A `FixedLenFeature` becomes a dense tensor ``[batch, *shape]``; a `VarLenFeature` becomes
    a 2-D `SparseTensor` with ``dense_shape [batch, longest]``.

    Example:
        >>> import companion as tf
        >>> def record(n):
        ...     feature = {"n": tf.train.Feature(int64_list=tf.train.Int64List(value=[n]))}
        ...     return tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString()
        >>> spec = {"n": tf.io.FixedLenFeature([], tf.int64)}
        >>> print(tf.io.parse_example([record(1), record(2)], spec)["n"])
        companion.Tensor([1 2], shape=(2,), dtype=int64)
    """
    specs = _check_specs(features)
    records = _as_batch(serialized)
    examples = [_decode(record, i) for i, record in enumerate(records)]
    out = {}
    for key, spec in specs.items():
        rows = [_values(example, key, spec, i) for i, example in enumerate(examples)]
        if isinstance(spec, FixedLenFeature):
            out[key] = _stack([_dense_array(v, key, spec, i) for i, v in enumerate(rows)], spec)
        else:
            out[key] = _sparse_batch(rows, spec)
    return out


# -- private helpers ---------------------------------------------------------------------

def _check_specs(features):
    if not isinstance(features, dict) or not features:
        raise ValueError("features must be a non-empty dict from feature name to FixedLenFeature or "
                         f"VarLenFeature. Received: {features!r}")
    for key, spec in features.items():
        if not isinstance(spec, (FixedLenFeature, VarLenFeature)):
            raise TypeError(f"features[{key!r}] must be a FixedLenFeature or VarLenFeature. "
                            f"Received: {spec!r}")
    return features


def _as_bytes(serialized):
    if is_tensor(serialized):
        serialized = serialized.numpy()
    if isinstance(serialized, np.ndarray) and serialized.ndim == 0:
        serialized = serialized[()]
    if isinstance(serialized, str):
        serialized = serialized.encode("utf-8")
    if not isinstance(serialized, (bytes, bytearray)):
        raise TypeError(f"serialized must be one record: bytes or a scalar string tensor. Received "
                        f"{type(serialized).__name__}: {serialized!r:.80}. For a batch use parse_example.")
    return bytes(serialized)


def _as_batch(serialized):
    if is_tensor(serialized):
        serialized = serialized.numpy()
    array = np.asarray(serialized, dtype=object)
    if array.ndim != 1:
        raise ValueError(f"parse_example takes a 1-D batch of records. Received shape {array.shape}; "
                         "use parse_single_example for one record.")
    return [_as_bytes(record) for record in array]


def _decode(data, index):
    # deferred: protobuf loads on first use, kept off `import companion`
    from google.protobuf.message import DecodeError

    try:
        return message_class("Example").FromString(data)
    except DecodeError as err:
        raise RuntimeCheckError(
            f"Could not parse record {index} as a tf.train.Example ({err}). Received {len(data)} bytes "
            f"starting {data[:20]!r}. Parse only records written from Example.SerializeToString().") from None


def _values(example, key, spec, index):
    """The feature's values as a list, or None when the record lacks the feature."""
    if key not in example.features.feature:
        return None
    feature = example.features.feature[key]
    kind = feature.WhichOneof("kind")
    if kind is None:
        return []
    wanted = KIND_OF[spec.dtype.name]
    if kind != wanted:
        raise RuntimeCheckError(
            f"Key: {key}. Data types don't match in record {index}: the spec asks for {spec.dtype.name} "
            f"({wanted}) but the record holds a {kind}. Change the feature spec's dtype to match.")
    return list(getattr(feature, kind).value)


def _dense_array(values, key, spec, index):
    size = int(np.prod(spec.shape, dtype=np.int64))
    if values is None:
        if spec.default_value is None:
            raise RuntimeCheckError(
                f"Feature: {key} (data type: {spec.dtype.name}) is required but could not be found in "
                f"record {index}. Give the FixedLenFeature a default_value, or use VarLenFeature.")
        return _default_array(spec)
    if len(values) != size:
        raise RuntimeCheckError(
            f"Key: {key}. Can't parse serialized Example {index}: the spec's shape {list(spec.shape)} needs "
            f"{size} values but the record has {len(values)}. Use VarLenFeature for a varying length.")
    return np.array(values, dtype=_NUMPY[spec.dtype.name]).reshape(spec.shape)


def _default_array(spec):
    default = np.asarray(spec.default_value, dtype=_NUMPY[spec.dtype.name])
    if default.size == 1:
        return np.full(spec.shape, default.reshape(()).item(), dtype=default.dtype)
    return default.reshape(spec.shape)


def _dense(values, key, spec, index):
    return constant(_dense_array(values, key, spec, index), dtype=spec.dtype)


def _stack(arrays, spec):
    array = np.stack(arrays) if arrays else np.zeros((0, *spec.shape), dtype=_NUMPY[spec.dtype.name])
    return constant(array, dtype=spec.dtype)


def _sparse_single(values, spec):
    values = [] if values is None else values
    indices = np.arange(len(values), dtype=np.int64)[:, None]
    return SparseTensor(indices, _values_tensor(values, spec), [len(values)])


def _sparse_batch(rows, spec):
    rows = [[] if row is None else row for row in rows]
    indices = np.array([[b, i] for b, row in enumerate(rows) for i in range(len(row))], dtype=np.int64)
    longest = max((len(row) for row in rows), default=0)
    flat = [v for row in rows for v in row]
    return SparseTensor(indices.reshape(-1, 2), _values_tensor(flat, spec), [len(rows), longest])


def _values_tensor(values, spec):
    return constant(np.array(values, dtype=_NUMPY[spec.dtype.name]).reshape(-1), dtype=spec.dtype)
