"""Harnesses of the Week 3 assignment (C2W3): an image pipeline and a training loop compiled by `function`.

Type checks the course relies on (a companion `function`, an `Adam` optimizer, the loss and metric
classes) come back as plain data, class names and flags, and are judged in the grader's process.
Every other result is behaviour: what the learner's code computed from the case's inputs.

`train` is graded from what it *prints*. Its harness builds a small CNN with fixed weights and tiny
datasets from the case's arrays, compiles the learner's Python function afresh with
`companion.function`, calls it once while capturing stdout and stderr, and parses the log: the step
numbers, losses and accuracies of every "Step" line and of every validation line. A log printed from
plain Python (which a compiled loop prints once, while tracing) or written out by hand cannot give
those numbers, and notebook text (stored outputs) is never read.
"""

from __future__ import annotations

import contextlib
import io
import re

import jax
import numpy as np

import companion as tf
from graders._integrity import verify
from graders._values import type_name

CLASSES = 3
DEVICE = "/cpu:0"
TRAIN_LEARNING_RATE = 0.02  # the harness's own Adam: large enough that a few steps visibly train
_NUMBER = r"([-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|nan|inf))"
STEP_LINE = re.compile(rf"step\D*?(\d+)\D*?loss\D*?{_NUMBER}\D*?accuracy\D*?{_NUMBER}", re.IGNORECASE)
VALIDATION_LINE = re.compile(rf"val\w*\D*?loss\D*?{_NUMBER}\D*?accuracy\D*?{_NUMBER}", re.IGNORECASE)


MAP_FIELDS = ("map_fn is a companion function", "returned", "image", "label", "images mapped by Dataset.map")
PREPARE_FIELDS = ("returned", "train element spec", "train batch sizes", "train examples (sorted)",
                  "train images (sorted by example)", "train order changes between iterations",
                  "train batches mix examples", "train shuffled across all examples", "validation batches",
                  "validation images", "test batches", "test images")
ADAM_FIELDS = ("optimizer class", "is a Keras optimizer", "optimizer steps", "values after each step")
LOSS_FIELDS = ("returned", "loss classes", "two separate objects", "training loss on a batch",
               "validation loss on a batch")
ACCURACY_FIELDS = ("returned", "metric classes", "two separate objects", "training accuracy after its update",
                   "validation accuracy before its update", "validation accuracy after its update")


def map_fn(function, image, label, others) -> dict:
    """`map_fn(image, label)` called on one uint8 image and an int64 label, then used by `Dataset.map`
    on `others` (uint8 images of another size, labels 0, 1, ...)."""
    result = {"map_fn is a companion function": class_name(function)}
    returned = function(tf.constant(image), tf.constant(label))
    result["returned"] = _shape_of_return(returned, 2)
    if result["returned"] == 2:
        result["image"], result["label"] = returned
        dataset = tf.data.Dataset.from_tensor_slices((others, np.arange(len(others), dtype=np.int64)))
        result["images mapped by Dataset.map"] = [np.asarray(element[0]) for element in dataset.map(function)]
    return _complete(result, MAP_FIELDS)


def prepare_dataset(function, images, batch_size, sizes) -> dict:
    """`prepare_dataset(train, validation, test, num_examples, map_fn, batch_size)` on three datasets of
    (image, id) pairs cut from `images` by `sizes`, with a probe `map_fn` (see `probe_map`).

    Each example's label is its id (its position in its split), so the batches show which examples
    came in which order. The training set is iterated three times: an unshuffled, shuffled-after-
    batching or barely shuffled set gives other flags than one shuffled across all its examples.
    """
    splits = _splits(np.asarray(images), [int(size) for size in sizes])
    returned = function(*splits, int(sizes[0]), probe_map, int(batch_size))
    result = {"returned": _shape_of_return(returned, 3)}
    if result["returned"] == 3:
        result.update(_described_datasets(*returned, int(sizes[0])))
    return _complete(result, PREPARE_FIELDS)


def set_adam_optimizer(function, start, gradients, *, _verify=verify) -> dict:
    """`set_adam_optimizer()`, then the returned optimizer's steps on one Variable, from `start`, with
    each of `gradients` in turn (Adam's default hyperparameters show in the values)."""
    optimizer = function()
    _verify()
    result = {"optimizer class": class_name(optimizer),
              "is a Keras optimizer": issubclass(type(optimizer), tf.keras.optimizers.Optimizer)}
    if result["is a Keras optimizer"]:
        variable = tf.Variable(np.asarray(start, dtype=np.float32))
        values = []
        for gradient in gradients:
            optimizer.apply_gradients([(tf.constant(np.asarray(gradient, dtype=np.float32)), variable)])
            values.append(variable.numpy())
        result["optimizer steps"] = int(optimizer.iterations.numpy())
        result["values after each step"] = values
    return _complete(result, ADAM_FIELDS)


def set_sparse_cat_crossentropy_loss(function, labels, probabilities, *, _verify=verify) -> dict:
    """`set_sparse_cat_crossentropy_loss()`, then both losses on one batch of labels and probabilities."""
    returned = function()
    result = {"returned": _shape_of_return(returned, 2)}
    if result["returned"] == 2:
        train_loss, val_loss = returned
        _verify()
        result.update({"loss classes": [class_name(train_loss), class_name(val_loss)],
                       "two separate objects": train_loss is not val_loss,
                       "training loss on a batch": train_loss(labels, probabilities),
                       "validation loss on a batch": val_loss(labels, probabilities)})
    return _complete(result, LOSS_FIELDS)


def set_sparse_cat_crossentropy_accuracy(function, first, second, *, _verify=verify) -> dict:
    """`set_sparse_cat_crossentropy_accuracy()`; the training metric is updated with the `first` batch
    (labels, probabilities), then the validation one with the `second`: separate metrics keep
    separate counts."""
    returned = function()
    result = {"returned": _shape_of_return(returned, 2)}
    if result["returned"] == 2:
        train_accuracy, val_accuracy = returned
        _verify()
        result.update({"metric classes": [class_name(train_accuracy), class_name(val_accuracy)],
                       "two separate objects": train_accuracy is not val_accuracy})
        train_accuracy.update_state(*first)
        result["validation accuracy before its update"] = float(val_accuracy.result())
        val_accuracy.update_state(*second)
        result.update({"training accuracy after its update": train_accuracy.result(),
                       "validation accuracy after its update": val_accuracy.result()})
    return _complete(result, ACCURACY_FIELDS)


def train_one_step(function, weights, images, labels) -> dict:
    """`train_one_step(model, Adam(), x, y, SparseCategoricalCrossentropy(), SparseCategoricalAccuracy())`
    once, on a CNN with fixed weights whose BatchNormalization layer behaves differently in training."""
    model = classifier(weights, np.shape(images)[1:])
    optimizer = tf.keras.optimizers.Adam()
    accuracy = tf.keras.metrics.SparseCategoricalAccuracy()
    loss = function(model, optimizer, tf.constant(images), tf.constant(labels),
                    tf.keras.losses.SparseCategoricalCrossentropy(), accuracy)
    return {"optimizer steps": int(optimizer.iterations.numpy()),
            "BatchNormalization moving statistics": _moving_statistics(model),
            "training accuracy totals": [np.asarray(v) for v in accuracy.variables],
            "returned loss": loss,
            "weights after the step": _trainable(model)}


def train(function, weights, train_data, valid_data, batch_size, epochs, *, _verify=verify) -> dict:
    """`train(model, optimizer, epochs, device, train_ds, ...)` compiled afresh and called once.

    The learner's Python function (`train.python_function`) is wrapped in a new `companion.function`,
    so the notebook's earlier calls (which created its own Variables) do not matter. The datasets are
    batched and not shuffled; the optimizer is Adam with a larger learning rate. What was printed is
    parsed line by line; the result also holds what the loop changed.
    """
    result = {"train is a companion function": class_name(function)}
    eagerly = tf.config.functions_run_eagerly()
    compiled = tf.function(getattr(function, "python_function", function))
    model = classifier(weights, np.shape(train_data[0])[1:])
    optimizer = tf.keras.optimizers.Adam(learning_rate=TRAIN_LEARNING_RATE)
    train_accuracy, val_accuracy = (tf.keras.metrics.SparseCategoricalAccuracy() for _ in range(2))
    log = io.StringIO()
    with contextlib.redirect_stdout(log), contextlib.redirect_stderr(log):
        returned = compiled(model, optimizer, int(epochs), DEVICE, _batched(train_data, batch_size),
                            tf.keras.losses.SparseCategoricalCrossentropy(), train_accuracy,
                            _batched(valid_data, batch_size), tf.keras.losses.SparseCategoricalCrossentropy(),
                            val_accuracy)
        returned = _finished(returned)
    _verify()
    result["functions run eagerly"] = bool(eagerly or tf.config.functions_run_eagerly()
                                           or type(compiled) is not tf.Function
                                           or compiled.experimental_get_tracing_count() == 0)
    steps, validations = parse_log(log.getvalue())
    return {**result, "step lines": len(steps), "validation lines": len(validations),
            "step numbers": [step for step, _, _ in steps],
            "train losses": np.array([loss for _, loss, _ in steps]),
            "train accuracies": np.array([accuracy for _, _, accuracy in steps]),
            "train accuracy rises": bool(steps) and steps[-1][2] > steps[0][2],
            "validation losses": np.array([loss for loss, _ in validations]),
            "validation accuracies": np.array([accuracy for _, accuracy in validations]),
            "optimizer steps": int(optimizer.iterations.numpy()),
            "returned loss": returned,
            "weights after training": _trainable(model)}


def parse_log(text: str) -> tuple[list[tuple[int, float, float]], list[tuple[float, float]]]:
    """The (step, loss, accuracy) of each "Step N ... loss L ... accuracy A" line of `text`, and the
    (loss, accuracy) of each "val loss L ... accuracy A" line."""
    steps, validations = [], []
    for line in text.splitlines():
        if match := STEP_LINE.search(line):
            steps.append((int(match.group(1)), float(match.group(2)), float(match.group(3))))
        elif match := VALIDATION_LINE.search(line):
            validations.append((float(match.group(1)), float(match.group(2))))
    return steps, validations


def class_name(value) -> str:
    """`companion.Function`, `companion.Adam`, `function`, `type`: the package and name of a value's class
    (`graders._values.type_name`: a notebook class claiming a companion name is named as the notebook's)."""
    return type_name(value)


@tf.function
def probe_map(image, label):
    """The map function the `prepare_dataset` cases pass: float32 images halved (so a mapped example is
    told from an unmapped one), labels kept."""
    return tf.cast(image, tf.float32) * 0.5, label


def classifier(weights: list[np.ndarray], image_shape: tuple[int, ...]):
    """A small CNN (Conv2D, BatchNormalization, ReLU, global max pooling, Dense softmax) for images of
    `image_shape`, holding `weights` (the fixture's order: kernel, gamma, beta, dense kernel and bias,
    moving mean and variance; `get_weights()` lists them layer by layer, as Keras 3)."""
    kernel = np.asarray(weights[0])
    model = tf.keras.Sequential([
        tf.keras.layers.Input(shape=tuple(int(n) for n in image_shape)),
        tf.keras.layers.Conv2D(kernel.shape[-1], kernel.shape[:2], use_bias=False),
        tf.keras.layers.BatchNormalization(momentum=0.9),
        tf.keras.layers.Activation("relu"),
        tf.keras.layers.GlobalMaxPooling2D(),
        tf.keras.layers.Dense(np.asarray(weights[3]).shape[-1], activation="softmax"),
    ])
    kernel, gamma, beta, dense_kernel, dense_bias, mean, variance = (np.asarray(w) for w in weights)
    model.set_weights([kernel, gamma, beta, mean, variance, dense_kernel, dense_bias])
    return model


def fixture(seed: int, rows: int, filters: int = 4, size: int = 6) -> dict:
    """Deterministic inputs of a training case from `numpy.random.default_rng(seed)`: the classifier's
    weights (Glorot-uniform kernels, BatchNormalization near its initial state) and `rows` images of
    `size` x `size` x 3 in [0, 1] whose brightest channel is their label (so a few steps learn it)."""
    rng = np.random.default_rng(seed)
    weights = [_glorot(rng, (3, 3, 3, filters), 27, filters * 9), 1 + _normal(rng, 0.1, filters),
               _normal(rng, 0.1, filters), _glorot(rng, (filters, CLASSES), filters, CLASSES),
               _normal(rng, 0.05, CLASSES), _normal(rng, 0.1, filters),
               rng.uniform(0.5, 1.5, filters).astype(np.float32)]
    labels = rng.integers(0, CLASSES, size=rows).astype(np.int64)
    images = rng.uniform(0, 0.6, size=(rows, size, size, 3)).astype(np.float32)
    images[np.arange(rows), :, :, labels] += 0.4
    return {"weights": weights, "images": images, "labels": labels}


def images(seed: int, count: int, height: int, width: int) -> np.ndarray:
    """`count` random uint8 RGB images of `height` x `width` from `numpy.random.default_rng(seed)`."""
    return np.random.default_rng(seed).integers(0, 256, size=(count, height, width, 3)).astype(np.uint8)


def predictions(seed: int, labels) -> tuple[np.ndarray, np.ndarray]:
    """`(labels, probabilities)`: float32 rows over CLASSES that pick the right class for about half of the
    `labels` (int64), from `numpy.random.default_rng(seed)`."""
    rng = np.random.default_rng(seed)
    labels = np.asarray(labels, dtype=np.int64)
    probabilities = rng.dirichlet(np.ones(CLASSES), size=len(labels))
    right = rng.permutation(len(labels)) < (len(labels) + 1) // 2
    probabilities[right, labels[right]] += 1.0
    return labels, (probabilities / probabilities.sum(axis=1, keepdims=True)).astype(np.float32)


def _glorot(rng, shape, fan_in, fan_out):
    limit = np.sqrt(6.0 / (fan_in + fan_out))
    return rng.uniform(-limit, limit, size=shape).astype(np.float32)


def _normal(rng, scale, size):
    return rng.normal(0, scale, size).astype(np.float32)


def _finished(value):
    """`value` once the compiled call and everything it printed are done (outputs read, effects flushed)."""
    for leaf in jax.tree_util.tree_leaves(value):
        if isinstance(leaf, tf.Tensor):
            leaf.numpy()
    jax.effects_barrier()
    return value


def _described_datasets(train_ds, valid_ds, test_ds, num_examples: int) -> dict:
    """What `prepare_dataset` reports about its three datasets (the training set iterated three times)."""
    epochs = [_batches(train_ds) for _ in range(3)]
    orders = [np.concatenate([ids for _, ids in epoch]) for epoch in epochs]
    first = epochs[0]
    return {"train element spec": _spec(train_ds),
            "train batch sizes": [len(ids) for _, ids in first],
            "train examples (sorted)": np.sort(orders[0]),
            "train images (sorted by example)": np.concatenate([images for images, _ in first])[
                np.argsort(orders[0], kind="stable")],
            "train order changes between iterations": len({order.tobytes() for order in orders}) > 1,
            "train shuffled across all examples": any(ids.max() >= num_examples // 2
                                                      for ids in (epoch[0][1] for epoch in epochs)),
            "train batches mix examples": not all(_consecutive(ids) for epoch in epochs for _, ids in epoch),
            "validation batches": [ids for _, ids in _batches(valid_ds)],
            "validation images": _stacked(valid_ds),
            "test batches": [ids for _, ids in _batches(test_ds)],
            "test images": _stacked(test_ds)}


def _complete(result: dict, fields: tuple[str, ...]) -> dict:
    """`result` with every one of `fields`, in that order (None where the call gave nothing to report),
    so that the first field that differs from the reference is the one reported."""
    return {name: result.get(name) for name in fields}


def _batched(data, batch_size):
    images, labels = data
    return tf.data.Dataset.from_tensor_slices((np.asarray(images), np.asarray(labels))).batch(int(batch_size))


def _splits(images: np.ndarray, sizes: list[int]):
    starts = np.cumsum([0, *sizes])
    return [tf.data.Dataset.from_tensor_slices((images[start:start + size], np.arange(size, dtype=np.int64)))
            for start, size in zip(starts, sizes)]


def _batches(dataset) -> list[tuple[np.ndarray, np.ndarray]]:
    return [(np.asarray(images), np.asarray(ids)) for images, ids in dataset]


def _stacked(dataset) -> np.ndarray:
    return np.concatenate([images for images, _ in _batches(dataset)])


def _spec(dataset) -> list:
    """Each component's shape (None for an unknown size) and dtype name."""
    return [[spec.shape.as_list(), spec.dtype.name] for spec in dataset.element_spec]


def _consecutive(ids: np.ndarray) -> bool:
    return bool(np.all(np.diff(ids) == 1))


def _moving_statistics(model) -> list[np.ndarray]:
    return [np.asarray(v) for v in model.non_trainable_weights]


def _trainable(model) -> list[np.ndarray]:
    return [np.asarray(v) for v in model.trainable_weights]


def _shape_of_return(returned, count: int):
    """`count` when `returned` is a tuple or list of `count` items, else a description of it."""
    if type(returned) in (tuple, list) and len(returned) == count:
        return count
    if type(returned) in (tuple, list):
        return f"{type(returned).__name__} of {len(returned)} items"
    return class_name(returned)
