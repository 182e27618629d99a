"""Two logical CPUs: replica context classes, merge_call, component Variables, the end of a
distributed iterator, and compute_average_loss's edge cases."""
import tensorflow as tf

cpus = tf.config.list_physical_devices("CPU")
tf.config.set_logical_device_configuration(cpus[0], [tf.config.LogicalDeviceConfiguration()] * 2)
strategy = tf.distribute.MirroredStrategy()
print(strategy.num_replicas_in_sync)


def merge_fn(s, value, extra=0.0):
    return s.reduce("SUM", value, axis=None) + extra


def replica_fn():
    ctx = tf.distribute.get_replica_context()
    x = tf.cast(ctx.replica_id_in_sync_group, tf.float32) + 1.0
    return ctx.merge_call(merge_fn, args=(x,), kwargs={"extra": 10.0}), x


merged, own = strategy.run(replica_fn)
print(merged)
print(own)
print(tf.function(lambda: strategy.run(replica_fn))()[0])
print(type(tf.distribute.OneDeviceStrategy("/cpu:0").run(
    lambda: tf.distribute.get_replica_context())).__name__)
print(type(tf.distribute.get_replica_context()).__name__)
print(tf.distribute.get_replica_context().merge_call(lambda s, v: (type(s).__name__, v), args=(1.0,)))

with strategy.scope():
    v = tf.Variable(1.0)
    w = tf.Variable([1.0, 2.0], aggregation=tf.VariableAggregation.MEAN)
v.assign(3.0)
print(v.values)
print(w.values[1])
print(type(v.values[0]).__name__, v.aggregation, w.aggregation, v.synchronization)

dataset = strategy.experimental_distribute_dataset(tf.data.Dataset.range(8).batch(4))
iterator = iter(dataset)
optional = iterator.get_next_as_optional()
print(optional.has_value())
print(optional.get_value())
print(iterator.get_next())
print(iterator.get_next_as_optional().has_value())
try:
    iterator.get_next()
except tf.errors.OutOfRangeError as e:
    print(type(e).__name__)


@tf.function
def first_batch(it):
    opt = it.get_next_as_optional()
    return opt.has_value(), opt.get_value()


print(first_batch(iter(dataset)))

print(tf.nn.compute_average_loss([1.0, 2.0], global_batch_size=0))
print(tf.nn.compute_average_loss(tf.zeros([0])))
for bad in [-2, 2.0]:
    try:
        tf.nn.compute_average_loss([1.0, 2.0], global_batch_size=bad)
    except (TypeError, tf.errors.InvalidArgumentError) as e:
        print(type(e).__name__)
try:
    tf.nn.compute_average_loss(2.0)
except ValueError as e:
    print(type(e).__name__)

print(dataset.element_spec)
print(dataset.cardinality)
pairs = strategy.experimental_distribute_dataset(
    tf.data.Dataset.from_tensor_slices(({"a": [[1.0]] * 8}, list(range(8)))).batch(4, drop_remainder=True))
print(pairs.element_spec)


@tf.function(input_signature=[pairs.element_spec])
def signed_step(batch):
    features, labels = batch
    print("traced signed_step")
    per_replica = strategy.run(lambda f, y: tf.reduce_sum(f["a"]) + tf.cast(tf.reduce_sum(y), tf.float32),
                               args=(features, labels))
    return strategy.reduce("SUM", per_replica, axis=None)


for batch in pairs:
    print(signed_step(batch))
try:
    signed_step(tf.constant([1, 2]))
except TypeError as e:
    print(type(e).__name__)
try:
    with strategy.scope():
        with tf.distribute.OneDeviceStrategy("/cpu:0").scope():
            pass
except RuntimeError as e:
    print(type(e).__name__)
