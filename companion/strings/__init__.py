"""``companion.strings``: TensorFlow's ``tf.strings`` ops on string tensors.

String tensors hold NumPy object arrays of ``bytes`` (XLA has no string type), so these ops run in
NumPy on values known when they are called: eagerly, in `Dataset` transformations, or inside a
`function` on strings known while tracing (constants, inputs). ``split``/``unicode_decode`` of a
vector return a `companion.RaggedTensor` (rows of different lengths), as TF returns ``tf.RaggedTensor``.
"""

from companion.ragged._ragged_tensor import RaggedTensor
from companion.strings._join import format, join, reduce_join
from companion.strings._numbers import as_string, to_number
from companion.strings._split import bytes_split, split, unicode_decode, unicode_encode, unicode_split
from companion.strings._transform import length, lower, regex_full_match, regex_replace, strip, substr, upper

__all__ = [
    "RaggedTensor", "as_string", "bytes_split", "format", "join", "length", "lower", "reduce_join",
    "regex_full_match", "regex_replace", "split", "strip", "substr", "to_number", "unicode_decode",
    "unicode_encode", "unicode_split", "upper",
]
