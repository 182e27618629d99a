"""Weights files and checkpoints of real models: round trips, fresh models, ModelCheckpoint."""

import numpy as np
import pytest

import companion as tf

RNG = np.random.default_rng(4)
X = RNG.normal(size=(32, 4)).astype(np.float32)
Y = RNG.integers(0, 3, 32)


def _model():
    inputs = tf.keras.Input(shape=(4,))
    hidden = tf.keras.layers.Dense(8, activation="relu")(inputs)
    hidden = tf.keras.layers.BatchNormalization()(hidden)
    model = tf.keras.Model(inputs, tf.keras.layers.Dense(3)(hidden))
    model.compile("adam", tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    return model


def test_save_weights_then_load_into_a_fresh_model(tmp_path):
    model = _model()
    model.fit(X, Y, epochs=2, verbose=0)
    path = str(tmp_path / "model.weights.h5")
    model.save_weights(path)
    fresh = _model()
    assert not np.allclose(fresh.get_weights()[0], model.get_weights()[0])
    fresh.load_weights(path)
    for got, want in zip(fresh.get_weights(), model.get_weights()):
        np.testing.assert_array_equal(got, want)  # incl. the BatchNormalization moving statistics
    np.testing.assert_allclose(fresh.predict(X, verbose=0), model.predict(X, verbose=0))


def test_load_weights_reports_a_different_architecture(tmp_path):
    model = _model()
    path = str(tmp_path / "w.weights.h5")
    model.save_weights(path)
    other = tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(3)])
    with pytest.raises(ValueError):
        other.load_weights(path)
    missing = str(tmp_path / "missing.weights.h5")
    with pytest.raises(FileNotFoundError, match=r"Unable to synchronously open file \(unable to open file: "
                                                rf"name = '{missing}', errno = 2"):
        model.load_weights(missing)


def test_weights_file_names_follow_keras3(tmp_path):
    # TF 2.21's Keras 3.15: save_weights takes only .weights.h5; load_weights .keras/.h5 files
    model = _model()
    for name in ("w.h5", "w.weights", "w.keras", "w"):
        with pytest.raises(ValueError, match=rf"^The filename must end in `\.weights\.h5`\. "
                                             rf"Received: filepath={name}$"):
            model.save_weights(name)
    for name in ("w.npz", "w"):
        with pytest.raises(ValueError, match=rf"^File format not supported: filepath={name}\. Keras 3 only "
                                             r"supports V3 `\.keras` files, `\.weights\.h5` files"):
            model.load_weights(name)


def test_checkpoint_resumes_training_exactly(tmp_path):
    model = _model()
    model.fit(X, Y, epochs=1, shuffle=False, verbose=0)
    checkpoint = tf.train.Checkpoint(model=model, optimizer=model.optimizer)
    saved = checkpoint.save(str(tmp_path / "ckpt"))
    model.fit(X, Y, epochs=1, shuffle=False, verbose=0)
    resumed = _model()
    tf.train.Checkpoint(model=resumed, optimizer=resumed.optimizer).restore(saved)
    resumed.fit(X, Y, epochs=1, shuffle=False, verbose=0)  # slots restored on the first step
    for got, want in zip(resumed.get_weights(), model.get_weights()):
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)
    assert int(resumed.optimizer.iterations) == int(model.optimizer.iterations)


def test_model_checkpoint_saves_the_best_epochs_weights(tmp_path):
    model = _model()
    pattern = str(tmp_path / "best-{epoch:02d}.weights.h5")
    checkpoint = tf.keras.callbacks.ModelCheckpoint(pattern, monitor="loss", save_best_only=True,
                                                    save_weights_only=True)
    history = model.fit(X, Y, epochs=3, verbose=0, callbacks=[checkpoint])
    losses = history.history["loss"]
    improved = [i + 1 for i, loss in enumerate(losses) if loss < min(losses[:i], default=np.inf)]
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"best-{e:02d}.weights.h5" for e in improved]
