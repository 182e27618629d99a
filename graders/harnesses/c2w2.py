"""Harnesses of the Week 2 assignment (C2W2): the F1 metric, one training step, one training epoch.

Each call starts from fresh objects built from the case's plain inputs: the assignment's
binary classifier (Dense 128-64-1) with the given weights, `RMSprop(learning_rate=0.001)` and
`BinaryCrossentropy()`, as the notebook creates them. The results include the state the learner's
code changed, so a step that returns the right values without training, trains twice, or skips a
metric update is told apart from a correct one.
"""

from __future__ import annotations

import numpy as np

import companion as tf

COUNT_NAMES = ("tp", "fp", "tn", "fn")


def binary_classifier(weights: list[np.ndarray]):
    """The assignment's functional model (Dense 128 relu, 64 relu, 1 sigmoid), holding `weights`."""
    inputs = tf.keras.layers.Input(shape=(weights[0].shape[0],))
    x = tf.keras.layers.Dense(weights[0].shape[1], activation="relu")(inputs)
    x = tf.keras.layers.Dense(weights[2].shape[1], activation="relu")(x)
    outputs = tf.keras.layers.Dense(1, activation="sigmoid")(x)
    model = tf.keras.Model(inputs=inputs, outputs=outputs)
    model.set_weights(weights)
    return model


def f1_score(metric_class, counts, exact_type: bool = True) -> dict:
    """`F1Score()` with its tp, fp, tn, fn Variables replaced by `counts` (as the lab's test does), then
    `result()`; with `exact_type=False` only the number counts (a Python float is fine there)."""
    metric = metric_class()
    for name, count in zip(COUNT_NAMES, counts):
        setattr(metric, name, tf.Variable(int(count), dtype="int32"))
    result = metric.result()
    return {"is a keras Metric": issubclass(type(metric), tf.keras.metrics.Metric),
            "result": result if exact_type else float(result)}


def apply_gradient(function, weights, x, y) -> dict:
    """One call `apply_gradient(optimizer, loss_object, model, x, y)` from fixed weights."""
    model, optimizer, loss_object = _training_objects(weights)
    returned = function(optimizer, loss_object, model, x, y)
    return {"optimizer steps": int(optimizer.iterations.numpy()), "returned values": returned,
            "weights after the step": _weights(model)}


def train_data_for_one_epoch(function, weights, x, y, batch_size) -> dict:
    """One epoch over an unshuffled dataset of (x, y) batches, with an accuracy metric and a recorder
    standing in for the F1 metric (it keeps the arguments of every `update_state` call)."""
    model, optimizer, loss_object = _training_objects(weights)
    dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(int(batch_size))
    accuracy, recorder = tf.keras.metrics.BinaryAccuracy(), UpdateRecorder()
    losses = function(dataset, optimizer, loss_object, model, accuracy, recorder, verbose=False)
    return {"list of losses": len(losses) if type(losses) is list else None,
            "optimizer steps": int(optimizer.iterations.numpy()),
            "accuracy metric state": [variable.numpy() for variable in accuracy.variables],
            "F1 metric updates": recorder.updates,
            "losses": losses,
            "weights after the epoch": _weights(model)}


class UpdateRecorder(tf.keras.metrics.Metric):
    """A metric that remembers each `update_state(y_true, y_pred)` call's arguments as NumPy arrays."""

    def __init__(self, name="f1_score", **kwargs):
        super().__init__(name=name, **kwargs)
        self.updates = []

    def update_state(self, y_true, y_pred, sample_weight=None):
        self.updates.append({"y_true": np.asarray(y_true), "y_pred": np.asarray(y_pred)})

    def result(self):
        return tf.constant(float(len(self.updates)))


def _training_objects(weights):
    model = binary_classifier([np.asarray(w) for w in weights])
    return model, tf.keras.optimizers.RMSprop(learning_rate=0.001), tf.keras.losses.BinaryCrossentropy()


def _weights(model) -> list[np.ndarray]:
    return [np.asarray(w) for w in model.get_weights()]


def fixture(seed: int, rows: int, features: int = 30, units: tuple[int, int] = (128, 64)) -> dict:
    """Deterministic inputs of a case: Glorot-uniform weights (zero biases plus a little noise), z-scored
    features and 0/1 labels that depend on them, from `numpy.random.default_rng(seed)`."""
    rng = np.random.default_rng(seed)
    weights, fan_in = [], features
    for fan_out in (*units, 1):
        limit = np.sqrt(6.0 / (fan_in + fan_out))
        weights.append(rng.uniform(-limit, limit, size=(fan_in, fan_out)).astype(np.float32))
        weights.append(rng.normal(0.0, 0.01, size=fan_out).astype(np.float32))
        fan_in = fan_out
    x = rng.normal(size=(rows, features))
    y = (x @ rng.normal(size=features) + rng.normal(scale=0.5, size=rows) > 0).astype(np.int64)
    return {"weights": weights, "x": x, "y": y}
