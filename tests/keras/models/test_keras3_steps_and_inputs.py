"""Keras 3's custom steps and input handling in fit/evaluate/predict, against values observed under
TF 2.21 + Keras 3.15 (each expected value names the TF run it came from)."""

import warnings

import numpy as np
import pytest

import companion as tf

X = np.arange(24, dtype="float32").reshape(12, 2) / 24
Y = X.sum(1, keepdims=True) * 2 + 0.3


def _dense(model_class=None):
    inputs = tf.keras.Input(shape=(2,))
    outputs = tf.keras.layers.Dense(1, kernel_initializer="ones")(inputs)
    return (model_class or tf.keras.Model)(inputs, outputs)


class _GuideModel(tf.keras.Model):
    """The train_step of Keras 3's guide "Customizing what happens in fit"."""

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(y=y, y_pred=y_pred)
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            else:
                metric.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics}


def test_guide_train_step_updates_compile_metrics():
    model = _dense(_GuideModel)
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
    history = model.fit(X, Y, epochs=3, batch_size=4, verbose=0, shuffle=False)
    # TF 2.21 (probe train_step1.py): loss [1.1907 0.1902 0.0988], mae [1.0268 0.3695 0.2755]
    np.testing.assert_allclose(history.history["loss"], [1.1907, 0.1902, 0.0988], atol=1e-4)
    np.testing.assert_allclose(history.history["mae"], [1.0268, 0.3695, 0.2755], atol=1e-4)
    assert [m.name for m in model.metrics] == ["loss", "compile_metrics"]
    result = model.evaluate(X, Y, verbose=0, return_dict=True)
    assert result == pytest.approx({"loss": 0.0717, "mae": 0.2284}, abs=1e-4)


def test_custom_test_step_leaves_loss_tracker_alone():
    class Model(tf.keras.Model):
        def test_step(self, data):
            x, y = data
            y_pred = self(x, training=False)
            self.compute_loss(y=y, y_pred=y_pred)  # compute_loss does not update the loss tracker
            for metric in self.metrics:
                if metric.name != "loss":
                    metric.update_state(y, y_pred)
            return {m.name: m.result() for m in self.metrics}

    model = _dense(Model)
    model.compile(loss="mse", metrics=["mae"])
    # TF 2.21 (probe test_step.py): {'mae': 1.2583333253860474, 'loss': 0.0}
    assert model.evaluate(X, Y, verbose=0, return_dict=True) == pytest.approx({"mae": 1.2583333, "loss": 0.0})


def test_compile_metrics_container_api():
    model = _dense()
    model.compile("sgd", "mse", metrics=["mae"])
    container = model.metrics[1]
    container.update_state(tf.constant(Y[:4]), tf.constant(X[:4].sum(1, keepdims=True)))
    assert list(container.result()) == ["mae"]
    np.testing.assert_allclose(float(container.result()["mae"]), 7 / 24 + 0.3, rtol=1e-6)  # mean(sum + 0.3)
    container.reset_state()
    assert float(container.result()["mae"]) == 0.0


def test_compute_loss_override_without_compiled_loss():
    class Model(tf.keras.Model):
        def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
            return tf.reduce_mean(tf.abs(y - y_pred))

    model = _dense(Model)
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1))
    history = model.fit(X, Y, epochs=2, batch_size=4, verbose=0, shuffle=False)
    # TF 2.21 (probe test_step.py): {'loss': [1.1197, 0.6817]}, evaluate 0.4583
    assert list(history.history) == ["loss"]
    np.testing.assert_allclose(history.history["loss"], [1.1197, 0.6817], atol=1e-4)
    assert model.evaluate(X, Y, verbose=0) == pytest.approx(0.4583, abs=1e-4)
    assert model.metrics_names == ["loss"]


def test_add_loss_alone_trains_a_model_compiled_without_loss():
    class ActivityRegularization(tf.keras.layers.Layer):
        def call(self, inputs):
            self.add_loss(1e-2 * tf.reduce_sum(inputs))
            return inputs

    inputs = tf.keras.Input(shape=(2,))
    hidden = ActivityRegularization()(tf.keras.layers.Dense(3, kernel_initializer="ones")(inputs))
    outputs = tf.keras.layers.Dense(1, kernel_initializer="ones")(hidden)
    model = tf.keras.Model(inputs, outputs)
    model.compile(optimizer=tf.keras.optimizers.SGD(0.01), loss="mse")
    model.fit(X, Y, epochs=2, batch_size=4, verbose=0, shuffle=False)
    only_add_loss = tf.keras.Model(inputs, outputs)
    only_add_loss.compile(optimizer=tf.keras.optimizers.SGD(0.01))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the last Dense gets no gradient (TF warns as well)
        history = only_add_loss.fit(X, Y, epochs=2, batch_size=4, verbose=0, shuffle=False)
    # TF 2.21 (probe add_loss.py): {'loss': [0.1036, 0.1034]}, evaluate 0.3097
    np.testing.assert_allclose(history.history["loss"], [0.1036, 0.1034], atol=1e-4)
    assert only_add_loss.evaluate(X, Y, verbose=0) == pytest.approx(0.3097, abs=1e-4)


def test_no_loss_at_all_is_a_clear_error():
    model = _dense()
    model.compile("sgd")
    with pytest.raises(ValueError, match="no loss to compute.*Pass a `loss` argument to compile"):
        model.fit(X, Y, verbose=0)


def test_on_batch_calls_reset_the_metrics_first():
    model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1, kernel_initializer="ones")])
    model.compile(tf.keras.optimizers.SGD(0.1), "mse", metrics=["mae"])
    sw = np.array([1, 0, 0, 2], "float32")
    got = [model.test_on_batch(X[:4], Y[:4]), model.train_on_batch(X[4:8], Y[4:8]),
           model.test_on_batch(X[:4], Y[:4]), model.train_on_batch(X[4:8], Y[4:8]),
           model.train_on_batch(X[4:8], Y[4:8], sample_weight=sw),
           model.train_on_batch(X[4:8], Y[4:8], sample_weight=sw),
           model.evaluate(X[4:8], Y[4:8], verbose=0),
           model.train_on_batch(X[4:8], Y[4:8], sample_weight=sw)]
    # TF 2.21 (probe sw_loss6.py)
    expected = [[0.3848, 0.5917], [1.6181, 1.2583], [0.1188, 0.3036], [0.8144, 0.8876], [0.3841, 0.6255],
                [0.2311, 0.4668], [0.1355, 0.3452], [0.141, 0.3452]]
    np.testing.assert_allclose(got, expected, atol=1e-4)
    with pytest.raises(TypeError):
        model.train_on_batch(X[:4], Y[:4], reset_metrics=False)  # Keras 3 has no such argument


def test_multi_output_evaluate_list_order():
    a, b = tf.keras.Input((3,), name="a"), tf.keras.Input((2,), name="b")
    hidden = tf.keras.layers.Dense(4, activation="relu")(tf.keras.layers.Concatenate()([a, b]))
    reg = tf.keras.layers.Dense(1, name="reg")(hidden)
    cls = tf.keras.layers.Dense(3, activation="softmax", name="cls")(hidden)
    model = tf.keras.Model(inputs=[a, b], outputs=[reg, cls])
    for layer in model.layers:
        layer.set_weights([np.sin(np.arange(w.size, dtype="float32")).reshape(w.shape)
                           for w in layer.get_weights()])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.05),
                  loss={"reg": "mse", "cls": "sparse_categorical_crossentropy"},
                  loss_weights={"reg": 0.5, "cls": 2.0}, metrics={"reg": ["mae"], "cls": ["accuracy"]})
    xa = np.cos(np.arange(30, dtype="float32")).reshape(10, 3)
    xb = np.sin(np.arange(20, dtype="float32")).reshape(10, 2)
    yr, yc = np.arange(10, dtype="float32").reshape(10, 1) / 10, np.arange(10) % 3
    history = model.fit({"a": xa, "b": xb}, {"reg": yr, "cls": yc}, epochs=2, batch_size=5, verbose=0,
                        shuffle=False)
    # TF 2.21 (probe multi_io.py): history keys sorted, evaluate's list is loss, the output losses, then
    # the prefixed compile metrics sorted by name
    assert list(history.history) == ["cls_accuracy", "cls_loss", "loss", "reg_loss", "reg_mae"]
    np.testing.assert_allclose(model.evaluate([xa, xb], [yr, yc], verbose=0),
                               [2.4904, 0.6108, 1.0925, 0.5, 0.7104], atol=1e-4)
    np.testing.assert_allclose(model.train_on_batch([xa, xb], [yr, yc]),
                               [2.4904, 0.6108, 1.0925, 0.5, 0.7104], atol=1e-4)


class _Recording(tf.keras.Sequential):
    """Records whether each step receives a tuple."""

    def train_step(self, data):
        self.seen.append(("train", isinstance(data, tuple)))
        return super().train_step(data)

    def test_step(self, data):
        self.seen.append(("test", isinstance(data, tuple)))
        return super().test_step(data)

    def predict_step(self, data):
        self.seen.append(("predict", isinstance(data, tuple)))
        return super().predict_step(data)


def test_steps_get_bare_x_without_labels():
    model = _Recording([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
    model.seen = []
    model.compile("sgd", "mse", run_eagerly=True)
    model.predict(X, batch_size=12, verbose=0)
    model.predict(tf.data.Dataset.from_tensor_slices((X,)).batch(12), verbose=0)
    model.fit(X, Y, batch_size=12, verbose=0)
    # Keras 3's pack_x_y_sample_weight: x alone without y; a dataset's elements as they are
    assert model.seen == [("predict", False), ("predict", True), ("train", True)]


def test_gan_style_fit_on_bare_arrays():
    class Model(tf.keras.Model):
        def train_step(self, real):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((self(real) - 1.0) ** 2)  # `real` is the batch itself, not (x,)
            grads = tape.gradient(loss, self.trainable_weights)
            self.optimizer.apply_gradients(zip(grads, self.trainable_weights))
            return {"g_loss": loss, "rows": tf.shape(real)[0]}

    model = _dense(Model)
    model.compile(tf.keras.optimizers.SGD(0.01))
    history = model.fit(X, epochs=1, batch_size=5, verbose=0, shuffle=False)
    assert history.history["rows"] == [2]


def _fresh():
    model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1, kernel_initializer="zeros")])
    model.compile(tf.keras.optimizers.SGD(0.1), "mse", metrics=["mae"])
    return model


class _CountBatches(tf.keras.callbacks.Callback):
    def on_train_begin(self, logs=None):
        self.counts = []

    def on_epoch_begin(self, epoch, logs=None):
        self.counts.append(0)

    def on_train_batch_end(self, batch, logs=None):
        self.counts[-1] += 1


X20 = np.arange(40, dtype="float32").reshape(20, 2) / 40
Y20 = np.ones((20, 1), "float32")


@pytest.mark.parametrize("steps, epochs, counts, loss, warned", [
    # TF 2.21 (probe /tmp/k1/p1.py on a 5-batch dataset)
    (4, 3, [4, 1, 4], [0.523, 0.0239, 0.0535], 1),
    (3, 4, [3, 2, 3, 2], [0.6537, 0.0774, 0.0709, 0.0063], 2),
    (5, 2, [5, 5], [0.4232, 0.0451], 0),
    (7, 2, [5, 5], [0.4232, 0.0451], 2),
])
def test_steps_per_epoch_on_a_finite_dataset(steps, epochs, counts, loss, warned):
    dataset = tf.data.Dataset.from_tensor_slices((X20, Y20)).batch(4)
    counter = _CountBatches()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        history = _fresh().fit(dataset, epochs=epochs, steps_per_epoch=steps, verbose=0, callbacks=[counter])
    assert counter.counts == counts
    np.testing.assert_allclose(history.history["loss"], loss, atol=1e-4)
    assert history.params["steps"] == steps
    assert sum("Your input ran out of data" in str(w.message) for w in caught) == warned


def test_batch_size_is_ignored_for_a_dataset():
    dataset = tf.data.Dataset.from_tensor_slices((X20, Y20)).batch(4)
    model = _fresh()
    history = model.fit(dataset, batch_size=3, epochs=1, verbose=0)
    # TF 2.21 (probe /tmp/k1/p1.py): {'loss': [0.4232], 'mae': [0.5771]}; evaluate [0.0664, 0.2316]
    np.testing.assert_allclose(history.history["loss"], [0.4232], atol=1e-4)
    np.testing.assert_allclose(model.evaluate(dataset, batch_size=3, verbose=0), [0.0664, 0.2316], atol=1e-4)
    assert model.predict(dataset, batch_size=3, verbose=0).shape == (20, 1)


def _finite(weights=False):
    for i in range(3):
        batch = (X20[i * 4:(i + 1) * 4], Y20[i * 4:(i + 1) * 4])
        yield batch + (np.array([1, 0, 2, 1], "float32"),) if weights else batch


def test_python_generators():
    model = _fresh()
    counter = _CountBatches()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        history = model.fit(_finite(), epochs=2, verbose=0, callbacks=[counter])
    # TF 2.21 (probe /tmp/k1/p1.py): 3 then 2 batches (Keras keeps the 2 batches it peeked at)
    assert counter.counts == [3, 2]
    assert history.params["steps"] is None
    np.testing.assert_allclose(history.history["loss"], [0.6537, 0.1893], atol=1e-4)
    np.testing.assert_allclose(history.history["mae"], [0.7902, 0.428], atol=1e-4)
    history = model.fit(_finite(weights=True), epochs=1, verbose=0, batch_size=7)
    np.testing.assert_allclose(history.history["loss"], [0.0507], atol=1e-4)
    np.testing.assert_allclose(model.evaluate(_finite(True), verbose=0), [0.0202, 0.1331], atol=1e-4)
    np.testing.assert_allclose(model.evaluate(_finite(True), steps=2, verbose=0), [0.0283, 0.168], atol=1e-4)
    assert model.predict(((x,) for x, _ in _finite()), verbose=0).shape == (12, 1)
    assert model.predict(_finite(), verbose=0).shape == (12, 1)

    def endless():
        while True:
            yield from _finite()

    counter = _CountBatches()
    history = model.fit(endless(), steps_per_epoch=2, epochs=3, verbose=0, callbacks=[counter])
    assert counter.counts == [2, 2, 2]
    np.testing.assert_allclose(history.history["loss"], [0.0251, 0.0107, 0.0022], atol=1e-4)
    history = model.fit(endless(), steps_per_epoch=2, epochs=1, verbose=0, validation_data=_finite())
    np.testing.assert_allclose([history.history[k][0] for k in ("loss", "mae", "val_loss", "val_mae")],
                               [0.0072, 0.0691, 0.0043, 0.0562], atol=1e-4)


def test_bad_generators_are_clear_errors():
    model = _fresh()
    with pytest.raises(ValueError, match=r"must return a tuple, either \(input,\)"):
        model.predict((x for x, _ in _finite()), verbose=0)
    with pytest.raises(ValueError, match="must yield at least one batch"):
        model.fit((b for b in []), verbose=0)
    with pytest.raises(ValueError, match="unrecognized data type.*list_iterator"):
        model.fit(iter([1, 2, 3]), verbose=0)


def test_steps_per_epoch_on_arrays_continues_across_epochs():
    # TF 2.21 (probe p26): 4 batches of 3 rows, steps_per_epoch=3: the second epoch gets the last
    # batch only (ran out: a warning), the third starts a fresh pass
    x = np.arange(12, dtype="float32").reshape(12, 1)
    seen = []

    class Record(tf.keras.layers.Layer):
        def call(self, inputs):
            if tf.executing_eagerly():
                seen.append(inputs.numpy().ravel().tolist())
            return inputs * 1.0

    model = tf.keras.Sequential([Record(), tf.keras.layers.Dense(1)])
    model.compile("sgd", "mse", run_eagerly=True)
    counter = _CountBatches()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        history = model.fit(x, x, batch_size=3, epochs=3, steps_per_epoch=3, verbose=0, shuffle=False,
                            callbacks=[counter])
    assert counter.counts == [3, 1, 3] and len(history.history["loss"]) == 3
    assert seen == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10, 11], [0, 1, 2], [3, 4, 5], [6, 7, 8]]
    assert sum("Your input ran out of data" in str(w.message) for w in caught) == 1


@pytest.mark.parametrize("data, shuffle, warned", [
    ("dataset", True, "a tf.data.Dataset"), ("dataset", False, None), ("generator", True, "a generator"),
    ("arrays", True, None)])
def test_fit_warns_that_shuffle_is_ignored_for_datasets_and_generators(data, shuffle, warned):
    # TF 2.21 + Keras 3.15: fit(dataset) (shuffle=True by default) warns "`shuffle=True` was passed, but will
    # be ignored since the data `x` was provided as a tf.data.Dataset. ..." (a UserWarning); arrays do not
    def generator():
        for start in range(0, 12, 4):
            yield X[start:start + 4], Y[start:start + 4]

    inputs = {"dataset": lambda: (tf.data.Dataset.from_tensor_slices((X, Y)).batch(4), None),
              "generator": lambda: (generator(), None), "arrays": lambda: (X, Y)}[data]()
    model = _dense()
    model.compile(optimizer="sgd", loss="mse")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model.fit(*inputs, epochs=1, verbose=0, shuffle=shuffle)
    shown = [str(w.message) for w in caught if "`shuffle=True` was passed" in str(w.message)]
    if warned is None:
        assert shown == []
    else:
        assert shown == [f"`shuffle=True` was passed, but will be ignored since the data `x` was provided as "
                         f"{warned}. " + ("The Dataset is expected to already be shuffled (via "
                                          "`.shuffle(buffer_size)`)." if data == "dataset" else
                                          "The generator is expected to yield already-shuffled data.")]
