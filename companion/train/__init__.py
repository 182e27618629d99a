"""`companion.train`: TensorFlow's ``tf.train``: the ``Example`` protocol buffers (``Checkpoint`` to come).

The message classes are protobuf messages with TensorFlow's field names and numbers, built
on first use so that ``import companion`` does not import protobuf.

Example:
    >>> import companion as tf
    >>> example = tf.train.Example(features=tf.train.Features(feature={
    ...     "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[3]))}))
    >>> tf.train.Example.FromString(example.SerializeToString()).features.feature["label"].int64_list.value[0]
    3
"""

from companion.train import _example

_LAZY = ("BytesList", "Example", "Feature", "FeatureList", "FeatureLists", "Features", "FloatList",
         "Int64List", "SequenceExample")

__all__ = list(_LAZY)


def __getattr__(name):
    if name in _LAZY:
        cls = _example.message_class(name)
        globals()[name] = cls  # later look-ups skip this function
        return cls
    raise AttributeError(f"module 'companion.train' has no attribute {name!r}")


def __dir__():
    return sorted({*globals(), *__all__})
