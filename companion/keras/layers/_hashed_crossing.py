"""`HashedCrossing`: crosses of categorical features hashed into ``num_bins`` buckets, TF's ids.

TensorFlow's ``tf.sparse.cross_hashed`` (which Keras 3's layer calls) starts from the key
``0xDECAFCAFFE`` and folds in each feature's hash with ``FingerprintCat64``; a string's hash is its
FarmHash ``Fingerprint64``, an integer's is its own 64 bits. The bucket is the result modulo
``num_bins``. Strings are hashed on the host; integer features may be traced.
"""

import jax
import jax.numpy as jnp
import numpy as np

from companion._core import _dtypes
from companion._core._convert import as_input
from companion._core._op import op
from companion._ops._array import stack
from companion._ops._math import cast
from companion.keras.layers._category_encoding import _encode
from companion.keras.layers._layer import Layer
from companion.strings._farmhash import fingerprint64
from companion.strings._values import each, number_tensor, strings_of

_HASH_KEY = 0xDECAFCAFFE
_MUL = 0xC6A4A7935BD1E995


def _shift_mix(v):
    return v ^ (v >> jnp.uint64(47))


@op("hashed_crossing", static=("num_bins",))
def _cross(hashes, num_bins):
    """``hashes`` (features first, int64 bits) folded with TF's ``FingerprintCat64``, modulo ``num_bins``."""
    hashes = jax.lax.bitcast_convert_type(hashes, jnp.uint64)
    mul = jnp.uint64(_MUL)
    result = jnp.full(hashes.shape[1:], _HASH_KEY, jnp.uint64)
    for feature in hashes:
        result = result ^ mul
        result = result ^ (_shift_mix(feature * mul) * mul)
        result = result * mul
        result = _shift_mix(result) * mul
        result = _shift_mix(result)
    return (result % jnp.uint64(num_bins)).astype(jnp.int64)


def _feature_hash(tensor):
    """A string feature's Fingerprint64 (host), an integer feature's value, as int64 bits."""
    if tensor.dtype == _dtypes.string:
        fingerprints = each(lambda s: fingerprint64(s if isinstance(s, bytes) else str(s).encode()),
                            strings_of(tensor, "HashedCrossing"), otypes=np.uint64)
        return number_tensor(fingerprints.view(np.int64), _dtypes.int64)
    return cast(tensor, _dtypes.int64)


class HashedCrossing(Layer):
    """Hashes the cross of two or more categorical features into ``num_bins`` bins (TF's bucket ids).

    Each input is a string or integer tensor of shape ``()``, ``(batch,)`` or ``(batch, 1)``, all
    alike. ``output_mode="int"`` returns the bin ids (int64); ``"one_hot"`` one-hot vectors.

    Example:
        >>> import companion as tf
        >>> layer = tf.keras.layers.HashedCrossing(num_bins=5)
        >>> layer((tf.constant([1, 2]), tf.constant([3, 4]))).numpy()
        array([1, 2])
    """

    def __init__(self, num_bins, output_mode="int", sparse=False, name=None, dtype=None, **kwargs):
        if output_mode == "int" and dtype is None:
            dtype = "int64"
        super().__init__(name=name, dtype=dtype, **kwargs)
        if sparse:
            raise ValueError("HashedCrossing(sparse=True) is not supported by companion (no sparse tensors); "
                             "use sparse=False. Received: sparse=True")
        if output_mode not in ("int", "one_hot"):
            raise ValueError("Unknown value for `output_mode` argument of HashedCrossing. Allowed values "
                             f"are: ('int', 'one_hot'). Received: output_mode={output_mode}")
        if isinstance(num_bins, bool) or not isinstance(num_bins, (int, np.integer)) or num_bins <= 0:
            raise ValueError(f"`num_bins` must be a positive integer. Received: num_bins={num_bins!r}")
        self.num_bins = int(num_bins)
        self.output_mode = output_mode
        self.sparse = False
        self._autocast = False

    def __call__(self, inputs, *args, **kwargs):
        _check_at_least_two_inputs(inputs)
        return super().__call__(list(inputs), *args, **kwargs)

    def build(self, input_shape):
        pass

    def call(self, inputs):
        inputs = [as_input(x) for x in inputs]
        _check_input_shape_and_type(inputs)
        ids = _cross(stack([_feature_hash(x) for x in inputs], axis=0), num_bins=self.num_bins)
        if self.output_mode == "int":
            return cast(ids, self._dtype)
        encoded = _encode(ids, as_input(1.0, _dtypes.float32), depth=self.num_bins, mode="one_hot")
        return cast(encoded, self._dtype)  # a scalar cross gives shape (1, num_bins), as in Keras

    def compute_output_shape(self, input_shape):
        if (len(input_shape) != 2 or not isinstance(input_shape[0], (tuple, list))
                or not isinstance(input_shape[1], (tuple, list))):
            raise ValueError("Expected as input a list/tuple of 2 tensors. "
                             f"Received input_shape={input_shape}")
        first = tuple(input_shape[0])
        if first[-1:] != tuple(input_shape[1])[-1:]:
            raise ValueError("Expected the two input tensors to have identical shapes. "
                             f"Received input_shape={input_shape}")
        if self.output_mode == "int":
            return first
        if first and first[-1] != 1:
            return first + (self.num_bins,)
        return first[:-1] + (self.num_bins,)

    def get_config(self):
        return {"num_bins": self.num_bins, "output_mode": self.output_mode, "sparse": self.sparse,
                "name": self.name, "dtype": self.dtype}


def _check_at_least_two_inputs(inputs):
    if not isinstance(inputs, (list, tuple)):
        raise ValueError(f"`HashedCrossing` should be called on a list or tuple of inputs. Received: "
                         f"inputs={inputs}")
    if len(inputs) < 2:
        raise ValueError("`HashedCrossing` should be called on at least two inputs. "
                         f"Received: inputs={inputs}")


def _check_input_shape_and_type(inputs):
    first = tuple(inputs[0].shape)
    if len(first) > 2 or (len(first) == 2 and first[-1] != 1):
        raise ValueError("All `HashedCrossing` inputs should have shape `()`, `(batch_size)` or "
                         f"`(batch_size, 1)`. Received: inputs={inputs}")
    if not all(tuple(x.shape) == first for x in inputs[1:]):
        raise ValueError(f"All `HashedCrossing` inputs should have equal shape. Received: inputs={inputs}")
    if not all(x.dtype.is_integer or x.dtype == _dtypes.string for x in inputs):
        raise ValueError("All `HashedCrossing` inputs should have an integer or string dtype (cast floats "
                         f"with tf.cast). Received dtypes: {[x.dtype.name for x in inputs]}")
