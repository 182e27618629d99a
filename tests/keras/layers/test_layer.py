"""The `Layer` base: naming, build, tracking, freezing, losses, training, configs, errors."""

import numpy as np
import pytest

import companion as tf
from companion.keras import layers
from companion.keras.layers._naming import reset_name_counts, to_snake_case


class Scale(layers.Layer):
    def __init__(self, regularizer=None, **kwargs):
        super().__init__(**kwargs)
        self.regularizer = regularizer
        self.build_shapes = []

    def build(self, input_shape):
        self.build_shapes.append(tuple(input_shape))
        self.w = self.add_weight(name="w", shape=(input_shape[-1],), initializer="ones",
                                 regularizer=self.regularizer)

    def call(self, inputs, training=None):
        self.seen_training = training
        return inputs * self.w


class Block(layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.parts = [Scale(), {"second": Scale()}]
        self.counter = tf.Variable(0.0, trainable=False)
        vars(self)["extra"] = Scale()

    def call(self, inputs):
        x = self.parts[1]["second"](self.parts[0](inputs))
        return self.extra(x) + self.counter


def test_unique_snake_case_names():
    reset_name_counts()
    assert [layers.Dense(1).name for _ in range(3)] == ["dense", "dense_1", "dense_2"]
    assert layers.Dense(1, name="mine").name == "mine"
    assert to_snake_case("BatchNormalization") == "batch_normalization"
    assert to_snake_case("Conv2D") == "conv2d"
    assert to_snake_case("GlobalAveragePooling2D") == "global_average_pooling2d"


def test_build_once_with_input_shape_and_weight_names():
    layer = Scale(name="scale_test")
    assert not layer.built and layer.weights == []
    layer(np.ones((2, 3), np.float32))
    layer(tf.ones([5, 3]))
    assert layer.built and layer.build_shapes == [(2, 3)]
    assert [(w.name, w.path) for w in layer.weights] == [("w", "scale_test/w")]  # Keras 3 names
    assert layer.count_params() == 3


def test_build_called_directly_marks_built():
    layer = Scale()
    layer.build(tf.TensorShape([None, 4]))
    assert layer.built and layer.count_params() == 4


def test_tracks_sublayers_and_variables_in_lists_dicts_and_vars():
    block = Block()
    block(tf.ones([1, 2]))
    assert len(block.trainable_weights) == 3
    assert [w.name for w in block.non_trainable_weights] == [block.counter.name]
    assert len(block.weights) == len(block.variables) == 4
    assert block.trainable_variables == block.trainable_weights
    assert block.count_params() == 7
    assert len(block.submodules) == 3


def test_freezing_reaches_sublayers():
    block = Block()
    block(tf.ones([1, 2]))
    block.trainable = False
    assert block.trainable_weights == [] and len(block.non_trainable_weights) == 4
    assert all(not part.trainable for part in (block.parts[0], block.extra))
    block.trainable = True
    block.parts[0].trainable = False
    assert len(block.trainable_weights) == 2 and len(block.non_trainable_weights) == 2


def test_losses_from_regularizers_follow_the_weights():
    layer = Scale(regularizer=tf.keras.regularizers.L2(0.5))
    layer(tf.ones([1, 2]))
    assert [float(x) for x in layer.losses] == [pytest.approx(1.0)]
    layer.w.assign([2.0, 0.0])
    assert float(layer.losses[0]) == pytest.approx(2.0)


def test_add_loss_is_reset_on_each_outer_call():
    class Penalty(layers.Layer):
        def call(self, inputs):
            self.add_loss(tf.reduce_sum(inputs))
            return inputs

    class Outer(layers.Layer):
        def __init__(self):
            super().__init__()
            self.inner = Penalty()

        def call(self, inputs):
            return self.inner(inputs)

    outer = Outer()
    outer(tf.ones([2]))
    outer(tf.ones([3]))
    assert [float(x) for x in outer.losses] == [3.0]


def test_activity_regularizer_divides_by_batch():
    dense = layers.Dense(2, kernel_initializer="ones", activity_regularizer="l1")
    dense(tf.ones([4, 3]))
    assert float(dense.losses[0]) == pytest.approx(0.01 * 4 * 2 * 3 / 4)


def test_training_propagates_to_sublayers():
    class Outer(layers.Layer):
        def __init__(self):
            super().__init__()
            self.inner = Scale()

        def call(self, inputs):
            return self.inner(inputs)

    outer = Outer()
    outer(tf.ones([1, 2]), training=True)
    assert outer.inner.seen_training is True
    outer(tf.ones([1, 2]))
    assert outer.inner.seen_training is None
    outer.inner(tf.ones([1, 2]), training=False)
    assert outer.inner.seen_training is False


def test_config_round_trip_and_weights():
    layer = layers.Layer(name="plain", trainable=False, dtype="float64")
    clone = layers.Layer.from_config(layer.get_config())
    assert clone.get_config() == {"name": "plain", "trainable": False, "dtype": {  # TF 2.21's Keras 3.15
        "module": "keras", "class_name": "DTypePolicy", "config": {"name": "float64"},
        "registered_name": None}}
    dense = layers.Dense(2)
    dense(tf.ones([1, 3]))
    dense.set_weights([np.ones((3, 2)), np.zeros(2)])
    np.testing.assert_array_equal(dense(tf.ones([1, 3])).numpy(), [[3.0, 3.0]])
    with pytest.raises(ValueError, match="expects 2 weight arrays"):
        dense.set_weights([np.ones((3, 2))])


def test_float_inputs_are_cast_to_the_layer_dtype():
    assert layers.Dense(2)(np.ones((1, 3))).dtype == tf.float32
    assert layers.Dense(2, dtype="float64")(np.ones((1, 3), np.float32)).dtype == tf.float64


def test_errors_name_the_layer_and_shapes():
    dense = layers.Dense(2, name="head")
    dense(tf.ones([1, 3]))
    with pytest.raises(ValueError, match=r"layer 'head'.*axis -1.*value 3.*shape \(1, 4\)"):
        dense(tf.ones([1, 4]))
    with pytest.raises(ValueError, match=r"layer 'head'.*min_ndim=2.*shape received: \(3,\)"):
        dense(tf.ones([3]))
    with pytest.raises(ValueError, match="isn't built"):
        layers.Dense(2).count_params()
    with pytest.raises(TypeError, match="not understood"):
        layers.Dense(2, bogus=1)


def test_layer_in_function_matches_eager_and_traces_once():
    dense = layers.Dense(4, activation="relu", kernel_regularizer="l2")
    x = tf.random.normal([3, 5], seed=1)

    @tf.function
    def forward(inputs):
        return dense(inputs), tf.add_n(dense.losses)

    staged, loss = forward(x)  # the weights are created on this first trace
    np.testing.assert_allclose(staged.numpy(), dense(x).numpy(), rtol=1e-6)
    np.testing.assert_allclose(loss.numpy(), dense.losses[0].numpy(), rtol=1e-6)
    dense.kernel.assign(dense.kernel * 2.0)
    np.testing.assert_allclose(forward(x)[0].numpy(), dense(x).numpy(), rtol=1e-6)
    assert forward.experimental_get_tracing_count() == 2  # built on the first call: TF traces twice
    assert len(dense.weights) == 2


def test_function_of_a_layer_object():
    dense = layers.Dense(2)
    staged = tf.function(dense)
    x = tf.ones([2, 3])
    np.testing.assert_allclose(staged(x).numpy(), dense(x).numpy(), rtol=1e-6)
    staged(x)
    assert staged.experimental_get_tracing_count() == 2  # the first call built the layer


class LectureNet(layers.Layer):
    """The lecture's model as nested layers: Flatten → Dense 128 relu → Dropout 0.2 → Dense 10."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.stack = [layers.Flatten(), layers.Dense(16, activation="relu"), layers.Dropout(0.2, seed=1),
                      layers.Dense(10)]

    def call(self, inputs, training=None):
        for layer in self.stack:
            inputs = layer(inputs, training=training)
        return inputs


def test_nested_layers_train_in_a_compiled_step():
    net = LectureNet()
    opt = tf.keras.optimizers.Adam(0.01)
    rng = np.random.default_rng(0)
    x = tf.constant(rng.normal(size=(32, 4, 4)).astype(np.float32))
    y = tf.constant(rng.integers(0, 10, size=32))
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, net(x, training=True))
        opt.apply_gradients(zip(tape.gradient(loss, net.trainable_variables), net.trainable_variables))
        return loss

    losses = [float(step(x, y)) for _ in range(60)]
    assert losses[-1] < 0.5 * losses[0]
    assert step.experimental_get_tracing_count() == 2  # weights and slots made on the first call
    assert net.count_params() == 16 * 16 + 16 + 16 * 10 + 10
    np.testing.assert_array_equal(net(x).numpy(), net(x, training=False).numpy())
