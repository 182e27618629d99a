"""Functional models: Input, graphs with several inputs/outputs, shared layers, nesting."""

import warnings

import numpy as np
import pytest

import companion as tf

RNG = np.random.default_rng(1)
layers = tf.keras.layers


def test_keras_tensor_shapes_and_repr():
    x = tf.keras.Input(shape=(None, 8), dtype="int32", name="tokens")
    assert x.shape == (None, None, 8) and x.dtype == tf.int32
    y = layers.Embedding(10, 4)(tf.keras.Input(shape=(None,), dtype="int32"))
    assert y.shape == (None, None, 4)  # unknown axes stay unknown through layers
    # TF 2.21 / Keras 3.15 reprs: the tensor's own name, keras_tensor_N unless the Input was named
    assert repr(x) == ("<KerasTensor shape=(None, None, 8), dtype=int32, sparse=False, ragged=False, "
                       "name=tokens>")
    assert repr(y).startswith("<KerasTensor shape=(None, None, 4), dtype=float32, sparse=False, "
                              "ragged=False, name=keras_tensor")
    with pytest.raises(TypeError, match="symbolic placeholder"):
        np.asarray(x)


def test_two_inputs_two_outputs_with_a_shared_layer():
    a, b = tf.keras.Input(shape=(4,), name="a"), tf.keras.Input(shape=(4,), name="b")
    shared = layers.Dense(3, name="shared")
    merged = layers.Concatenate()([shared(a), shared(b)])
    out1 = layers.Dense(1, name="reg")(merged)
    out2 = layers.Dense(2, name="cls")(merged)
    model = tf.keras.Model(inputs=[a, b], outputs=[out1, out2])
    assert model.output_names == ["reg", "cls"] and model.input_names == ["a", "b"]
    assert len(model.weights) == 6  # the shared kernel and bias count once
    xa, xb = RNG.normal(size=(5, 4)).astype(np.float32), RNG.normal(size=(5, 4)).astype(np.float32)
    k, bias = shared.get_weights()
    k1, b1 = model.get_layer("reg").get_weights()
    merged_np = np.concatenate([xa @ k + bias, xb @ k + bias], axis=1)
    r, c = model([xa, xb])
    np.testing.assert_allclose(r.numpy(), merged_np @ k1 + b1, rtol=1e-5, atol=1e-6)
    r_dict, _ = model({"a": xa, "b": xb})
    np.testing.assert_allclose(r_dict.numpy(), r.numpy())
    assert c.shape == (5, 2)


def test_dict_outputs_and_nested_models():
    inner_in = tf.keras.Input(shape=(3,))
    inner = tf.keras.Model(inner_in, layers.Dense(2, activation="relu")(inner_in), name="inner")
    x = tf.keras.Input(shape=(3,))
    h = inner(x)
    model = tf.keras.Model(x, {"score": layers.Dense(1)(h), "hidden": h})
    out = model(np.ones((2, 3), np.float32))
    assert set(out) == {"score", "hidden"} and out["hidden"].shape == (2, 2)
    assert inner in model.layers and model.count_params() == 8 + 3


def test_operators_on_keras_tensors_become_layers():
    x = tf.keras.Input(shape=(2,))
    model = tf.keras.Model(x, 2.0 * x + 1.0)
    np.testing.assert_allclose(model(np.array([[1.0, -1.0]], np.float32)).numpy(), [[3.0, -1.0]])


def test_graph_disconnected_and_bad_arguments():
    a, b = tf.keras.Input(shape=(2,)), tf.keras.Input(shape=(2,))
    out = layers.Add()([a, b])
    with pytest.raises(ValueError, match="^Output with path `` is not connected to `inputs`\n"):  # TF 2.21
        tf.keras.Model(a, out)
    with pytest.raises(ValueError, match="^Output with path `1` is not connected to `inputs`\n"):
        tf.keras.Model(a, [a, out])
    with pytest.raises(TypeError, match="must be KerasTensors"):
        tf.keras.Model(a, np.ones(2))
    with pytest.raises(ValueError, match="needs both"):
        tf.keras.Model(inputs=a)
    model = tf.keras.Model([a, b], out)
    with pytest.raises(ValueError, match="expects 2 input"):
        model(np.ones((1, 2), np.float32))


def test_subclassed_model_tracks_layers_and_builds():
    class TwoLayers(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.hidden = layers.Dense(5, activation="relu")
            self.out = layers.Dense(1)

        def call(self, inputs, training=False):
            return self.out(self.hidden(inputs))

    model = TwoLayers()
    assert model.name.startswith("two_layers") and not model.weights
    # Keras 3.15: build() on a subclassed model marks it built but leaves its layers unbuilt
    # (UserWarning); the summary shows them as "?" and "0 (unbuilt)"; the first call builds them
    with pytest.warns(UserWarning, match="unbuilt layers"):
        model.build((None, 3))
    assert model.built and not model.hidden.built and model.weights == [] and model.count_params() == 0
    assert model.layers == [model.hidden, model.out]
    lines = []
    model.summary(print_fn=lines.append)
    row = next(line for line in lines[0].splitlines() if f"{model.hidden.name} (Dense)" in line)
    assert row.split("│")[2:4] == [" ?                      ", "   0 (unbuilt) "]
    model(np.ones((2, 3), np.float32))
    assert [tuple(w.shape) for w in model.weights] == [(3, 5), (5,), (5, 1), (1,)]
    lines = []
    model.summary(print_fn=lines.append)
    row = next(line for line in lines[0].splitlines() if f"{model.hidden.name} (Dense)" in line)
    assert row.split("│")[2:4] == [" (2, 5)                 ", "            20 "]


def test_default_build_warns_only_when_called_by_hand_on_unbuilt_sublayers():
    class Wrapper(layers.Layer):  # Keras 3.15: build() by hand warns, the first call does not
        def __init__(self):
            super().__init__()
            self.inner = layers.Dense(2)

        def call(self, inputs):
            return self.inner(inputs)

    with pytest.warns(UserWarning, match="'wrapper'.*unbuilt layers"):
        Wrapper().build((None, 3))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        layer = Wrapper()
        layer(np.ones((1, 3), np.float32))  # no warning: the call builds the sublayer
        layers.Dense(2).build((None, 3))  # a layer with its own build
        plain = layers.Layer()
        plain.build((None, 3))  # no sublayers: nothing left unbuilt
    assert layer.built and layer.inner.built and plain.built


def test_a_nested_sequential_reports_its_output_shape_in_a_subclassed_summary():
    class Classifier(tf.keras.Model):  # the course's C2W3 model; Keras 3.15 prints (2, 32) for it
        def __init__(self):
            super().__init__()
            self.features = tf.keras.Sequential([layers.Conv2D(32, 3), layers.GlobalMaxPooling2D()])
            self.head = layers.Dense(3)

        def call(self, inputs):
            return self.head(self.features(inputs))

    model = Classifier()
    model(np.zeros((2, 8, 8, 3), np.float32))
    lines = []
    model.summary(print_fn=lines.append)
    row = next(line for line in lines[0].splitlines() if "(Sequential)" in line)
    assert row.split("│")[2].strip() == "(2, 32)"
    assert model.features.compute_output_shape((None, 8, 8, 3)) == (None, 32)


def test_custom_layer_with_forced_weights_gives_the_course_value():
    class SimpleQuadratic(layers.Layer):
        """The course's custom layer: a * x ** 2 + b * x + c."""

        def __init__(self, units=1, activation=None):
            super().__init__()
            self.units, self.activation = units, tf.keras.activations.get(activation)

        def build(self, input_shape):
            shape = (input_shape[-1], self.units)
            self.a = self.add_weight(name="a", shape=shape, initializer="random_normal")
            self.b = self.add_weight(name="b", shape=shape, initializer="random_normal")
            self.c = self.add_weight(name="c", shape=(self.units,), initializer="zeros")

        def call(self, inputs):
            return self.activation(tf.matmul(tf.square(inputs), self.a) + tf.matmul(inputs, self.b)
                                   + self.c)

    x = tf.keras.Input(shape=(1,))
    model = tf.keras.Model(x, SimpleQuadratic()(x))
    model.layers[1].set_weights([np.array([[1.0]]), np.array([[3.0]]), np.array([2.0])])
    assert float(model(np.array([[5.0]], np.float32))[0, 0]) == 1.0 * 25 + 3.0 * 5 + 2.0 == 42.0


# Keras 3.15 (observed): operators and keras.ops on KerasTensors are ops named after their class,
# in the graph and summary but not in model.layers
@pytest.mark.parametrize("make, class_name", [
    (lambda x: x + 1, "Add"), (lambda x: 1 - x, "Subtract"), (lambda x: x * 2, "Multiply"),
    (lambda x: 2 / x, "TrueDivide"), (lambda x: x // 2, "FloorDivide"), (lambda x: x ** 2, "Power"),
    (lambda x: x % 3, "Mod"), (lambda x: -x, "Negative"), (lambda x: abs(x), "Absolute"),
    (lambda x: x[:, 0], "GetItem"), (lambda x: x @ np.ones((4, 2), np.float32), "Matmul"),
    (lambda x: tf.keras.ops.concatenate([x, x], axis=1), "Concatenate"),
    (lambda x: tf.keras.ops.mean(x, axis=1), "Mean"),
    (lambda x: tf.keras.ops.expand_dims(x, -1), "ExpandDims"),
])
def test_ops_on_keras_tensors_are_named_as_keras_3_ops(make, class_name):
    tf.keras.backend.clear_session()
    x = tf.keras.Input((4,), name="x")
    model = tf.keras.Model(x, make(x))
    op = model._graph.layers[-1]
    snake = "".join("_" + c.lower() if c.isupper() else c for c in class_name).lstrip("_")
    assert (op.name, op._display_class_name()) == (snake, class_name)
    assert repr(op) == f"<{class_name} name={snake}, built=True>"
    assert [layer.name for layer in model.layers] == ["x"]
    lines = []
    model.summary(print_fn=lines.append)
    assert f"{snake} ({class_name})" in lines[0] or f"({class_name})" in lines[0]


def test_ops_on_keras_tensors_compute_what_they_say():
    x = tf.keras.Input((3,))
    both = tf.keras.ops.concatenate([x, x * 2], axis=1)
    model = tf.keras.Model(x, tf.keras.ops.sum(both, axis=1, keepdims=True) - x[:, :1])
    np.testing.assert_allclose(model(np.array([[1.0, 2.0, 3.0]], np.float32)).numpy(), [[17.0]])


def test_keras_ops_on_plain_values_still_raise_conversion_errors():
    with pytest.raises(ValueError):
        tf.keras.ops.concatenate([object(), np.ones(2)])


def test_inputs_are_checked_against_the_models_inputs():
    # TF 2.21 / Keras 3: Functional.input_spec, checked before the layers run (first line recorded)
    inputs = tf.keras.Input((3,), name="features")
    model = tf.keras.Model(inputs, layers.Dense(2, kernel_initializer="ones")(inputs), name="net")
    with pytest.raises(ValueError, match=r"^Input 0 with name 'features' of layer 'net' is incompatible with "
                                         r"the layer: expected shape=\(None, 3\), found shape=\(2, 4\)\n"):
        model(np.ones((2, 4), np.float32))
    # a size-1 last axis is dropped to match the Input's rank
    np.testing.assert_array_equal(model(np.ones((2, 3, 1), np.float32)).numpy(), np.full((2, 2), 3.0))
    # another difference of rank is Keras 3's "Invalid input shape" error, raised in the model's call
    with pytest.raises(ValueError) as info:
        model(np.ones((2, 3, 2), np.float32))
    message = str(info.value).replace("\x1b[1m", "").replace("\x1b[0m", "")
    assert message.splitlines()[0] == "Exception encountered when calling Functional.call()."
    assert ("with name 'features' and path ''. Expected shape (None, 3), but input has incompatible shape "
            "(2, 3, 2)\nPass inputs of rank 2 (the batch axis first), as the model's Input was "
            "declared.") in message
