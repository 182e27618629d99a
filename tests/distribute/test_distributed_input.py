"""A distributed dataset's iterator on 2 forced CPU devices: element_spec, get_next_as_optional, an
iterator passed to a function (a partial last batch traces again), InputOptions. Values: TF 2.21's."""

import pytest

import companion as tf
from tests.distribute.replicas import run_with_devices

pytestmark = pytest.mark.slow

SOURCE = """
s = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
ds = tf.data.Dataset.from_tensor_slices(({"a": tf.zeros([8, 2])}, tf.ones([8]))).batch(4)
d = s.experimental_distribute_dataset(ds)
it = iter(d)
o = it.get_next_as_optional()
value = o.get_value()
d2 = s.experimental_distribute_dataset(tf.data.Dataset.range(10).batch(4))

@tf.function
def step(it):
    return s.run(lambda x: x + 1, args=(next(it),))

@tf.function
def pulled(it):
    return next(it)

it2 = iter(d2)
steps = [[v.numpy().tolist() for v in step(it2).values] for _ in range(3)]  # 4, 4, then 2 examples
returned = [v.numpy().tolist() for v in pulled(iter(d2)).values]

@tf.function
def optional(it):
    o = it.get_next_as_optional()
    return o.has_value(), s.run(lambda x: x * 2, args=(o.get_value(),))

present, doubled = optional(iter(d2))
end = iter(s.experimental_distribute_dataset(tf.data.Dataset.range(2).batch(2)))
next(end)
empty = end.get_next_as_optional()
try:
    empty.get_value()
    empty_error = None
except Exception as e:
    empty_error = type(e).__name__
try:
    s.experimental_distribute_dataset(tf.data.Dataset.range(10))
    scalar_error = None
except Exception as e:
    scalar_error = type(e).__name__
from_fn = s.distribute_datasets_from_function(lambda ctx: tf.data.Dataset.range(8).batch(2))
options = tf.distribute.InputOptions(experimental_fetch_to_device=False)
emit(spec=repr(d.element_spec), iter_spec=repr(it.element_spec), opt_spec=repr(o.element_spec),
     has=bool(o.has_value()), value=[v.numpy().tolist() for v in value[1].values], steps=steps,
     returned=returned, present=bool(present), doubled=[v.numpy().tolist() for v in doubled.values],
     empty=bool(empty.has_value()), empty_error=empty_error, scalar_error=scalar_error,
     from_fn=repr(from_fn.element_spec), options=repr(options),
     one=repr(tf.distribute.MirroredStrategy(["/cpu:0"]).experimental_distribute_dataset(ds).element_spec))
"""


def _spec(shape, dtype):
    return f"TensorSpec(shape={shape}, dtype=companion.{dtype}, name=None)"


def _per_replica(shape, dtype):
    return f"PerReplicaSpec({_spec(shape, dtype)}, {_spec(shape, dtype)})"


def test_distributed_iterator_as_tf():
    r = run_with_devices(SOURCE, devices=2)
    global_spec = (f"({{'a': {_per_replica('(None, 2)', 'float32')}}}, "
                   f"{_per_replica('(None,)', 'float32')})")
    assert r["spec"] == global_spec and r["iter_spec"] == global_spec
    assert r["opt_spec"] == (f"({{'a': {_per_replica('(2, 2)', 'float32')}}}, "
                             f"{_per_replica('(2,)', 'float32')})")
    assert r["has"] and r["value"] == [[1.0, 1.0], [1.0, 1.0]]
    assert r["steps"] == [[[1, 2], [3, 4]], [[5, 6], [7, 8]], [[9], [10]]]
    assert r["returned"] == [[0, 1], [2, 3]]
    assert r["present"] and r["doubled"] == [[0, 2], [4, 6]]
    assert not r["empty"] and r["empty_error"] == "InvalidArgumentError"
    assert r["scalar_error"] == "IndexError"
    assert r["from_fn"] == _per_replica("(None,)", "int64")
    assert r["options"] == ("InputOptions(experimental_fetch_to_device=False, experimental_replication_mode="
                            "<InputReplicationMode.PER_WORKER: 'PER_WORKER'>, "
                            "experimental_place_dataset_on_device=False, "
                            "experimental_per_replica_buffer_size=1)")
    assert r["one"] == f"({{'a': {_spec('(None, 2)', 'float32')}}}, {_spec('(None,)', 'float32')})"


def test_input_options_defaults():
    options = tf.distribute.InputOptions()
    assert options.experimental_fetch_to_device is True
    assert options.experimental_replication_mode is tf.distribute.InputReplicationMode.PER_WORKER
    with pytest.raises(TypeError):
        tf.distribute.InputOptions(foo=1)
