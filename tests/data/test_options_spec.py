"""Options, AUTOTUNE constants, element specs and reprs."""

import pytest

import companion as tf
from companion.data import AUTOTUNE, Dataset, DatasetSpec, Options, experimental
from tests.data.helpers import unfused, values


def test_autotune_constants():
    assert AUTOTUNE == experimental.AUTOTUNE == -1
    assert tf.data.INFINITE_CARDINALITY == -1 and tf.data.UNKNOWN_CARDINALITY == -2


def test_options_are_merged_along_the_pipeline():
    first, second = Options(), Options()
    first.deterministic = False
    second.threading.private_threadpool_size = 2
    ds = Dataset.range(3).with_options(first).map(lambda x: x).with_options(second)
    assert ds.options().deterministic is False
    assert ds.options().threading.private_threadpool_size == 2
    assert ds.options().experimental_deterministic is False


def test_unknown_options_are_an_attribute_error():
    with pytest.raises(AttributeError, match="no option 'determinstic'"):
        Options().determinstic = True


def test_auto_shard_policy_option():
    options = Options()
    options.experimental_distribute.auto_shard_policy = experimental.AutoShardPolicy.DATA
    assert Dataset.range(2).with_options(options).options().experimental_distribute.auto_shard_policy == 2


def test_turning_off_optimizations_gives_the_same_elements():
    ds = Dataset.range(10).shuffle(10, seed=3, reshuffle_each_iteration=False).map(lambda x: x * 2).batch(4)
    assert sorted(sum(values(unfused(ds)), [])) == list(range(0, 20, 2))


def test_element_spec_shapes_as_lists():
    ds = Dataset.from_tensor_slices(([[1, 2]], [[1.0]])).batch(1, drop_remainder=True)
    assert [s.shape.as_list() for s in ds.element_spec] == [[1, 2], [1, 1]]
    assert Dataset.range(3).element_spec == tf.TensorSpec(shape=(), dtype=tf.int64)


def test_window_spec_and_repr():
    spec = Dataset.range(4).window(2).element_spec
    assert isinstance(spec, DatasetSpec) and spec.element_spec == tf.TensorSpec([], tf.int64)
    assert repr(Dataset.range(3)) == (
        "<_RangeDataset element_spec=TensorSpec(shape=(), dtype=companion.int64, name=None)>")


def test_as_numpy_iterator_rejects_windows():
    with pytest.raises(TypeError, match="windows"):
        Dataset.range(4).window(2).as_numpy_iterator()


def test_datasets_are_truthy_even_when_infinite():
    assert bool(Dataset.range(3).repeat())
