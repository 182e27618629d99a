"""Mixed precision: dtype policies, autocasting layers, float32 normalization and losses, loss scaling.

Oracles: `jax.grad` of the same float16 computation written by hand, NumPy, and the update rule of
Keras 3's LossScaleOptimizer worked through by hand (its TF 2.21 run is the parity program
`tests/parity/keras/mixed_precision.py`).
"""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import companion as tf

keras = tf.keras
mp = keras.mixed_precision


def test_policies_parse_names_and_reject_others():
    policy = mp.Policy("mixed_float16")
    assert (policy.name, policy.compute_dtype, policy.variable_dtype) == ("mixed_float16", "float16",
                                                                          "float32")
    assert mp.DTypePolicy("mixed_bfloat16").compute_dtype == "bfloat16"
    assert mp.DTypePolicy("float64").variable_dtype == "float64"
    assert repr(policy) == '<DTypePolicy "mixed_float16">'
    assert policy == mp.DTypePolicy.from_config(policy.get_config()) and policy != mp.Policy("float32")
    with pytest.raises(ValueError, match="mixed_float16"):
        mp.Policy("mixed_float8")
    with pytest.raises(TypeError, match="must be a string"):
        mp.Policy(16)
    with pytest.raises(ValueError, match="Invalid `policy`"):
        mp.set_global_policy(3.5)


def test_the_global_policy_applies_to_layers_made_after_it():
    assert mp.global_policy().name == "float32"
    mp.set_global_policy("mixed_float16")
    assert mp.global_policy() == mp.Policy("mixed_float16")
    mixed, own = keras.layers.Dense(2), keras.layers.Dense(2, dtype="float32")
    mp.set_global_policy("float32")
    assert (mixed.dtype, mixed.compute_dtype, mixed.variable_dtype) == ("float32", "float16", "float32")
    assert own.dtype_policy.name == "float32" and keras.layers.Dense(2).compute_dtype == "float32"


def test_keras_config_holds_the_default_policy_and_the_backend_settings():
    keras.config.set_dtype_policy("mixed_bfloat16")
    assert keras.config.dtype_policy() is mp.global_policy()
    assert keras.layers.Dense(1).compute_dtype == "bfloat16"
    assert keras.config.floatx() == "float32" and keras.config.image_data_format() == "channels_last"
    assert keras.config.epsilon() == keras.backend.epsilon()


def test_a_mixed_dense_layer_computes_in_float16_and_differentiates_into_float32_weights():
    layer = keras.layers.Dense(3, activation="relu", dtype="mixed_float16")
    x = np.linspace(-1, 1, 8, dtype=np.float32).reshape(2, 4)
    with tf.GradientTape() as tape:
        y = layer(x)
        loss = tf.reduce_sum(tf.cast(y, tf.float32) ** 2)
    grads = tape.gradient(loss, [layer.kernel, layer.bias])
    assert y.dtype == tf.float16 and layer.kernel.dtype == tf.float32
    assert [g.dtype for g in grads] == [tf.float32, tf.float32]

    def by_hand(kernel, bias):
        out = jax.nn.relu(jnp.asarray(x, jnp.float16) @ kernel.astype(jnp.float16) + bias.astype(jnp.float16))
        return jnp.sum(out.astype(jnp.float32) ** 2)

    kernel, bias = jnp.asarray(layer.kernel.numpy()), jnp.asarray(layer.bias.numpy())
    expected = jax.grad(by_hand, argnums=(0, 1))(kernel, bias)
    np.testing.assert_allclose(y.numpy(), np.maximum(
        (x.astype(np.float16) @ layer.kernel.numpy().astype(np.float16)), 0), rtol=2e-3, atol=1e-3)
    for got, want in zip(grads, expected):
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)


def test_weights_of_sublayers_autocast_and_a_float32_layer_inside_stays_float32():
    class Block(keras.layers.Layer):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.inner = keras.layers.Dense(2)
            self.head = keras.layers.Dense(2, dtype="float32")

        def build(self, input_shape):
            self.scale = self.add_weight(name="scale", shape=(2,), initializer="ones")

        def call(self, inputs):
            hidden = self.inner(inputs) * self.scale  # the float32 weight is read in float16
            return hidden, self.head(hidden)

    mp.set_global_policy("mixed_float16")
    block = Block()
    hidden, out = block(np.ones((1, 3), np.float32))
    assert (hidden.dtype, out.dtype, block.scale.dtype) == (tf.float16, tf.float32, tf.float32)


def test_plain_variables_are_not_autocast():
    class Uses(keras.layers.Layer):
        def build(self, input_shape):
            self.plain = tf.Variable(np.ones(2, np.float32))

        def call(self, inputs):
            return inputs * self.plain

    with pytest.raises(tf.errors.InvalidArgumentError):
        Uses(dtype="mixed_float16")(np.ones((1, 2), np.float32))


@pytest.mark.parametrize("make", [keras.layers.LayerNormalization, keras.layers.BatchNormalization,
                                  lambda: keras.layers.GroupNormalization(groups=2)])
def test_normalization_computes_in_float32_and_outputs_the_compute_dtype(make):
    mp.set_global_policy("mixed_float16")
    layer = make()
    x = (np.arange(12, dtype=np.float32).reshape(3, 4) * 1000.0)  # float16 squares would overflow
    out = layer(x, training=True)
    assert out.dtype == tf.float16 and all(w.dtype == tf.float32 for w in layer.weights)
    assert np.all(np.isfinite(out.numpy()))
    mp.set_global_policy("float32")
    reference = make()  # float32 throughout; its initial weights (ones, zeros) are the mixed layer's
    expected = reference(x.astype(np.float16).astype(np.float32), training=True).numpy()
    np.testing.assert_allclose(out.numpy().astype(np.float32), expected.astype(np.float16), rtol=1e-3,
                               atol=2e-3)


def test_losses_of_half_precision_predictions_are_float32():
    loss = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    logits = tf.constant([[2.0, 1.0], [0.5, 3.0]], tf.float16)
    value = loss(tf.constant([0, 1]), logits)
    assert value.dtype == tf.float32
    expected = np.mean([np.log1p(np.exp(-1.0)), np.log1p(np.exp(-2.5))])
    np.testing.assert_allclose(value.numpy(), expected, rtol=1e-6)


def test_mixed_layers_round_trip_their_policy_through_get_config():
    layer = keras.layers.Dense(2, dtype="mixed_bfloat16")
    config = layer.get_config()
    assert config["dtype"]["config"] == {"name": "mixed_bfloat16"}
    assert keras.layers.Dense.from_config(config).compute_dtype == "bfloat16"
    # TF 2.21's Keras 3.15 stores every layer's policy as its serialized config
    assert keras.layers.Dense(2).get_config()["dtype"] == {
        "module": "keras", "class_name": "DTypePolicy", "config": {"name": "float32"},
        "registered_name": None}


def _lso_steps(steps, compiled):
    opt = mp.LossScaleOptimizer(keras.optimizers.SGD(0.1), initial_scale=64.0, dynamic_growth_steps=2)
    w = tf.Variable([1.0, -2.0])

    def step(bad):
        with tf.GradientTape() as tape:
            scaled = opt.scale_loss(tf.reduce_sum(w ** 2))
        grad = tape.gradient(scaled, w)
        grad = tf.where(bad, tf.constant([np.inf, 1.0]), grad)
        opt.apply_gradients([(grad, w)])

    run = tf.function(step) if compiled else step
    seen = []
    for bad in steps:
        run(tf.constant(bad))
        seen.append((w.numpy().copy(), float(opt.dynamic_scale.numpy()), int(opt.iterations.numpy())))
    return seen


@pytest.mark.parametrize("compiled", [False, True])
def test_loss_scale_optimizer_grows_skips_and_halves_as_keras(compiled):
    seen = _lso_steps([False, False, False, True, False], compiled)
    # by hand: SGD(0.1) on sum(w**2) multiplies w by 0.8 each applied step; the scale doubles after
    # two finite steps in a row, an inf gradient skips the step and halves it
    expected_w = [0.8, 0.64, 0.512, 0.512, 0.4096]
    expected_scale = [64.0, 128.0, 128.0, 64.0, 64.0]
    expected_iterations = [1, 2, 3, 3, 4]
    for (w, scale, iterations), ew, es, ei in zip(seen, expected_w, expected_scale, expected_iterations):
        np.testing.assert_allclose(w, [ew, -2 * ew], rtol=1e-6)
        assert (scale, iterations) == (es, ei)


def test_a_skipped_step_keeps_the_inner_optimizers_slots():
    opt = mp.LossScaleOptimizer(keras.optimizers.Adam(0.1), initial_scale=4.0)
    w = tf.Variable([1.0, 2.0])
    opt.apply_gradients([(tf.constant([4.0, 4.0]), w)])
    before = [v.numpy().copy() for v in opt.variables[2:]] + [w.numpy().copy()]
    opt.apply_gradients([(tf.constant([np.nan, 4.0]), w)])
    after = [v.numpy() for v in opt.variables[2:]] + [w.numpy()]
    for b, a in zip(before, after):
        np.testing.assert_array_equal(b, a)
    assert float(opt.dynamic_scale.numpy()) == 2.0


def test_loss_scale_optimizer_errors_and_config():
    with pytest.raises(TypeError, match="inner_optimizer"):
        mp.LossScaleOptimizer("adam")
    with pytest.raises(ValueError, match="clipnorm"):
        mp.LossScaleOptimizer(keras.optimizers.SGD(), clipnorm=1.0)
    with pytest.raises(ValueError, match="dynamic=False"):
        mp.LossScaleOptimizer(keras.optimizers.SGD(), dynamic=False)
    opt = mp.LossScaleOptimizer(keras.optimizers.Adam(0.01), initial_scale=8.0, dynamic_growth_steps=3)
    copy = keras.optimizers.deserialize(keras.optimizers.serialize(opt))
    assert (copy.initial_scale, copy.dynamic_growth_steps) == (8.0, 3)
    assert isinstance(copy.inner_optimizer, keras.optimizers.Adam)
    assert float(copy.learning_rate.numpy()) == pytest.approx(0.01)


def test_loss_scale_factor_scales_the_loss_and_unscales_the_gradients():
    sgd = keras.optimizers.SGD(0.5, loss_scale_factor=8.0)
    v = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        scaled = sgd.scale_loss(v * v)
    sgd.apply_gradients([(tape.gradient(scaled, v), v)])
    assert float(scaled.numpy()) == 32.0 and float(v.numpy()) == 0.0  # 2 - 0.5 * (2 * 2)
    assert keras.optimizers.SGD().scale_loss(3.0) == 3.0
    with pytest.raises(ValueError, match="loss_scale_factor"):
        keras.optimizers.SGD(loss_scale_factor=-1.0)


def test_fit_under_mixed_float16_wraps_the_optimizer_and_trains():
    mp.set_global_policy("mixed_float16")
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 4)).astype(np.float32)
    y = (x @ np.array([1.0, -2.0, 0.5, 3.0], np.float32))[:, None]
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(8, activation="relu"),
                              keras.layers.Dense(1, dtype="float32")])
    model.compile(keras.optimizers.Adam(0.05), "mse")
    assert isinstance(model.optimizer, mp.LossScaleOptimizer)
    history = model.fit(x, y, batch_size=16, epochs=8, verbose=0)
    losses = history.history["loss"]
    assert np.all(np.isfinite(losses)) and losses[-1] < 0.5 * losses[0]
    assert model.layers[0].kernel.dtype == tf.float32
    # each step whose float16 gradients overflowed was skipped and halved the scale (no growth
    # within 2000 steps): applied steps + skipped steps = the 32 batches
    skipped = round(np.log2(32768.0 / float(model.optimizer.dynamic_scale.numpy())))
    assert int(model.optimizer.iterations.numpy()) + skipped == 32
