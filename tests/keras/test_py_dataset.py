"""keras.utils.PyDataset / Sequence as fit/evaluate/predict input: the batches a subclass returns are
the batches the model sees, epoch hooks fire once per pass."""

import numpy as np
import pytest

import companion as tf


class _Batches(tf.keras.utils.Sequence):
    def __init__(self, x, y, batch_size):
        super().__init__()
        self.x, self.y, self.batch_size = x, y, batch_size
        self.begins = self.ends = 0
        self.order = np.arange(len(x))

    def __len__(self):
        return -(-len(self.x) // self.batch_size)

    def __getitem__(self, index):
        rows = self.order[index * self.batch_size:(index + 1) * self.batch_size]
        return self.x[rows], self.y[rows]

    def on_epoch_begin(self):
        self.begins += 1

    def on_epoch_end(self):
        self.ends += 1


def _data():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(10, 3)).astype(np.float32)
    return x, x @ np.array([[1.0], [-2.0], [0.5]], np.float32)


def _model():
    model = tf.keras.Sequential([tf.keras.layers.Input((3,)),
                                 tf.keras.layers.Dense(1, kernel_initializer="zeros")])
    model.compile(tf.keras.optimizers.SGD(0.1), "mse")
    return model


def test_fit_on_a_sequence_takes_the_same_steps_as_fit_on_its_arrays():
    x, y = _data()
    batches = _Batches(x, y, batch_size=4)
    by_sequence, by_arrays = _model(), _model()
    history = by_sequence.fit(batches, epochs=3, verbose=0, shuffle=False)
    expected = by_arrays.fit(x, y, batch_size=4, epochs=3, shuffle=False, verbose=0)
    np.testing.assert_allclose(history.history["loss"], expected.history["loss"], rtol=1e-5)
    np.testing.assert_allclose(by_sequence.get_weights()[0], by_arrays.get_weights()[0], rtol=1e-5)
    assert batches.begins == 3 and batches.ends == 4


class _Recording(_Batches):
    """Batches that note which index each read asked for."""

    def __init__(self, x, y, batch_size):
        super().__init__(x, y, batch_size)
        self.seen = []

    def __getitem__(self, index):
        self.seen.append(index)
        return super().__getitem__(index)


def test_epoch_end_hook_reshuffles_what_the_next_epoch_reads():
    x, y = _data()

    class Reversing(_Recording):
        def on_epoch_end(self):
            super().on_epoch_end()
            self.order = self.order[::-1].copy()

    recording = Reversing(x, y, 5)
    _model().fit(recording, epochs=2, verbose=0, shuffle=False)
    # batches 0 and 1 peeked for the element spec, then every batch once per epoch
    assert recording.seen == [0, 1, 0, 1, 0, 1]
    # Keras 3 resets the epoch (on_epoch_end) as fit begins, then ends each of the two epochs
    assert recording.ends == 3 and recording.begins == 2


def test_fit_shuffles_the_batch_order_with_pythons_random_as_keras_does():
    import random

    x, y = _data()
    tf.keras.utils.set_random_seed(4)
    recording = _Recording(np.concatenate([x] * 3), np.concatenate([y] * 3), 3)
    _model().fit(recording, epochs=2, verbose=0)
    seen = recording.seen
    random.seed(4)
    expected = []
    for _ in range(2):
        order = list(range(10))
        random.shuffle(order)
        expected += order
    assert seen[2:] == expected


def test_evaluate_and_predict_read_a_sequence_and_validation_data_may_be_one():
    x, y = _data()
    model = _model()
    history = model.fit(x, y, epochs=2, verbose=0, validation_data=_Batches(x, y, 3))
    assert len(history.history["val_loss"]) == 2
    np.testing.assert_allclose(model.evaluate(_Batches(x, y, 3), verbose=0),
                               model.evaluate(x, y, batch_size=3, verbose=0), rtol=1e-6)
    np.testing.assert_allclose(model.predict(_Batches(x, y, 4), verbose=0),
                               model.predict(x, verbose=0), rtol=1e-6)


def test_a_sequence_without_batches_or_methods_is_refused_clearly():
    class Empty(tf.keras.utils.PyDataset):
        def __len__(self):
            return 0

    with pytest.raises(ValueError, match="no batches"):
        _model().fit(Empty(), verbose=0)
    class Scalars(_Batches):
        def __getitem__(self, index):
            return 1.0, 2.0

    with pytest.raises(ValueError, match="rank >= 1"):
        _model().fit(Scalars(*_data(), 5), verbose=0)

    class Strings(_Batches):
        def __getitem__(self, index):
            return "x"

    with pytest.raises(ValueError, match="must return a tuple"):
        _model().fit(Strings(*_data(), 5), verbose=0)
    with pytest.raises(NotImplementedError, match="__len__"):
        len(tf.keras.utils.PyDataset())
