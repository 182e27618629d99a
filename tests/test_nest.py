"""companion.nest against the rules and examples of TensorFlow's tf.nest documentation."""

import collections

import numpy as np
import pytest

import companion as tf

Point = collections.namedtuple("Point", "x y")


def test_is_nested():
    assert tf.nest.is_nested([1]) and tf.nest.is_nested((1,)) and tf.nest.is_nested({"a": 1})
    assert tf.nest.is_nested(Point(1, 2))
    for leaf in (None, 1, "ab", b"ab", np.ones(3), tf.constant([1, 2]), {1, 2}):
        assert not tf.nest.is_nested(leaf)


def test_flatten_follows_tf_rules():
    # from TF's documentation: dicts in sorted key order, OrderedDicts too, None is a leaf
    assert tf.nest.flatten({"key3": "value3", "key1": "value1", "key2": "value2"}) == \
        ["value1", "value2", "value3"]
    ordered = collections.OrderedDict([("key3", 3), ("key1", 1), ("key2", 2)])
    assert tf.nest.flatten(ordered) == [1, 2, 3]
    assert tf.nest.flatten(None) == [None] and tf.nest.flatten([None, (None,)]) == [None, None]
    assert tf.nest.flatten([[1, 2], (3, Point(4, [5]))]) == [1, 2, 3, 4, 5]
    t = tf.constant([1, 2])
    assert tf.nest.flatten(t)[0] is t
    with pytest.raises(TypeError, match="sortable keys"):
        tf.nest.flatten({1: "a", "b": 2})


def test_pack_sequence_as_restores_types_and_key_order():
    structure = {"b": Point(0, [0, 0]), "a": (0,), "c": collections.OrderedDict([("z", 0), ("y", 0)])}
    flat = list(range(6))
    packed = tf.nest.pack_sequence_as(structure, flat)
    assert packed == {"a": (0,), "b": Point(1, [2, 3]), "c": collections.OrderedDict([("z", 5), ("y", 4)])}
    assert list(packed["c"]) == ["z", "y"] and isinstance(packed["b"], Point)
    assert tf.nest.flatten(packed) == flat
    assert tf.nest.pack_sequence_as(7, ["leaf"]) == "leaf"
    with pytest.raises(ValueError, match="Structure had 6 atoms, but flat_sequence had 2 items"):
        tf.nest.pack_sequence_as(structure, [1, 2])


def test_map_structure():
    got = tf.nest.map_structure(lambda a, b: a * b, {"w": [1, 2], "v": 3}, {"w": [10, 20], "v": 4})
    assert got == {"w": [10, 40], "v": 12}
    tensors = tf.nest.map_structure(lambda x: None if x is None else tf.constant(x), [1.0, (2.0, None)])
    assert isinstance(tensors[1], tuple) and float(tensors[1][0]) == 2.0 and tensors[1][1] is None
    assert tf.nest.map_structure(lambda x: x is None, [None, 1]) == [True, False]
    with pytest.raises(TypeError, match="same sequence type"):
        tf.nest.map_structure(lambda a, b: a, [1], (1,))
    assert tf.nest.map_structure(lambda a, b: a + b, [1], (2,), check_types=False) == [3]


def test_assert_same_structure():
    tf.nest.assert_same_structure((1, [2, {"k": 3}]), ("a", ["b", {"k": None}]))
    other_point = collections.namedtuple("Point", "x y")
    tf.nest.assert_same_structure(Point(1, 2), other_point(3, 4))  # same name and fields
    with pytest.raises(ValueError, match="same number of elements"):
        tf.nest.assert_same_structure([1, 2], [1, 2, 3])
    with pytest.raises(ValueError, match="same nested structure"):
        tf.nest.assert_same_structure([1, [2]], [1, 2])
    with pytest.raises(ValueError, match="same set of keys"):
        tf.nest.assert_same_structure({"a": 1}, {"b": 1})
    with pytest.raises(TypeError, match="same sequence type"):
        tf.nest.assert_same_structure(Point(1, 2), (1, 2))


def test_structure_errors_read_as_tfs():
    # TF 2.21's texts, whole: programs print them
    with pytest.raises(ValueError) as info:
        tf.nest.assert_same_structure([1, 2], [1, [2]])
    assert str(info.value) == (
        "The two structures don't have the same nested structure.\n\nFirst structure: type=list str=[1, 2]"
        "\n\nSecond structure: type=list str=[1, [2]]\n\nMore specifically: Substructure \"type=list "
        "str=[2]\" is a sequence, while substructure \"type=int str=2\" is not\nEntire first structure:\n"
        "[., .]\nEntire second structure:\n[., [.]]")
    with pytest.raises(ValueError) as info:
        tf.nest.assert_same_structure({"a": 1}, {"b": 1})
    assert "More specifically: The two dictionaries don't have the same set of keys. First structure has " \
           "keys type=list str=['a'], while second structure has keys type=list str=['b']\nEntire first " \
           "structure:\n{'a': .}\nEntire second structure:\n{'b': .}" in str(info.value)
    with pytest.raises(TypeError) as info:
        tf.nest.assert_same_structure(Point(1, 2), (1, 2))
    assert "More specifically: The two namedtuples don't have the same sequence type. First structure " \
           "type=Point str=Point(x=1, y=2) has type Point, while second structure type=tuple str=(1, 2) " \
           "has type tuple\nEntire first structure:\nPoint(x=., y=.)\n" in str(info.value)
    with pytest.raises(ValueError) as info:  # the differing substructures; tensors as TF's EagerTensor
        tf.nest.map_structure(lambda a, b: a, (1, [2, 3]), (1, [tf.constant(2)]))
    assert "More specifically: The two structures don't have the same number of elements. First structure: " \
           "type=list str=[2, 3]. Second structure: type=list str=[<tf.Tensor" in str(info.value).replace(
               "companion.", "tf.")
    with pytest.raises(ValueError) as info:
        tf.nest.assert_same_structure([tf.constant(1)], [[1]])
    assert 'substructure "type=EagerTensor str=tf.Tensor(1, shape=(), dtype=int32)" is not' in \
           str(info.value).replace("companion.", "tf.")
    with pytest.raises(ValueError) as info:
        tf.nest.pack_sequence_as([1, 2], [1, 2, 3])
    assert str(info.value) == ("Could not pack sequence. Structure had 2 atoms, but flat_sequence had 3 "
                               "items.  Structure: [1, 2], flat_sequence: [1, 2, 3].")
    with pytest.raises(TypeError) as info:
        tf.nest.pack_sequence_as([1], 5)
    assert str(info.value) == ("Attempted to pack value:\n  5\ninto a structure, but found incompatible "
                               "type `<class 'int'>` instead.")
