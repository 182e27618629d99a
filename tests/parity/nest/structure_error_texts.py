import collections

import tensorflow as tf

Point = collections.namedtuple("Point", ["x", "y"])
pairs = [([1, 2], [1, [2]]), ({"a": 1}, {"b": 1}), ([1, (2, 3)], [1, [2, 3]]), (Point(1, 2), (1, 2)),
         ((1, [2, 3]), (1, [2])), ({"a": [1]}, {"a": 1}), ([tf.constant(1)], [[1]]), ({"a": 1}, [1])]
for a, b in pairs:
    try:
        tf.nest.assert_same_structure(a, b)
    except (ValueError, TypeError) as e:
        print(type(e).__name__)
        print(e)
try:
    tf.nest.map_structure(lambda x, y: x + y, [1, 2], [1, 2, 3])
except ValueError as e:
    print(e)
for structure, flat in [([1, [2]], [1]), (1, [1, 2]), ([1], 5)]:
    try:
        tf.nest.pack_sequence_as(structure, flat)
    except (ValueError, TypeError) as e:
        print(type(e).__name__)
        print(e)
