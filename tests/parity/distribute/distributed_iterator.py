"""A distributed dataset on two replicas as the "Distributed input" guide uses it: element_spec,
InputOptions, an iterator passed to a function (next inside it, a partial last batch), and
get_next_as_optional eagerly and inside a function."""
import tensorflow as tf

cpus = tf.config.list_physical_devices("CPU")
tf.config.set_logical_device_configuration(cpus[0], [tf.config.LogicalDeviceConfiguration()] * 2)
strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])

features = tf.reshape(tf.range(16, dtype=tf.float32), [8, 2])
dataset = tf.data.Dataset.from_tensor_slices(({"x": features}, tf.range(8))).batch(4)
dist = strategy.experimental_distribute_dataset(
    dataset, options=tf.distribute.InputOptions(experimental_fetch_to_device=False))
print(dist.element_spec)
iterator = iter(dist)
print(iterator.element_spec)
optional = iterator.get_next_as_optional()
print(optional.has_value())
print(optional.element_spec)
print(optional.get_value()[1])
print(tf.distribute.InputOptions())


@tf.function
def step(it):
    return strategy.run(lambda x: x * 10, args=(next(it),))


numbers = iter(strategy.experimental_distribute_dataset(tf.data.Dataset.range(10).batch(4)))
for _ in range(3):  # 4, 4, then 2 examples: the last call traces again
    print(strategy.experimental_local_results(step(numbers)))


@tf.function
def peek(it):
    opt = it.get_next_as_optional()
    return opt.has_value(), strategy.run(lambda x: x + 1, args=(opt.get_value(),))


print(peek(iter(strategy.experimental_distribute_dataset(tf.data.Dataset.range(6).batch(6)))))

ending = iter(strategy.experimental_distribute_dataset(tf.data.Dataset.range(2).batch(2)))
print(next(ending))
print(ending.get_next_as_optional().has_value())
try:
    next(ending)
except StopIteration:
    print("StopIteration")
try:
    strategy.experimental_distribute_dataset(tf.data.Dataset.range(4))
except IndexError:
    print("IndexError")
