"""keras.random and Keras 3's seeding: generators step ``[seed, n]``, draws are the stateless ops
with that pair (whose numbers are TF's: tests/parity/random), and after
keras.utils.set_random_seed unseeded initializers and layers take Python-random default seeds."""

import random

import numpy as np
import pytest

import companion as tf


def test_seed_generator_steps_its_counter_and_int_seeds_are_pairs_with_zero():
    gen = tf.keras.random.SeedGenerator(5)
    first = tf.keras.random.uniform([3], seed=gen).numpy()
    second = tf.keras.random.uniform([3], seed=gen).numpy()
    np.testing.assert_array_equal(first, tf.random.stateless_uniform([3], seed=[5, 0]).numpy())
    np.testing.assert_array_equal(second, tf.random.stateless_uniform([3], seed=[5, 1]).numpy())
    assert gen.state.numpy().tolist() == [5, 2]
    np.testing.assert_array_equal(tf.keras.random.normal([2], seed=9).numpy(),
                                  tf.random.stateless_normal([2], seed=[9, 0]).numpy())
    big = tf.keras.random.uniform([2], seed=tf.keras.random.SeedGenerator(3_000_000_000)).numpy()
    folded = tf.random.stateless_uniform([2], seed=[3_000_000_000 % 2147483646, 0]).numpy()
    np.testing.assert_array_equal(big, folded)  # Keras folds seeds into int32 range
    with pytest.raises(ValueError, match="must be an integer"):
        tf.keras.random.SeedGenerator("seven")


def test_keras_dropout_keeps_where_the_uniform_draw_reaches_the_rate():
    x = np.arange(1, 13, dtype=np.float32).reshape(3, 4)
    out = tf.keras.random.dropout(x, 0.4, seed=21).numpy()
    draws = tf.random.stateless_uniform([3, 4], seed=[21, 0]).numpy()
    np.testing.assert_allclose(out, np.where(draws >= 0.4, x / 0.6, 0.0), rtol=1e-6)
    shuffled = tf.keras.random.shuffle(tf.range(6), seed=4).numpy()
    assert sorted(shuffled.tolist()) == list(range(6))


def test_after_set_random_seed_unseeded_objects_use_pythons_default_seeds():
    tf.keras.utils.set_random_seed(42)
    kernel = tf.keras.initializers.GlorotUniform()((2, 3)).numpy()
    random.seed(42)
    seed = random.randint(1, int(1e9))
    limit = np.sqrt(6 / 5)
    expected = tf.random.stateless_uniform((2, 3), seed=[seed, 0], minval=-limit, maxval=limit).numpy()
    np.testing.assert_array_equal(kernel, expected)
    tf.keras.utils.set_random_seed(42)
    mask = tf.keras.layers.Dropout(0.5)(tf.ones((2, 4)), training=True).numpy()
    draws = tf.random.stateless_uniform((2, 4), seed=[seed, 0]).numpy()
    np.testing.assert_array_equal(mask, np.where(draws >= 0.5, 2.0, 0.0))
    assert tf.keras.initializers.GlorotUniform().get_config()["seed"] is None


def test_seeded_layers_repeat_their_masks_and_step_per_call():
    a, b = tf.keras.layers.Dropout(0.5, seed=3), tf.keras.layers.Dropout(0.5, seed=3)
    ones = tf.ones((4, 4))
    first_a, first_b = a(ones, training=True).numpy(), b(ones, training=True).numpy()
    np.testing.assert_array_equal(first_a, first_b)
    assert not np.array_equal(first_a, a(ones, training=True).numpy())
    noise = tf.keras.layers.GaussianNoise(0.5, seed=2)(tf.zeros((2, 2)), training=True).numpy()
    np.testing.assert_allclose(noise, tf.random.stateless_normal((2, 2), seed=[2, 0], stddev=0.5).numpy(),
                               rtol=1e-6)


@pytest.mark.parametrize("kind,seed_first", [("SimpleRNN", True), ("LSTM", False), ("GRU", False)])
def test_recurrent_layers_draw_their_default_seeds_in_keras_order(kind, seed_first):
    tf.keras.utils.set_random_seed(5)
    model = tf.keras.Sequential([tf.keras.Input((4, 2)), getattr(tf.keras.layers, kind)(3),
                                 tf.keras.layers.Dense(1)])
    random.seed(5)
    draws = [random.randint(1, int(1e9)) for _ in range(4)]
    kernel_seed = draws[1] if seed_first else draws[0]  # the cell's SeedGenerator draws first or third
    rnn_kernel = model.layers[0].get_weights()[0]
    limit = np.sqrt(6 / sum(rnn_kernel.shape))
    np.testing.assert_array_equal(rnn_kernel, tf.random.stateless_uniform(
        rnn_kernel.shape, seed=[kernel_seed, 0], minval=-limit, maxval=limit).numpy())
    dense_kernel = model.layers[1].get_weights()[0]
    limit = np.sqrt(6 / 4)
    np.testing.assert_array_equal(dense_kernel, tf.random.stateless_uniform(
        (3, 1), seed=[draws[3], 0], minval=-limit, maxval=limit).numpy())
