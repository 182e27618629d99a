"""``companion.strings``: TensorFlow's ``tf.strings`` ops on string tensors.

String tensors hold NumPy object arrays of ``bytes`` (XLA has no string type), so these ops run in
NumPy on values known when they are called: eagerly, in `Dataset` transformations, or inside a
`function` on strings known while tracing (constants, inputs). Inside a `function`, an op given
a number computed by the program (``as_string(x)``) is deferred to the host: it gives a string
tensor whose text is built after the program runs (returned, printed with `companion.print`, or
chosen by an `if` on a tensor); see `companion._core._host_value`. ``split``/``unicode_decode``
of a vector return a `companion.RaggedTensor` (rows of different lengths), as TF does; the
elementwise ops (``substr``, ``upper``, ``to_hash_bucket_fast``, ``join``, ...) take RaggedTensors
and keep their rows.
"""

from companion.ragged._ragged_tensor import RaggedTensor
from companion.strings import _hash, _join, _ngrams, _numbers, _split, _transform
from companion.strings._on_host import on_host
from companion.strings._ragged import elementwise_on_rows, joined_rows

# ops that may be deferred to the host when given run-time values inside a function
as_string = elementwise_on_rows(on_host(_numbers.as_string))
to_number = elementwise_on_rows(on_host(_numbers.to_number))
format = on_host(_join.format)  # noqa: A001 - TF's name
join = joined_rows(on_host(_join.join))
reduce_join = on_host(_join.reduce_join)
length = elementwise_on_rows(on_host(_transform.length))
lower = elementwise_on_rows(on_host(_transform.lower))
upper = elementwise_on_rows(on_host(_transform.upper))
regex_full_match = elementwise_on_rows(on_host(_transform.regex_full_match))
regex_replace = elementwise_on_rows(on_host(_transform.regex_replace))
strip = elementwise_on_rows(on_host(_transform.strip))
substr = elementwise_on_rows(on_host(_transform.substr))
to_hash_bucket_fast = elementwise_on_rows(on_host(_hash.to_hash_bucket_fast))
# results shaped by the text: on run-time values these raise, saying to call them eagerly
split = on_host(_split.split, deferrable=False)
bytes_split = on_host(_split.bytes_split, deferrable=False)
unicode_decode = on_host(_split.unicode_decode, deferrable=False)
unicode_encode = on_host(_split.unicode_encode, deferrable=False)
unicode_split = on_host(_split.unicode_split, deferrable=False)
ngrams = on_host(_ngrams.ngrams, deferrable=False)

__all__ = [
    "RaggedTensor", "as_string", "bytes_split", "format", "join", "length", "lower", "ngrams", "reduce_join",
    "regex_full_match", "regex_replace", "split", "strip", "substr", "to_hash_bucket_fast", "to_number",
    "unicode_decode", "unicode_encode", "unicode_split", "upper",
]
