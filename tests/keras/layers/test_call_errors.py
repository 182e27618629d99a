"""Errors raised in a layer's call: Keras 3's wrapping naming the call and its arguments.

The expected texts are TF 2.21 / Keras 3.15's (recorded from it; `tf.Tensor` reads
`companion.Tensor`, the documented naming difference)."""

import numpy as np
import pytest

import companion as tf

layers = tf.keras.layers
A = np.ones((2, 3), np.float32)
B = np.ones((2, 4), np.float32)


class Bad(layers.Layer):
    def call(self, inputs, training=None):
        raise ValueError("boom")


class Broken(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = layers.Dense(2)

    def call(self, x):
        return self.dense(x) + tf.ones((5,))


def _plain(error):
    return str(error).replace("\x1b[1m", "").replace("\x1b[0m", "")


def test_eager_call_error_names_the_call_and_its_arguments():
    with pytest.raises(ValueError) as info:
        Bad()(A, training=True)
    assert type(info.value) is ValueError
    assert _plain(info.value) == ("Exception encountered when calling Bad.call().\n\nboom\n\n"
                                  "Arguments received by Bad.call():\n"
                                  "  • inputs=companion.Tensor(shape=(2, 3), dtype=float32)\n"
                                  "  • training=True")
    assert "\x1b[1mboom\x1b[0m" in str(info.value)  # the inner message in bold, as Keras 3


def test_symbolic_call_error_says_the_output_was_not_inferred():
    x = tf.keras.Input((3,))
    with pytest.raises(ValueError) as info:
        Bad(name="bad_layer")(x)
    lines = _plain(info.value).splitlines()
    assert lines[:3] == ["Exception encountered when calling Bad.call().", "",
                         "Could not automatically infer the output shape / dtype of 'bad_layer' (of type "
                         "Bad). Either the `Bad.call()` method is incorrect, or you need to implement the "
                         "`Bad.compute_output_spec() / compute_output_shape()` method. Error encountered:"]
    assert lines[-2:] == [f"  • args=('{x!r}',)", "  • kwargs=<class 'inspect._empty'>"]


def test_only_the_innermost_call_wraps_the_error():
    model = tf.keras.Sequential([tf.keras.Input((3,)), layers.Dense(2)])
    with pytest.raises(ValueError) as info:
        model(B)
    text = _plain(info.value)
    assert text.startswith("Exception encountered when calling Sequential.call().\n\nInput 0 with name "
                           "'None' of layer")
    assert text.count("Exception encountered") == 1
    assert text.endswith("Arguments received by Sequential.call():\n"
                         "  • inputs=companion.Tensor(shape=(2, 4), dtype=float32)\n"
                         "  • training=None\n  • mask=None\n  • kwargs=<class 'inspect._empty'>")


def test_op_errors_keep_their_class_and_message_attribute():
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        Broken()(A)
    assert info.value.message.startswith("Exception encountered when calling Broken.call().")
    assert "  • x=companion.Tensor(shape=(2, 3), dtype=float32)" in info.value.message


@pytest.mark.parametrize("run", [lambda m: m.predict(A, verbose=0),
                                 lambda m: m.fit(A, np.ones((2, 2)), verbose=0)])
def test_fit_and_predict_raise_the_wrapped_error_without_autograph_frames(run):
    model = Broken()
    model.compile("sgd", "mse")
    with pytest.raises(ValueError) as info:
        run(model)
    assert _plain(info.value).startswith("Exception encountered when calling Broken.call().\n\n"
                                         "Dimensions must be equal, but are 2 and 5")
    assert "in user code" not in str(info.value)


def test_errors_of_input_checks_and_build_are_not_wrapped():
    dense = layers.Dense(2)
    dense(A)
    with pytest.raises(ValueError, match="^Input 0 with name 'None' of layer '.*' is incompatible"):
        dense(B)
    with pytest.raises(ValueError, match=r"^Shapes used to initialize variables must be fully-defined "
                                         r"\(no `None` dimensions\)\. Received: shape=\(None, 3\) for "
                                         r"variable path='my_dense/kernel'\n"):
        layers.Dense(3, name="my_dense")(tf.keras.Input((None,)))


def test_traceback_filtering_off_raises_errors_as_they_are():
    tf.keras.config.disable_traceback_filtering()
    try:
        assert not tf.keras.config.is_traceback_filtering_enabled()
        with pytest.raises(ValueError, match="^boom$"):
            Bad()(A)
    finally:
        tf.keras.config.enable_traceback_filtering()
    assert tf.keras.config.is_traceback_filtering_enabled()


def test_notes_survive_the_wrapping():
    class Noted(layers.Layer):
        def call(self, inputs):
            error = KeyError("missing")
            error.add_note("a hint")
            raise error

    with pytest.raises(KeyError) as info:
        Noted()(A)
    assert info.value.__notes__ == ["a hint"]
    assert "Arguments received by Noted.call():" in str(info.value)
