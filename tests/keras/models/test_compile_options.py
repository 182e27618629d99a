"""``compile``'s options as Keras 3 keeps them (``steps_per_execution``, ``jit_compile``, a recompile
without loss or metrics) and the positional order of ``keras.Input``, against values observed under
TF 2.21 + Keras 3.15 (probes keras23/p08, p10, p11, p13)."""

import warnings

import numpy as np
import pytest

import companion as tf

X = np.ones((10, 3), "float32")
Y = np.zeros((10, 2), "float32")


def _model():
    inputs = tf.keras.Input((3,))
    return tf.keras.Model(inputs, tf.keras.layers.Dense(2, kernel_initializer="ones")(inputs))


def test_steps_per_execution_and_jit_compile_are_attributes_before_and_after_compile():
    model = _model()
    assert (model.steps_per_execution, model.jit_compile, model.run_eagerly) == (1, False, False)
    model.steps_per_execution = 4
    assert model.steps_per_execution == 4
    model.compile("sgd", "mse", steps_per_execution=2)
    assert model.steps_per_execution == 2
    model.steps_per_execution = 5  # the compile config keeps what compile was given
    assert model.get_compile_config()["steps_per_execution"] == 2
    model.jit_compile = True
    assert model.jit_compile is True
    model.jit_compile = "auto"  # an assigned value is kept as given
    assert model.jit_compile == "auto"
    model.compile("sgd", "mse", jit_compile="auto")
    assert model.jit_compile is False and model.steps_per_execution == 1


def test_jit_compile_with_run_eagerly_is_disabled_with_keras_warning():
    model = _model()
    with pytest.warns(UserWarning, match="If `run_eagerly` is True, then `jit_compile` cannot also be True"):
        model.compile("sgd", "mse", jit_compile=True, run_eagerly=True)
    assert (model.jit_compile, model.run_eagerly) == (False, True)
    assert model.get_compile_config()["jit_compile"] is False
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model.compile("sgd", "mse", jit_compile=True)
    assert model.jit_compile is True and model.get_compile_config()["jit_compile"] is True


def test_callbacks_see_one_batch_per_execution_numbered_as_keras():
    # Keras 3.15, steps_per_execution=3, 5 batches: begin hooks at 0 and 3, end hooks at 2 and 5 (3 + 3 - 1,
    # past the last batch), every batch trained (iterations 10 after 2 epochs)
    calls = []
    def record(kind, when):
        return lambda batch, logs: calls.append((kind, when, batch))

    hooks = {f"on_{kind}_batch_{when}": record(kind, when)
             for kind in ("train", "test", "predict") for when in ("begin", "end")}
    model = _model()
    model.compile("sgd", "mse", steps_per_execution=3)
    callback = tf.keras.callbacks.LambdaCallback(**hooks)
    history = model.fit(X, Y, batch_size=2, epochs=2, verbose=0, callbacks=[callback], validation_data=(X, Y))
    group = [("begin", 0), ("end", 2), ("begin", 3), ("end", 5)]
    epoch = [("train",) + g for g in group] + [("test",) + g for g in group]
    assert calls == epoch * 2
    assert int(model.optimizer.iterations.numpy()) == 10
    assert history.history["loss"][0] == pytest.approx(7.6952, rel=1e-4)
    assert history.history["val_loss"][0] == pytest.approx(5.9835, rel=1e-4)
    calls.clear()
    outputs = []
    callback.on_predict_batch_end = lambda batch, logs: outputs.append((batch, logs["outputs"].shape))
    predictions = model.predict(X, batch_size=2, verbose=0, callbacks=[callback])
    assert predictions.shape == (10, 2)
    assert outputs == [(2, (6, 2)), (5, (4, 2))]  # an execution's outputs together


def test_a_recompile_without_loss_or_metrics_keeps_the_earlier_ones():
    model = _model()
    model.compile("sgd", "mse", metrics=["mae"])
    model.compile("adam", "mse")
    assert model.metrics_names == ["loss", "compile_metrics"]
    assert model.get_compile_config()["metrics"] is None
    assert model.evaluate(X[:6], Y[:6], verbose=0, return_dict=True) == {"loss": 9.0, "mae": 3.0}
    assert sorted(model.fit(X[:6], Y[:6], epochs=1, verbose=0).history) == ["loss", "mae"]
    model.compile("adam")
    assert model.loss == "mse" and model.metrics_names == ["loss", "compile_metrics"]
    logs = model.evaluate(X[:6], Y[:6], verbose=0, return_dict=True)
    assert logs == pytest.approx({"loss": 8.976016, "mae": 2.996})
    model.compile("adam", loss="mae", metrics=["mse"])
    assert model.evaluate(X[:6], Y[:6], verbose=0, return_dict=True) == pytest.approx(
        {"loss": 2.996, "mse": 8.976016})
    fresh = _model()
    fresh.compile("adam")
    assert fresh.metrics_names == ["loss"]


def test_input_takes_keras_3_arguments_in_keras_3_order():
    tokens = tf.keras.Input((None, 5), 4, "int32", name="tok")  # dtype third, as in Keras 3
    assert (tokens.shape, tokens.dtype, tokens.name) == ((4, None, 5), "int32", "tok")
    plain = tf.keras.Input((2,), sparse=False, ragged=False, tensor=None, optional=False)
    assert plain.shape == (None, 2)
    with pytest.raises(NotImplementedError, match="ragged"):
        tf.keras.Input((2,), ragged=True)
    with pytest.raises(TypeError, match="unexpected keyword"):
        tf.keras.Input((2,), shap=3)
