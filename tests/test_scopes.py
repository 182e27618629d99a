"""name_scope, init_scope, no_op/group, ensure_shape, get_static_value and timestamp."""

import time

import numpy as np
import pytest

import companion as tf


def test_name_scope_nests_and_restores():
    assert tf.get_current_name_scope() == ""
    with tf.name_scope("a") as outer:
        assert outer == "a/"
        with tf.name_scope("b") as inner:
            assert inner == "a/b/" and tf.get_current_name_scope() == "a/b"
        with tf.name_scope("root/") as absolute:
            assert absolute == "root/"
        assert tf.get_current_name_scope() == "a"
    assert tf.get_current_name_scope() == ""
    with pytest.raises(ValueError, match="not a valid scope name"):
        tf.name_scope("bad name!")


def test_control_helpers_return_none_and_init_scope_is_transparent():
    assert tf.no_op() is None
    assert tf.group(tf.constant(1), tf.constant(2), name="g") is None
    with tf.init_scope():
        v = tf.Variable(2.0)
    assert float(v) == 2.0


def test_ensure_shape():
    x = tf.zeros((2, 3))
    assert tf.ensure_shape(x, [None, 3]) is x
    with pytest.raises(tf.InvalidArgumentError, match=r"not compatible with expected shape \[2, 4\]"):
        tf.ensure_shape(x, [2, 4])
    staged = tf.function(lambda t: tf.ensure_shape(t, (None, 3)) * 2)
    np.testing.assert_array_equal(staged(tf.ones((1, 3))).numpy(), np.full((1, 3), 2.0))


def test_get_static_value():
    np.testing.assert_array_equal(tf.get_static_value(tf.constant([1, 2])), [1, 2])
    assert tf.get_static_value(7) == 7
    assert tf.get_static_value(tf.Variable(1.0)) is None
    seen = []

    @tf.function
    def probe(x):
        seen.append((tf.get_static_value(x), tf.get_static_value(tf.constant(3) + 1)))
        return x

    probe(tf.constant(1.0))
    # TF 2.21's graph knows only what its constant_value rules fold: not `constant + 1` (AddV2)
    assert seen[0] == (None, None)


def test_get_static_value_in_a_function_follows_tfs_graph_rules():
    # TF 2.21 (tensor_util.constant_value): Const, Shape, Size, Rank are known, and Cast, Pack,
    # ConcatV2, Fill, Equal, Range, StopGradient, Identity of known values; other ops are not
    seen = {}

    @tf.function
    def probe(x):
        c = tf.constant(3.0)
        for key, value in {"shape": tf.shape(x), "size": tf.size(x), "rank": tf.rank(x),
                           "cast": tf.cast(tf.shape(x), tf.float32), "stack": tf.stack([tf.size(x), 4]),
                           "concat": tf.concat([tf.shape(x), [5]], 0), "fill": tf.fill([2], 7),
                           "equal": tf.equal(tf.size(x), 2), "identity": tf.identity(c),
                           "range": tf.range(3), "stop_gradient": tf.stop_gradient(c),
                           "square": tf.square(c), "input_times_2": x * 2}.items():
            seen[key] = tf.get_static_value(value)
        return x

    probe(tf.constant([1.0, 2.0]))
    known = {"shape": [2], "size": 2, "rank": 1, "cast": [2.0], "stack": [2, 4], "concat": [2, 5],
             "fill": [7, 7], "equal": True, "identity": 3.0, "range": [0, 1, 2], "stop_gradient": 3.0}
    for key, value in known.items():
        np.testing.assert_array_equal(seen[key], value, err_msg=key)
    assert seen["square"] is None and seen["input_times_2"] is None


def test_timestamp_eager_and_at_run_time():
    before = time.time()
    stamp = tf.timestamp()
    assert stamp.dtype == tf.float64 and before <= float(stamp) <= time.time()
    staged = tf.function(lambda: tf.timestamp())
    first = float(staged())
    time.sleep(0.02)
    assert float(staged()) > first  # read when the program runs, not when it was traced


def test_control_dependencies_runs_its_block_in_order():
    v = tf.Variable(1.0)
    with tf.control_dependencies([v.assign_add(1.0)]):
        doubled = v * 2
    assert float(doubled) == 4.0
    with tf.control_dependencies(None):
        pass
    with pytest.raises(TypeError, match="list of tensors"):
        with tf.control_dependencies(tf.constant(1)):
            pass
