"""`Hashing`: categorical values (strings, integers) to ``num_bins`` buckets by TF's FarmHash
fingerprint, as Keras 3's layer computes them (integers are hashed as their decimal text)."""

from companion._core import _dtypes
from companion._core._convert import as_input
from companion._ops._creation import zeros_like
from companion._ops._math import cast, equal
from companion._ops._select import where
from companion.keras.layers._category_encoding import _encode
from companion.keras.layers._layer import Layer

_MODES = ("int", "one_hot", "multi_hot", "count")


class Hashing(Layer):
    """Buckets ``Fingerprint64(str(value)) % num_bins`` (TF's ``to_hash_bucket_fast``); with a
    ``mask_value`` that value maps to 0 and the others to 1..num_bins-1. ``output_mode`` ``"int"``
    gives the bucket ids (int64); ``"one_hot"``, ``"multi_hot"``, ``"count"`` encode them.

    Example:
        >>> import companion as tf
        >>> tf.keras.layers.Hashing(num_bins=3)([["A"], ["B"], ["C"], ["D"], ["E"]]).numpy().ravel().tolist()
        [1, 0, 1, 1, 2]
    """

    def __init__(self, num_bins, mask_value=None, salt=None, output_mode="int", sparse=False, **kwargs):
        if kwargs.get("dtype") is None:
            kwargs["dtype"] = "int64" if output_mode == "int" else "float32"
        super().__init__(**kwargs)
        if num_bins is None or num_bins <= 0:
            raise ValueError(f"The `num_bins` for `Hashing` cannot be `None` or non-positive values. "
                             f"Received: num_bins={num_bins}.")
        if output_mode not in _MODES:
            raise ValueError(f"Invalid value for argument `output_mode`. Expected one of {_MODES}. Received: "
                             f"output_mode={output_mode!r}")
        if salt is not None:
            raise ValueError("Hashing(salt=...) (TF's keyed SipHash, to_hash_bucket_strong) is not supported "
                             "by companion. Leave salt=None for TF's FarmHash buckets.")
        if sparse:
            raise ValueError("Hashing(sparse=True) is not supported by companion (no sparse tensors).")
        self.num_bins, self.mask_value, self.salt = int(num_bins), mask_value, None
        self.output_mode, self.sparse = output_mode, False
        self._autocast = False

    def call(self, inputs):
        # deferred: companion.strings is a lazy package (string ops on the host)
        from companion import strings

        values = as_input(inputs)
        if self.output_mode == "one_hot" and values.ndim and values.shape[-1] == 1:
            values = values[..., 0]
        bins = self.num_bins - 1 if self.mask_value is not None and self.num_bins > 1 else self.num_bins
        text = values
        if text.dtype.is_floating:
            text = cast(text, _dtypes.int64)
        if text.dtype != _dtypes.string:
            text = strings.as_string(text)
        ids = strings.to_hash_bucket_fast(text, bins)
        if self.mask_value is not None and self.num_bins > 1:
            ids = where(equal(values, self.mask_value), zeros_like(ids), ids + 1)
        if self.output_mode == "int":
            return ids
        return _encode(ids, as_input(1.0, self._dtype), depth=self.num_bins, mode=self.output_mode)

    def compute_output_shape(self, input_shape):
        shape = tuple(input_shape)
        if self.output_mode == "int":
            return shape
        if self.output_mode == "one_hot" and shape and shape[-1] != 1:
            return shape + (self.num_bins,)
        return shape[:-1] + (self.num_bins,)

    def get_config(self):
        return {**super().get_config(), "num_bins": self.num_bins, "salt": self.salt,
                "mask_value": self.mask_value, "output_mode": self.output_mode, "sparse": self.sparse}
