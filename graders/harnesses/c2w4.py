"""Harnesses of the Week 4 assignment (C2W4): distributed custom training under a MirroredStrategy.

Every case builds its own `MirroredStrategy` over the first `replicas` CPU devices (the grader gives
every child 4 forced host devices; the notebook forces them before `import companion`), a small
classifier with fixed weights created in that strategy's scope, and datasets of global batches whose
last batch does not split evenly over the replicas. Each result starts with the strategy's
`num_replicas_in_sync`, so code run with a single device cannot match the reference.

The step exercises are run the way the notebook runs them, one global batch at a time, and report
what the learner's code returned *per replica* and what it changed (the weights, the optimizer's
step count, the metrics' totals). An uneven last batch is where the distributed mistakes show: a loss
divided by the per-replica batch instead of the global one, replicas combined with MEAN instead of
SUM, or a step called without `strategy.run`.
"""

from __future__ import annotations

import numpy as np

import companion as tf
from graders._integrity import verify

IMAGE_SHAPE = (4, 4, 3)


def set_global_batch_size(function, batch_size_per_replica, replicas) -> dict:
    """`set_global_batch_size(batch_size_per_replica, strategy)` with a strategy of `replicas` devices."""
    strategy = mirrored_strategy(replicas)
    return {"replicas": strategy.num_replicas_in_sync,
            "global batch size": function(batch_size_per_replica, strategy)}


def distribute_datasets(function, replicas, train, validation, test, *, _verify=verify) -> dict:
    """`distribute_datasets(strategy, train_batches, validation_batches, test_batches)`.

    `train`, `validation` and `test` are `(ids, labels, batch_size)`: each dataset holds (id, label)
    pairs in batches. The result lists each returned dataset's batches as the ids of every replica's
    share, so the order of the three datasets and the strategy that split them both show.
    """
    strategy = mirrored_strategy(replicas)
    batches = [_batched(ids, labels, size) for ids, labels, size in (train, validation, test)]
    returned = function(strategy, *batches)
    result = {"replicas": strategy.num_replicas_in_sync, "returned": _shape_of_return(returned, 3)}
    datasets = tuple(returned) if result["returned"] == 3 else ()
    _verify()
    result["distributed datasets"] = [type(d) is tf.distribute.DistributedDataset for d in datasets]
    readable = len(datasets) == 3 and all(result["distributed datasets"])
    for index, name in enumerate(("train", "validation", "test")):
        result[f"{name} shares"] = _batch_shares(strategy, datasets[index]) if readable else None
    return result


def train_test_step_fns(function, replicas, global_batch_size, weights, train, test,
                        optimizer: str = "adam", *, _verify=verify) -> dict:
    """`train_test_step_fns(...)` with fresh objects, then its steps run by `strategy.run` on every batch.

    `train` and `test` are `(images, labels)`, batched with `global_batch_size`; `compute_loss` divides
    by `global_batch_size`, as the notebook's does. `optimizer` is "adam" (the notebook's) or "sgd" (an
    update proportional to the gradients, so a loss scaled wrongly moves the weights differently).
    """
    strategy = mirrored_strategy(replicas)
    objects = training_objects(strategy, weights, global_batch_size, optimizer)
    returned = function(strategy, objects["model"], objects["compute_loss"], objects["optimizer"],
                        objects["train_accuracy"], objects["loss_object"], objects["test_loss"],
                        objects["test_accuracy"])
    train_step, test_step = returned
    _verify()
    losses = []
    for batch in _distributed(strategy, train, global_batch_size):
        per_replica = strategy.run(train_step, args=(batch,))
        losses.append([_plain(v) for v in strategy.experimental_local_results(per_replica)])
    for batch in _distributed(strategy, test, global_batch_size):
        strategy.run(test_step, args=(batch,))
    return {"replicas": strategy.num_replicas_in_sync,
            "optimizer steps": int(objects["optimizer"].iterations.numpy()),
            "per-replica training losses": losses, "weights after training": _weights(objects["model"]),
            **_metric_totals(objects)}


def distributed_train_test_step_fns(function, replicas, global_batch_size, weights, train, test, *,
                                     _verify=verify) -> dict:
    """`distributed_train_test_step_fns(...)` given two probe step bodies, then its steps called per batch.

    The probes stand in for the learner's `train_step` and `test_step` (see `probe_steps`). Reported:
    what each call of the distributed training step returned, the metrics' totals, and whether the two
    returned callables are `tf.function`s.
    """
    strategy = mirrored_strategy(replicas)
    objects = training_objects(strategy, weights, global_batch_size, "sgd")
    train_step, test_step = probe_steps(objects)
    returned = function(strategy, train_step, test_step, objects["model"], objects["compute_loss"],
                        objects["optimizer"], objects["train_accuracy"], objects["loss_object"],
                        objects["test_loss"], objects["test_accuracy"])
    distributed_train_step, distributed_test_step = returned
    losses = [_plain(distributed_train_step(batch))
              for batch in _distributed(strategy, train, global_batch_size)]
    for batch in _distributed(strategy, test, global_batch_size):
        distributed_test_step(batch)
    _verify()
    return {"replicas": strategy.num_replicas_in_sync, "training losses": losses, **_metric_totals(objects),
            "tf.function": [compiled(step) for step in (distributed_train_step, distributed_test_step)]}


def compiled(step) -> bool:
    """Whether `step` is a `tf.function` that traced its Python code (an object of `Function`'s exact
    class: a subclass, or an object whose `__class__` claims it, could run the code eagerly)."""
    return type(step) is tf.Function and step.experimental_get_tracing_count() > 0


def mirrored_strategy(replicas: int):
    """A `MirroredStrategy` over the first `replicas` CPU devices (all of them when there are fewer)."""
    names = [device.name for device in tf.config.list_logical_devices("CPU")]
    return tf.distribute.MirroredStrategy(names[:int(replicas)])


def training_objects(strategy, weights, global_batch_size: int, optimizer: str) -> dict:
    """The notebook's objects, created in the strategy's scope: a classifier holding `weights`, an
    optimizer, a `Reduction.NONE` loss, `compute_loss` for `global_batch_size`, and three metrics."""
    with strategy.scope():
        loss_object = tf.keras.losses.SparseCategoricalCrossentropy(reduction=tf.keras.losses.Reduction.NONE)

        def compute_loss(labels, predictions):
            per_example_loss = loss_object(labels, predictions)
            return tf.nn.compute_average_loss(per_example_loss, global_batch_size=global_batch_size)

        objects = {
            "model": classifier([np.asarray(w) for w in weights]),
            "optimizer": tf.keras.optimizers.SGD(0.5) if optimizer == "sgd" else tf.keras.optimizers.Adam(),
            "loss_object": loss_object, "compute_loss": compute_loss,
            "train_accuracy": tf.keras.metrics.SparseCategoricalAccuracy(name="train_accuracy"),
            "test_loss": tf.keras.metrics.Mean(name="test_loss"),
            "test_accuracy": tf.keras.metrics.SparseCategoricalAccuracy(name="test_accuracy"),
        }
    return objects


def classifier(weights: list[np.ndarray]):
    """A small image classifier (Flatten, Dense relu, Dense softmax) holding `weights`."""
    model = tf.keras.Sequential([
        tf.keras.layers.Input(shape=IMAGE_SHAPE),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(weights[0].shape[-1], activation="relu"),
        tf.keras.layers.Dense(weights[2].shape[-1], activation="softmax"),
    ])
    model.set_weights(weights)
    return model


def probe_steps(objects: dict):
    """Step bodies for one replica that are not the exercise's: a forward pass that returns the loss it
    would train on, and a test pass that records the model's confidence in place of a loss."""
    model, compute_loss = objects["model"], objects["compute_loss"]

    def probe_train_step(inputs):
        images, labels = inputs
        predictions = model(images, training=True)
        objects["train_accuracy"].update_state(labels, predictions)
        return compute_loss(labels, predictions)

    def probe_test_step(inputs):
        images, labels = inputs
        predictions = model(images, training=False)
        objects["test_loss"].update_state(tf.reduce_max(predictions, axis=-1))
        objects["test_accuracy"].update_state(labels, predictions)

    return probe_train_step, probe_test_step


def fixture(seed: int, train_rows: int, test_rows: int, classes: int = 3, units: int = 8) -> dict:
    """Deterministic inputs of a step case: Glorot-uniform weights (small random biases), images in
    [0, 1) and labels in [0, classes), from `numpy.random.default_rng(seed)`."""
    rng = np.random.default_rng(seed)
    features = int(np.prod(IMAGE_SHAPE))
    weights = [_glorot(rng, (features, units)), rng.normal(0, 0.05, units).astype(np.float32),
               _glorot(rng, (units, classes)), rng.normal(0, 0.05, classes).astype(np.float32)]
    images = rng.uniform(size=(train_rows + test_rows, *IMAGE_SHAPE)).astype(np.float32)
    labels = rng.integers(0, classes, size=train_rows + test_rows).astype(np.int64)
    return {"weights": weights, "train": (images[:train_rows], labels[:train_rows]),
            "test": (images[train_rows:], labels[train_rows:])}


def _glorot(rng, shape):
    limit = np.sqrt(6.0 / sum(shape))
    return rng.uniform(-limit, limit, size=shape).astype(np.float32)


def _batched(ids, labels, batch_size):
    return tf.data.Dataset.from_tensor_slices((np.asarray(ids), np.asarray(labels))).batch(int(batch_size))


def _distributed(strategy, data, global_batch_size):
    images, labels = data
    dataset = tf.data.Dataset.from_tensor_slices((np.asarray(images), np.asarray(labels)))
    return strategy.experimental_distribute_dataset(dataset.batch(int(global_batch_size)))


def _batch_shares(strategy, dataset) -> list:
    """For each batch of a distributed dataset of (id, label) pairs: the ids of every replica's share."""
    return [[np.asarray(share) for share in strategy.experimental_local_results(ids)] for ids, _ in dataset]


def _shape_of_return(returned, count: int):
    """`count` when `returned` is a tuple or list of `count` items, else a description of it."""
    if type(returned) in (tuple, list):
        return count if len(returned) == count else f"{type(returned).__name__} of {len(returned)} items"
    return type(returned).__module__ + "." + type(returned).__qualname__


def _plain(value):
    """A tensor or None as itself; anything else (a PerReplica, a Python number) by its type name."""
    if value is None or issubclass(type(value), tf.Tensor):
        return value
    return type(value).__module__ + "." + type(value).__qualname__


def _metric_totals(objects: dict) -> dict:
    """Each metric's Variables (its running totals: correct predictions or summed values, and counts)."""
    return {f"{name.replace('_', ' ')} totals": [np.asarray(v) for v in objects[name].variables]
            for name in ("train_accuracy", "test_loss", "test_accuracy")}


def _weights(model) -> list[np.ndarray]:
    return [np.asarray(w) for w in model.get_weights()]
