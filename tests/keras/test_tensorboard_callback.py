"""``keras.callbacks.TensorBoard`` writes the runs and tags Keras 3.15 (TF 2.21) writes.

Oracle: the same fit/evaluate under TF 2.21 + Keras 3.15, its log directory read with
TensorBoard's ``EventAccumulator`` (tags and steps listed per test).
"""

import os

import numpy as np
import pytest

import companion as tf

event_accumulator = pytest.importorskip("tensorboard.backend.event_processing.event_accumulator")


def steps_by_tag(run_dir):
    acc = event_accumulator.EventAccumulator(str(run_dir), size_guidance={"tensors": 0})
    acc.Reload()
    return {tag: [e.step for e in acc.Tensors(tag)] for tag in acc.Tags()["tensors"]}


def model_and_data():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 4)).astype("float32")
    y = (x.sum(1) > 0).astype("float32")
    model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(3, activation="relu", name="d1"),
                                 tf.keras.layers.Dense(1, activation="sigmoid", name="out")],
                                name="sequential")  # (the default name depends on earlier models)
    model.compile("sgd", "binary_crossentropy", metrics=["accuracy"])
    return model, x, y


def test_epoch_runs_histograms_and_evaluation(tmp_path):
    model, x, y = model_and_data()
    board = tf.keras.callbacks.TensorBoard(str(tmp_path), histogram_freq=1, update_freq="epoch")
    model.fit(x, y, validation_split=0.25, epochs=2, batch_size=16, callbacks=[board], verbose=0)
    model.evaluate(x, y, callbacks=[board], verbose=0)
    assert sorted(os.listdir(tmp_path)) == ["train", "validation"]
    train = steps_by_tag(tmp_path / "train")
    # Keras 3.15: epoch scalars and one histogram per weight, at epochs 0 and 1
    for tag in ["epoch_accuracy", "epoch_loss", "epoch_learning_rate", "sequential/d1/kernel/histogram",
                "sequential/d1/bias/histogram", "sequential/out/kernel/histogram",
                "sequential/out/bias/histogram"]:
        assert train[tag] == [0, 1], tag
    validation = steps_by_tag(tmp_path / "validation")
    assert validation["epoch_accuracy"] == [0, 1] and validation["epoch_loss"] == [0, 1]
    # after each validation pass (3 and 6 optimizer steps) and after evaluate (still 6); evaluate
    # writes a second event file, and TensorBoard reads files in name order, where the writer's
    # counter suffix can sort "10" before "9": compare the steps as a sorted list
    assert sorted(validation["evaluation_loss_vs_iterations"]) == [3, 6, 6]
    assert sorted(validation["evaluation_accuracy_vs_iterations"]) == [3, 6, 6]


def test_batch_logging_every_update_freq_batches(tmp_path):
    model, x, y = model_and_data()
    board = tf.keras.callbacks.TensorBoard(str(tmp_path), update_freq=2, write_graph=False)
    model.fit(x, y, epochs=2, batch_size=16, callbacks=[board], verbose=0)
    train = steps_by_tag(tmp_path / "train")
    # Keras 3.15: batch_* at global batches 2, 4, 6, 8; no validation run
    assert train["batch_loss"] == [2, 4, 6, 8] and train["batch_accuracy"] == [2, 4, 6, 8]
    assert train["epoch_loss"] == [0, 1]
    assert os.listdir(tmp_path) == ["train"]


def test_epoch_values_are_the_history(tmp_path):
    model, x, y = model_and_data()
    board = tf.keras.callbacks.TensorBoard(str(tmp_path))
    history = model.fit(x, y, epochs=2, batch_size=16, callbacks=[board], verbose=0)
    acc = event_accumulator.EventAccumulator(str(tmp_path / "train"), size_guidance={"tensors": 0})
    acc.Reload()
    from tensorboard.util import tensor_util

    logged = [float(tensor_util.make_ndarray(e.tensor_proto)) for e in acc.Tensors("epoch_loss")]
    np.testing.assert_allclose(logged, history.history["loss"], rtol=1e-6)
    lr = [float(tensor_util.make_ndarray(e.tensor_proto)) for e in acc.Tensors("epoch_learning_rate")]
    np.testing.assert_allclose(lr, [0.01, 0.01])  # Keras 3 SGD's default learning rate


def test_bad_update_freq():
    with pytest.raises(ValueError, match="update_freq"):
        tf.keras.callbacks.TensorBoard("logs", update_freq=0)
