"""fit/evaluate with sample_weight, class_weight and weighted_metrics, against TF 2.21 / Keras 3.15.

The model is a tiny softmax classifier with fixed initial weights; the expected numbers
were printed by TF 2.21 (Keras 3.15) running the same program on CPU.
"""

import numpy as np
import pytest

import companion as tf

X = np.arange(12, dtype="float32").reshape(6, 2) / 10
Y = np.array([0, 1, 2, 1, 0, 2])
SW = np.array([1.0, 2.0, 0.5, 0.0, 1.0, 3.0], "float32")
CW = {0: 1.0, 1: 2.0, 2: 0.5}


def _model():
    inputs = tf.keras.Input((2,))
    model = tf.keras.Model(inputs, tf.keras.layers.Dense(3, activation="softmax")(inputs))
    model.set_weights([np.array([[0.1, -0.2, 0.3], [0.4, 0.5, -0.6]], "float32"),
                       np.array([0.01, 0.02, 0.03], "float32")])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"], weighted_metrics=["accuracy"])
    return model


def _fit(**kwargs):
    return _model().fit(X, Y, batch_size=4, epochs=2, shuffle=False, verbose=0, **kwargs).history


def _check(history, expected):
    assert sorted(history) == sorted(expected)
    for key, values in expected.items():
        np.testing.assert_allclose(history[key], values, rtol=1e-5, err_msg=key)


def test_unweighted_fit_logs_both_metrics():
    # TF 2.21 gives these; the weighted metric equals the plain one without weights
    _check(_fit(), {"loss": [1.176273226737976, 1.160688042640686],
                    "accuracy": [0.1666666716337204, 0.3333333432674408],
                    "weighted_accuracy": [0.1666666716337204, 0.3333333432674408]})


def test_sample_weight_weighs_the_loss_and_only_the_weighted_metrics():
    expected = {"loss": [1.6371952295303345, 1.4692144393920898],
                "accuracy": [0.1666666716337204, 0.1666666716337204],
                "weighted_accuracy": [0.13333334028720856, 0.13333334028720856]}
    _check(_fit(sample_weight=SW), expected)  # TF 2.21
    dataset = tf.data.Dataset.from_tensor_slices((X, Y, SW)).batch(4)
    _check(_model().fit(dataset, epochs=2, verbose=0).history, expected)


def test_class_weight_gives_each_example_its_class_weight():
    _check(_fit(class_weight=CW), {"loss": [1.2729644775390625, 1.2651619911193848],  # TF 2.21
                                   "accuracy": [0.0, 0.1666666716337204],
                                   "weighted_accuracy": [0.0, 0.2857142984867096]})


def test_class_weight_on_a_dataset_of_pairs_equals_arrays():
    dataset = tf.data.Dataset.from_tensor_slices((X, Y)).batch(4)
    expected = _fit(class_weight=CW)
    _check(_model().fit(dataset, epochs=2, verbose=0, class_weight=CW).history, expected)


def test_missing_classes_weigh_one():
    history = _model().fit(X, Y, epochs=1, verbose=0,  # one batch of 32
                           class_weight={0: 1.0, 1: 2.0}).history
    _check(history, {"loss": [1.5127300024032593], "accuracy": [0.1666666716337204],  # TF 2.21
                     "weighted_accuracy": [0.125]})


def test_one_hot_labels_use_the_argmax_class():
    from companion.keras.models._class_weight import class_weight_to_sample_weight

    one_hot = np.eye(3)[Y]
    np.testing.assert_array_equal(class_weight_to_sample_weight(one_hot, CW),
                                  class_weight_to_sample_weight(Y, CW))
    np.testing.assert_array_equal(class_weight_to_sample_weight(Y[:, None].astype("float32"), CW),
                                  [1.0, 2.0, 0.5, 2.0, 1.0, 0.5])


def test_evaluate_with_sample_weight():
    logs = _model().evaluate(X, Y, sample_weight=SW, batch_size=4, verbose=0, return_dict=True)
    _check({k: [v] for k, v in logs.items()},  # TF 2.21
           {"loss": [1.6274811029434204], "accuracy": [0.1666666716337204],
            "weighted_accuracy": [0.13333334028720856]})


def test_class_weight_and_sample_weight_together_raise_value_error():
    # TF 2.21: ValueError "You cannot `class_weight` and `sample_weight` at the same time."
    with pytest.raises(ValueError, match="class_weight` and `sample_weight"):
        _fit(class_weight=CW, sample_weight=SW)
    dataset = tf.data.Dataset.from_tensor_slices((X, Y, SW)).batch(4)
    with pytest.raises(ValueError, match="sample weights"):
        _model().fit(dataset, epochs=1, verbose=0, class_weight=CW)


def test_class_weight_needs_a_single_output():
    inputs = tf.keras.Input((2,))
    model = tf.keras.Model(inputs, [tf.keras.layers.Dense(3, name="a")(inputs),
                                    tf.keras.layers.Dense(3, name="b")(inputs)])
    model.compile("sgd", loss="sparse_categorical_crossentropy")
    with pytest.raises(ValueError, match="single output"):
        model.fit(X, [Y, Y], class_weight=CW, verbose=0)


def test_train_on_batch_accepts_class_weight():
    model = _model()
    weighted = model.train_on_batch(X, Y, class_weight=CW, return_dict=True)
    reference = _model().train_on_batch(X, Y, sample_weight=np.array([CW[c] for c in Y], "float32"),
                                        return_dict=True)
    assert weighted == pytest.approx(reference)
