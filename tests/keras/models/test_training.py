"""compile/fit/evaluate/predict: against NumPy gradient descent, Keras's rules and clear errors."""

import numpy as np
import pytest

import companion as tf

RNG = np.random.default_rng(2)
layers = tf.keras.layers
XS = np.array([-1.0, 0.0, 1.0, 2.0, 3.0, 4.0], np.float32)  # the course's data: y = 2x - 1
YS = np.array([-3.0, -1.0, 1.0, 3.0, 5.0, 7.0], np.float32)


def _linear(units=1, inputs=3, kernel=None):
    model = tf.keras.Sequential([tf.keras.Input(shape=(inputs,)), layers.Dense(units)])
    if kernel is not None:
        model.set_weights(kernel)
    return model


def test_fit_equals_numpy_gradient_descent():
    x = RNG.normal(size=(64, 3)).astype(np.float32)
    y = (x @ np.array([[1.0], [-2.0], [0.5]]) + 0.3).astype(np.float32)
    w, b = np.zeros((3, 1), np.float32), np.zeros(1, np.float32)
    model = _linear(kernel=[w, b])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    history = model.fit(x, y, batch_size=16, epochs=2, shuffle=False, verbose=0)
    losses = []
    for _ in range(2):
        batch_losses = []
        for start in range(0, 64, 16):
            xb, yb = x[start:start + 16].astype(np.float64), y[start:start + 16]
            err = xb @ w + b - yb
            batch_losses.append(np.mean(err ** 2))
            w = w - 0.1 * 2 * xb.T @ err / len(xb)
            b = b - 0.1 * 2 * err.mean(axis=0)
        losses.append(np.mean(batch_losses))
    np.testing.assert_allclose(model.get_weights()[0], w, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(history.history["loss"], losses, rtol=1e-4)
    assert history.params == {"verbose": 0, "epochs": 2, "steps": 4}
    assert model.history is history and list(history.epoch) == [0, 1]


def test_course_regression_converges_with_a_custom_huber_loss():
    def my_huber_loss(y_true, y_pred, threshold=1.0):
        error = y_true - y_pred
        small = tf.abs(error) <= threshold
        return tf.where(small, tf.square(error) / 2, threshold * (tf.abs(error) - threshold / 2))

    huber = tf.keras.losses.Huber()(YS, XS)  # delta 1: errors 2,1,0,1,2,3 -> 6.5 / 6
    assert float(huber) == pytest.approx(6.5 / 6)
    assert float(tf.reduce_mean(my_huber_loss(YS, XS))) == pytest.approx(6.5 / 6)
    model = tf.keras.Sequential([layers.Dense(1, input_shape=[1])])
    model.compile(optimizer="sgd", loss=my_huber_loss)
    (w,), b = model.get_weights()[0][0], model.get_weights()[1]
    model.fit(XS, YS, epochs=500, verbose=0)
    for _ in range(500):  # the same 500 full-batch SGD steps (learning rate 0.01) in NumPy
        error = YS - (w * XS + b)
        slope = np.where(np.abs(error) <= 1.0, error, np.sign(error)) / len(XS)
        w, b = w + 0.01 * np.sum(slope * XS), b + 0.01 * np.sum(slope)
    prediction = model.predict(np.array([10.0]), verbose=0)[0, 0]
    assert prediction == pytest.approx(w * 10.0 + b[0], rel=1e-4)


def test_rmse_gives_the_course_value():
    xs, ys = XS.astype(np.float64), YS.astype(np.float64)  # the course's arrays are float64
    backend = tf.keras.backend
    assert float(backend.sqrt(backend.mean(backend.square(ys - xs)))) == 1.7795130420052185
    assert float(tf.keras.metrics.RootMeanSquaredError(dtype="float64")(ys, xs)) == 1.7795130420052185
    model = tf.keras.Sequential([tf.keras.Input(shape=(1,)),
                                 layers.Dense(1, kernel_initializer="ones", bias_initializer="zeros")])
    model.compile(optimizer="sgd", loss="mse", metrics=[tf.keras.metrics.RootMeanSquaredError()])
    loss, rmse = model.evaluate(XS, YS, verbose=0)  # float32 inside the model
    assert rmse == pytest.approx(np.sqrt(19 / 6), rel=1e-6) and loss == pytest.approx(19 / 6)


def test_accuracy_string_picks_the_kind_from_shapes():
    cases = [("sparse_categorical_crossentropy", 3, RNG.integers(0, 3, 20), "sparse_categorical"),
             ("categorical_crossentropy", 3, np.eye(3)[RNG.integers(0, 3, 20)], "categorical"),
             ("binary_crossentropy", 1, RNG.integers(0, 2, (20, 1)).astype(np.float32), "binary")]
    x = RNG.normal(size=(20, 4)).astype(np.float32)
    for loss, units, y, kind in cases:
        model = _linear(units, 4)
        model.compile("adam", loss, metrics=["accuracy"])
        logs = model.evaluate(x, y, verbose=0, return_dict=True)
        pred = model.predict(x, verbose=0)
        if kind == "binary":
            expected = np.mean((pred > 0.5) == y)
        else:
            labels = y if kind == "sparse_categorical" else y.argmax(-1)
            expected = np.mean(pred.argmax(-1) == labels)
        assert logs["accuracy"] == pytest.approx(expected), kind
        assert model.metrics_names == ["loss", "compile_metrics"]  # Keras 3.15


def test_validation_split_holds_out_the_last_examples():
    x = RNG.normal(size=(50, 3)).astype(np.float32)
    y = RNG.normal(size=(50, 1)).astype(np.float32)
    model = _linear()
    model.compile("sgd", "mae")
    history = model.fit(x, y, epochs=1, validation_split=0.2, verbose=0)
    assert history.params["steps"] == 2  # 40 training examples, batches of 32
    expected = np.mean(np.abs(model.predict(x[40:], verbose=0) - y[40:]))
    assert history.history["val_loss"][0] == pytest.approx(expected, rel=1e-5)


def test_dataset_input_steps_per_epoch_and_compiled_once():
    traces = []

    class Counting(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = layers.Dense(1)

        def call(self, x):
            return self.dense(x)

        def train_step(self, data):
            traces.append(1)  # Python side effect: runs once per trace
            return super().train_step(data)

    x = RNG.normal(size=(32, 2)).astype(np.float32)
    y = x.sum(axis=1, keepdims=True)
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(8).repeat()
    model = Counting()
    model.compile(tf.keras.optimizers.SGD(0.1), "mse")
    history = model.fit(ds, epochs=3, steps_per_epoch=5, verbose=0)
    assert len(history.history["loss"]) == 3 and int(model.optimizer.iterations) == 15
    assert len(traces) == 2  # the first step built the model, so it was traced twice (TF's rule)


def test_multi_output_losses_weights_and_metric_names():
    inputs = tf.keras.Input(shape=(3,))
    reg = layers.Dense(1, name="reg")(inputs)
    cls = layers.Dense(2, activation="softmax", name="cls")(inputs)
    model = tf.keras.Model(inputs, [reg, cls])
    model.compile("sgd", loss={"reg": "mse", "cls": "sparse_categorical_crossentropy"},
                  loss_weights={"reg": 2.0, "cls": 0.5}, metrics={"cls": "accuracy"})
    x = RNG.normal(size=(16, 3)).astype(np.float32)
    y_reg, y_cls = RNG.normal(size=(16, 1)).astype(np.float32), RNG.integers(0, 2, 16)
    logs = model.evaluate(x, {"reg": y_reg, "cls": y_cls}, verbose=0, return_dict=True)
    assert list(logs) == ["cls_accuracy", "cls_loss", "loss", "reg_loss"]  # Keras 3.15: sorted
    assert model.metrics_names == ["loss", "compile_metrics", "reg_loss", "cls_loss"]  # Keras 3.15
    pred_reg, pred_cls = model.predict(x, verbose=0)
    mse = np.mean((pred_reg - y_reg) ** 2)
    ce = -np.mean(np.log(pred_cls[np.arange(16), y_cls]))
    assert logs["reg_loss"] == pytest.approx(mse, rel=1e-5)
    assert logs["cls_loss"] == pytest.approx(ce, rel=1e-5)
    assert logs["loss"] == pytest.approx(2.0 * mse + 0.5 * ce, rel=1e-5)


def test_regularization_losses_join_the_total():
    model = tf.keras.Sequential([tf.keras.Input(shape=(2,)),
                                 layers.Dense(1, kernel_regularizer=tf.keras.regularizers.L2(0.5))])
    model.compile("sgd", "mse")
    x, y = np.ones((4, 2), np.float32), np.zeros((4, 1), np.float32)
    kernel, bias = model.get_weights()
    expected = np.mean((x @ kernel + bias) ** 2) + 0.5 * np.sum(kernel ** 2)
    assert model.evaluate(x, y, verbose=0) == pytest.approx(expected, rel=1e-5)


def test_train_on_batch_test_on_batch_and_predict_on_batch():
    model = _linear(kernel=[np.ones((3, 1), np.float32), np.zeros(1, np.float32)])
    model.compile(tf.keras.optimizers.SGD(0.5), "mse", metrics=["mae"])
    x, y = np.ones((2, 3), np.float32), np.zeros((2, 1), np.float32)
    assert model.test_on_batch(x, y) == pytest.approx([9.0, 3.0])
    loss, mae = model.train_on_batch(x, y)
    assert (loss, mae) == pytest.approx((9.0, 3.0))
    # d/dw mean((x w + b)^2) = 2 * 3 * 1 per weight -> 1 - 0.5 * 6 = -2
    np.testing.assert_allclose(model.get_weights()[0], -2.0 * np.ones((3, 1)))
    assert model.predict_on_batch(x).shape == (2, 1)
    assert model.train_on_batch(x, y, return_dict=True).keys() == {"loss", "mae"}


def test_evaluate_returns_a_scalar_without_metrics_and_predict_batches():
    model = _linear()
    model.compile("sgd", "mse")
    x = RNG.normal(size=(70, 3)).astype(np.float32)
    assert isinstance(model.evaluate(x, np.zeros((70, 1)), batch_size=32, verbose=0), float)
    assert model.predict(x, batch_size=32, verbose=0).shape == (70, 1)


def test_fit_prints_progress_bars(capsys):
    model = _linear()
    model.compile("sgd", "mse")
    x, y = np.ones((64, 3), np.float32), np.ones((64, 1), np.float32)
    model.fit(x, y, epochs=2, verbose=2)
    out = capsys.readouterr().out
    assert out.count("Epoch ") == 2 and out.count("2/2 - ") == 2 and "loss: " in out
    model.fit(x, y, epochs=1, verbose=1)
    out = capsys.readouterr().out
    assert f"\x1b[1m2/2\x1b[0m \x1b[32m{'━' * 20}\x1b[0m" in out and out.endswith("\n")  # Keras 3's bar
    model.fit(x, y, epochs=1, verbose=0)
    assert capsys.readouterr().out == ""


def test_clear_errors():
    model = _linear()
    x, y = np.ones((8, 3), np.float32), np.ones((8, 1), np.float32)
    with pytest.raises(ValueError, match=r"^You must call `compile\(\)` before using the model\.\n"):
        model.fit(x, y)
    with pytest.raises(ValueError, match="Unknown loss function: 'mean_sqared_error'"):
        model.compile("sgd", "mean_sqared_error")
    model.compile("sgd", "mse")
    # TF 2.21 / Keras 3 text
    with pytest.raises(ValueError, match=r"^Data cardinality is ambiguous\. Make sure all arrays contain "
                                         r"the same number of samples\.'x' sizes: 8\n'y' sizes: 7\n$"):
        model.fit(x, y[:7], verbose=0)
    with pytest.raises(ValueError, match="batch_size=0"):
        model.fit(x, y, batch_size=0, verbose=0)
    for wrong in ("a", 2.5, 4.0, True):  # TF 2.21: TypeError for a str or float batch size
        with pytest.raises(TypeError, match=f"batch_size={wrong!r} of type {type(wrong).__name__}"):
            model.fit(x, y, batch_size=wrong, verbose=0)
    # a NumPy integer is a batch size, as in TF: 8 examples in batches of 3 are 3 steps
    assert model.fit(x, y, batch_size=np.int64(3), verbose=0).params["steps"] == 3
    # Keras 3 ignores batch_size for a dataset (TF 2.21: fit(ds, batch_size=3) trains on ds's batches)
    history = model.fit(tf.data.Dataset.from_tensor_slices((x, y)).batch(2), batch_size=4, verbose=0)
    assert history.params["steps"] == 4
    with pytest.raises(ValueError, match="layer 'dense.*expected axis -1"):
        model.fit(np.ones((8, 5), np.float32), y, verbose=0)

    def bad_loss(y_true, y_pred):
        return tf.reduce_sum(y_pred, axis=0)  # one value per output unit, not per example

    model.compile("sgd", bad_loss)
    with pytest.raises(ValueError, match="'bad_loss' returned a tensor of shape \\(1,\\) for a batch of 8"):
        model.fit(x, y, batch_size=8, verbose=0)


class _CountingSequential(tf.keras.Sequential):
    """Counts the traces of its train and test steps (Python runs once per trace)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.traces = {"train": 0, "test": 0}

    def train_step(self, data):
        self.traces["train"] += 1
        return super().train_step(data)

    def test_step(self, data):
        self.traces["test"] += 1
        return super().test_step(data)


@pytest.mark.parametrize("as_dataset", [False, True])
def test_fit_traces_its_step_once_with_slots_and_metrics_built_first(as_dataset):
    # Keras 3 builds the optimizer and the compiled metrics before the first step; the step's
    # first trace then creates no Variables and TF's rule needs no second trace
    x = RNG.normal(size=(40, 4)).astype(np.float32)
    y = RNG.integers(0, 3, size=40)
    model = _CountingSequential([tf.keras.Input(shape=(4,)), layers.Dense(3)])
    model.compile(optimizer=tf.keras.optimizers.Adam(0.0), loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    data = dict(x=tf.data.Dataset.from_tensor_slices((x, y)).batch(8)) if as_dataset else \
        dict(x=x, y=y, batch_size=8)
    history = model.fit(**data, epochs=2, verbose=0, shuffle=False)
    assert model.traces["train"] == 1
    assert len(model.optimizer.variables) == 1 + 2 * 2 + 1  # iterations, m and v per weight, lr
    # 'accuracy' resolved from the labels' shape: sparse categorical, as NumPy computes it
    predicted = np.argmax(model.predict(x, verbose=0), axis=-1)
    np.testing.assert_allclose(history.history["accuracy"], [np.mean(predicted == y)] * 2, rtol=1e-6)
    results = model.evaluate(x, y, batch_size=8, verbose=0, return_dict=True)
    assert model.traces["test"] == 1
    np.testing.assert_allclose(results["accuracy"], np.mean(predicted == y), rtol=1e-6)


class _RowRecorder(tf.keras.Model):
    """Records, per training batch, the first feature of its rows (the row numbers below)."""

    def __init__(self):
        super().__init__()
        self.dense = tf.keras.layers.Dense(1)
        self.rows = []

    def call(self, x):
        return self.dense(x)

    def train_step(self, data):
        self.rows.append(data[0][:, 0].numpy().astype(int).tolist())
        return {}


def _fit_rows(epochs, rows=10, batch_size=4, shuffle=True):
    x = np.zeros((rows, 2), np.float32)
    x[:, 0] = np.arange(rows)
    model = _RowRecorder()
    model.compile(optimizer="sgd", loss="mse", run_eagerly=True)
    model.fit(x, np.zeros((rows, 1), np.float32), batch_size=batch_size, epochs=epochs, verbose=0,
              shuffle=shuffle)
    per_epoch = -(-rows // batch_size)
    return [sum(model.rows[i:i + per_epoch], []) for i in range(0, len(model.rows), per_epoch)]


def test_fit_shuffles_arrays_in_tfs_one_order_under_a_global_seed():
    tf.random.set_seed(1)
    try:
        epochs = _fit_rows(3)
        # TF 2.21's order for global seed 1 (tests/parity/keras/fit_shuffle_order.py): Keras's
        # RandomShuffle kernel starts afresh each epoch, so every epoch repeats it
        assert epochs == [[2, 4, 0, 8, 9, 1, 5, 6, 3, 7]] * 3
        assert _fit_rows(1) == epochs[:1]  # and every fit
    finally:
        tf.random.set_seed(None)


def test_fit_shuffle_batch_permutes_rows_within_each_batch_only():
    tf.random.set_seed(1)
    try:  # TF 2.21's orders for global seed 1 (tests/parity/keras/fit_shuffle_order.py)
        assert _fit_rows(2, batch_size=3, shuffle="batch") == [[1, 0, 2, 5, 4, 3, 6, 8, 7, 9]] * 2
    finally:
        tf.random.set_seed(None)
    for epoch in _fit_rows(2, rows=40, batch_size=8, shuffle="batch"):
        assert [sorted(epoch[i:i + 8]) for i in range(0, 40, 8)] == [list(range(i, i + 8))
                                                                    for i in range(0, 40, 8)]


def test_fit_reshuffles_each_epoch_without_a_global_seed():
    tf.random.set_seed(None)
    first, second = _fit_rows(2, rows=60, batch_size=16)
    assert sorted(first) == sorted(second) == list(range(60)) and first != second
