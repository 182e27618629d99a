"""Keras initializers: fans, distributions, seeds, get and configs."""

import numpy as np
import pytest

import companion as tf
from companion.keras import initializers

SHAPE = (200, 300)
FAN_AVG, FAN_IN = 250.0, 200.0


@pytest.mark.parametrize("name, std", [
    ("glorot_uniform", np.sqrt(1 / FAN_AVG)), ("glorot_normal", np.sqrt(1 / FAN_AVG)),
    ("he_normal", np.sqrt(2 / FAN_IN)), ("he_uniform", np.sqrt(2 / FAN_IN)),
    ("random_normal", 0.05), ("random_uniform", 0.1 / np.sqrt(12)),
])
def test_random_initializer_statistics(name, std):
    values = np.asarray(initializers.get(name)(SHAPE))
    assert values.shape == SHAPE and values.dtype == np.float32
    assert abs(values.mean()) < 5 * std / np.sqrt(values.size)
    assert values.std() == pytest.approx(std, rel=0.03)


@pytest.mark.parametrize("cls, limit", [
    (initializers.GlorotUniform, np.sqrt(6 / (FAN_IN + 300))), (initializers.HeUniform, np.sqrt(6 / FAN_IN)),
    (initializers.GlorotNormal, 2 * np.sqrt(2 / (FAN_IN + 300)) / 0.87962566103423978),
    (initializers.TruncatedNormal, 0.1),
])
def test_bounded_initializers_stay_within_limit(cls, limit):
    assert np.abs(np.asarray(cls()(SHAPE))).max() <= limit * (1 + 1e-6)


def test_conv_kernel_fans_use_receptive_field():
    assert initializers.VarianceScaling is not None
    from companion.keras.initializers._variance_scaling import compute_fans

    assert compute_fans((3, 3, 16, 32)) == (144, 288)
    assert compute_fans((7,)) == (7, 7)
    assert compute_fans(()) == (1, 1)


def test_seeded_initializers_repeat_and_unseeded_differ():
    for cls in (initializers.GlorotUniform, initializers.HeNormal, initializers.RandomNormal,
                initializers.RandomUniform, initializers.TruncatedNormal):
        np.testing.assert_array_equal(np.asarray(cls(seed=5)((4, 3))), np.asarray(cls(seed=5)((4, 3))))
        assert not np.array_equal(np.asarray(cls(seed=5)((4, 3))), np.asarray(cls(seed=6)((4, 3))))
        assert not np.array_equal(np.asarray(cls()((4, 3))), np.asarray(cls()((4, 3))))


def test_constant_initializers_and_dtype():
    np.testing.assert_array_equal(np.asarray(initializers.Zeros()((2, 2))), np.zeros((2, 2)))
    np.testing.assert_array_equal(np.asarray(initializers.Ones()((3,), dtype="float64")), np.ones(3))
    np.testing.assert_array_equal(np.asarray(initializers.Constant(2.5)((2,))), [2.5, 2.5])
    with pytest.raises(ValueError, match="floating dtype"):
        initializers.GlorotUniform()((2, 2), dtype="int32")


def test_get_and_config_round_trip():
    init = initializers.get({"class_name": "RandomNormal", "config": {"stddev": 1.0, "seed": 3}})
    assert isinstance(init, initializers.RandomNormal) and init.stddev == 1.0
    again = initializers.deserialize(initializers.serialize(init))
    np.testing.assert_array_equal(np.asarray(again((3,))), np.asarray(init((3,))))
    assert isinstance(initializers.get("Zeros"), initializers.Zeros)
    with pytest.raises(ValueError, match="Unknown initializer: 'nope'"):
        initializers.get("nope")
    with pytest.raises(ValueError, match="mode"):
        initializers.VarianceScaling(mode="bad")


def test_top_level_initializers_follow_tensorflow():
    tf.random.set_seed(5)
    init = tf.random_normal_initializer()  # TF: mean 0, stddev 0.05
    values = init(shape=(200, 50), dtype="float32").numpy()
    assert values.shape == (200, 50) and abs(values.mean()) < 0.01 and abs(values.std() - 0.05) < 0.005
    assert float(tf.reduce_sum(tf.zeros_initializer()(shape=(3,), dtype="float32"))) == 0.0
    assert tf.ones_initializer()(shape=(2,)).numpy().tolist() == [1.0, 1.0]
    assert tf.constant_initializer(3.0)(shape=(2,)).numpy().tolist() == [3.0, 3.0]
    uniform = tf.random_uniform_initializer()(shape=(1000,)).numpy()  # TF: [-0.05, 0.05)
    assert uniform.min() >= -0.05 and uniform.max() < 0.05
    layer_weight = tf.Variable(initial_value=tf.random_normal_initializer()(shape=(4, 2), dtype="float32"))
    assert layer_weight.shape == (4, 2)


def test_identity_initializer():
    # Keras 3.15: gain on the diagonal of the leading square, zeros elsewhere; 2-D only
    np.testing.assert_array_equal(tf.keras.initializers.Identity(gain=2.0)((2, 3)).numpy(),
                                  [[2.0, 0.0, 0.0], [0.0, 2.0, 0.0]])
    tall = tf.keras.initializers.Identity()((3, 2), dtype="float64")
    assert tall.dtype == tf.float64
    np.testing.assert_array_equal(tall.numpy(), np.eye(3, 2))
    assert type(tf.keras.initializers.get("identity")).__name__ == "Identity"
    with pytest.raises(ValueError, match="2D"):  # Keras 3.15: ValueError
        tf.keras.initializers.Identity()((2,))
    layer = tf.keras.layers.Dense(3, kernel_initializer="identity")
    layer.build((None, 3))
    np.testing.assert_array_equal(layer.kernel.numpy(), np.eye(3))


@pytest.mark.parametrize("name, stddev, bound", [
    ("lecun_normal", np.sqrt(1 / 400), 2 * np.sqrt(1 / 400) / 0.87962566103423978),
    ("lecun_uniform", np.sqrt(1 / 400), np.sqrt(3 / 400)),
])
def test_lecun_initializers_scale_by_fan_in(name, stddev, bound):
    w = tf.keras.initializers.get(name)((400, 300)).numpy()
    assert abs(w.std() - stddev) < 0.02 * stddev and np.abs(w).max() <= bound + 1e-7
    cls = {"lecun_normal": tf.keras.initializers.LecunNormal,
           "lecun_uniform": tf.keras.initializers.LecunUniform}
    assert type(tf.keras.initializers.get(name)) is cls[name]
    assert tf.keras.initializers.OrthogonalInitializer is tf.keras.initializers.Orthogonal


def test_serialize_gives_keras3_module_and_registered_name():
    # TF 2.21's Keras 3.15: built-ins name their public module; registered_name is None
    from companion import keras

    assert keras.initializers.serialize(keras.initializers.Zeros()) == {
        "module": "keras.initializers", "class_name": "Zeros", "config": {}, "registered_name": None}
    assert keras.regularizers.serialize(keras.regularizers.L2(0.1)) == {
        "module": "keras.regularizers", "class_name": "L2", "config": {"l2": 0.1}, "registered_name": None}
    schedule = keras.optimizers.schedules.ExponentialDecay(0.1, decay_steps=10, decay_rate=0.5,
                                                           staircase=True)
    assert keras.optimizers.schedules.serialize(schedule) == {
        "module": "keras.optimizers.schedules", "class_name": "ExponentialDecay",
        "config": {"initial_learning_rate": 0.1, "decay_steps": 10, "decay_rate": 0.5, "staircase": True,
                   "name": "ExponentialDecay"}, "registered_name": None}
    assert list(keras.optimizers.serialize(keras.optimizers.Adam())) == [
        "module", "class_name", "config", "registered_name"]

    @keras.saving.register_keras_serializable(package="my")
    class MyL(keras.layers.Layer):
        pass

    found = keras.layers.serialize(MyL(name="x"))
    assert (found["module"], found["class_name"], found["registered_name"]) == (
        MyL.__module__, "MyL", "my>MyL")
    assert keras.layers.deserialize(found).name == "x"


def test_optimizer_config_serializes_its_schedule_as_keras3():
    from companion import keras

    schedule = keras.optimizers.schedules.ExponentialDecay(0.1, decay_steps=10, decay_rate=0.5)
    config = keras.optimizers.SGD(schedule).get_config()["learning_rate"]
    assert (config["module"], config["class_name"], config["registered_name"]) == (
        "keras.optimizers.schedules", "ExponentialDecay", None)
    original = keras.optimizers.SGD(schedule).get_config()
    assert keras.optimizers.SGD.from_config(original).get_config() == original
