"""``tf.train.Example`` and its parts as protobuf messages, wire-compatible with TensorFlow's.

The messages are built at first use from a descriptor written here in Python (the same
fields and numbers as TensorFlow's ``feature.proto`` and ``example.proto``), in a private
descriptor pool, so they never clash with a TensorFlow installed in the same process and
need no generated ``_pb2`` module. Bytes written by either library parse in the other.
"""

import functools

_PACKAGE = "tensorflow"
_MESSAGES = ("BytesList", "FloatList", "Int64List", "Feature", "Features", "FeatureList",
             "FeatureLists", "Example", "SequenceExample")

# field: (name, number, label, type, type_name); labels 1 = optional, 3 = repeated
_OPTIONAL, _REPEATED = 1, 3
_FLOAT, _INT64, _STRING, _MESSAGE, _BYTES = 2, 3, 9, 11, 12
_SCHEMA = {
    "BytesList": [("value", 1, _REPEATED, _BYTES, None)],
    "FloatList": [("value", 1, _REPEATED, _FLOAT, None)],
    "Int64List": [("value", 1, _REPEATED, _INT64, None)],
    "Feature": [("bytes_list", 1, _OPTIONAL, _MESSAGE, "BytesList"),
                ("float_list", 2, _OPTIONAL, _MESSAGE, "FloatList"),
                ("int64_list", 3, _OPTIONAL, _MESSAGE, "Int64List")],
    "Features": [("feature", 1, _REPEATED, _MESSAGE, "Features.FeatureEntry")],
    "FeatureList": [("feature", 1, _REPEATED, _MESSAGE, "Feature")],
    "FeatureLists": [("feature_list", 1, _REPEATED, _MESSAGE, "FeatureLists.FeatureListEntry")],
    "Example": [("features", 1, _OPTIONAL, _MESSAGE, "Features")],
    "SequenceExample": [("context", 1, _OPTIONAL, _MESSAGE, "Features"),
                        ("feature_lists", 2, _OPTIONAL, _MESSAGE, "FeatureLists")],
}
_MAPS = {"Features": ("FeatureEntry", "Feature"), "FeatureLists": ("FeatureListEntry", "FeatureList")}


def message_class(name):
    """The protobuf message class ``name`` (``"Example"``, ``"Feature"``, …), built once.

    Example:
        >>> from companion.train._example import message_class
        >>> Int64List = message_class("Int64List")
        >>> list(Int64List(value=[1, 2]).value)
        [1, 2]
    """
    if name not in _MESSAGES:
        raise AttributeError(f"companion.train has no message {name!r}. Available: {', '.join(_MESSAGES)}")
    return _classes()[name]


@functools.lru_cache(maxsize=None)
def _classes():
    # deferred: protobuf loads on first use, kept off `import companion`
    from google.protobuf import descriptor_pool, message_factory

    pool = descriptor_pool.DescriptorPool()
    pool.Add(_file_descriptor())
    return {name: message_factory.GetMessageClass(pool.FindMessageTypeByName(f"{_PACKAGE}.{name}"))
            for name in _MESSAGES}


def _file_descriptor():
    # deferred: protobuf loads on first use, kept off `import companion`
    from google.protobuf import descriptor_pb2

    proto = descriptor_pb2.FileDescriptorProto(
        name="companion/train/example.proto", package=_PACKAGE, syntax="proto3")
    for name in _MESSAGES:
        message = proto.message_type.add(name=name)
        for field in _SCHEMA[name]:
            _add_field(message, *field)
        if name in _MAPS:
            _add_map_entry(message, *_MAPS[name])
        if name == "Feature":  # bytes_list / float_list / int64_list are one `oneof kind`
            message.oneof_decl.add(name="kind")
            for field in message.field:
                field.oneof_index = 0
    return proto


def _add_field(message, name, number, label, type_, type_name):
    field = message.field.add(name=name, number=number, label=label, type=type_)
    if type_name:
        field.type_name = f".{_PACKAGE}.{type_name}"
    return field


def _add_map_entry(message, entry_name, value_type):
    entry = message.nested_type.add(name=entry_name)
    entry.options.map_entry = True
    _add_field(entry, "key", 1, _OPTIONAL, _STRING, None)
    _add_field(entry, "value", 2, _OPTIONAL, _MESSAGE, value_type)
