"""keras.optimizers: each update rule against the same rule written out in NumPy, plus the facade."""

import math

import numpy as np
import pytest

import companion as tf
from companion.keras import optimizers

LR = 0.1
LR32 = float(np.float32(LR))  # Keras keeps the learning rate in a float32 Variable


# -- the rules, by hand in NumPy (float64; state is a dict per variable) --------------------
def np_sgd(w, g, s, t, lr, momentum=0.0, nesterov=False):
    if momentum == 0:
        return w - lr * g
    s["m"] = momentum * s.get("m", 0.0) - lr * g
    return w + momentum * s["m"] - lr * g if nesterov else w + s["m"]


def np_adam(w, g, s, t, lr, beta_1=0.9, beta_2=0.999, epsilon=1e-7, amsgrad=False, wd=0.0):
    w = w - w * wd * lr
    s["m"] = s.get("m", 0.0) + (g - s.get("m", 0.0)) * (1 - beta_1)
    s["v"] = s.get("v", 0.0) + (g * g - s.get("v", 0.0)) * (1 - beta_2)
    v = s["v"]
    if amsgrad:
        v = s["vhat"] = np.maximum(s.get("vhat", 0.0), s["v"])
    lr_t = lr * math.sqrt(1 - beta_2 ** t) / (1 - beta_1 ** t)
    return w - lr_t * s["m"] / (np.sqrt(v) + epsilon)


def np_rmsprop(w, g, s, t, lr, rho=0.9, momentum=0.0, epsilon=1e-7, centered=False):
    s["ms"] = rho * s.get("ms", 0.0) + (1 - rho) * g * g
    denominator = s["ms"] + epsilon
    if centered:
        s["mg"] = rho * s.get("mg", 0.0) + (1 - rho) * g
        denominator = s["ms"] - s["mg"] ** 2 + epsilon
    increment = lr * g / np.sqrt(denominator)
    if momentum > 0:
        s["mom"] = momentum * s.get("mom", 0.0) + increment
        return w - s["mom"]
    return w - increment


def np_adagrad(w, g, s, t, lr, initial=0.1, epsilon=1e-7):
    s["acc"] = s.get("acc", initial) + g * g
    return w - lr * g / np.sqrt(s["acc"] + epsilon)


def np_adadelta(w, g, s, t, lr, rho=0.95, epsilon=1e-7):
    s["acc_g"] = rho * s.get("acc_g", 0.0) + (1 - rho) * g * g
    delta = -np.sqrt(s.get("acc_d", 0.0) + epsilon) * g / np.sqrt(s["acc_g"] + epsilon)
    s["acc_d"] = rho * s.get("acc_d", 0.0) + (1 - rho) * delta * delta
    return w + lr * delta


def np_nadam(w, g, s, t, lr, beta_1=0.9, beta_2=0.999, epsilon=1e-7):
    u_t, u_next = (beta_1 * (1 - 0.5 * 0.96 ** k) for k in (t, t + 1))
    s["u"] = s.get("u", 1.0) * u_t
    s["m"] = s.get("m", 0.0) + (g - s.get("m", 0.0)) * (1 - beta_1)
    s["v"] = s.get("v", 0.0) + (g * g - s.get("v", 0.0)) * (1 - beta_2)
    m_hat = u_next * s["m"] / (1 - s["u"] * u_next) + (1 - u_t) * g / (1 - s["u"])
    return w - lr * m_hat / (np.sqrt(s["v"] / (1 - beta_2 ** t)) + epsilon)


CASES = [
    (optimizers.SGD, {}, np_sgd, {}),
    (optimizers.SGD, {"momentum": 0.9}, np_sgd, {"momentum": 0.9}),
    (optimizers.SGD, {"momentum": 0.5, "nesterov": True}, np_sgd, {"momentum": 0.5, "nesterov": True}),
    (optimizers.Adam, {}, np_adam, {}),
    (optimizers.Adam, {"amsgrad": True, "beta_1": 0.8}, np_adam, {"amsgrad": True, "beta_1": 0.8}),
    (optimizers.AdamW, {"weight_decay": 0.1}, np_adam, {"wd": 0.1}),
    (optimizers.RMSprop, {}, np_rmsprop, {}),
    (optimizers.RMSprop, {"momentum": 0.9, "rho": 0.8}, np_rmsprop, {"momentum": 0.9, "rho": 0.8}),
    (optimizers.RMSprop, {"centered": True}, np_rmsprop, {"centered": True}),
    (optimizers.Adagrad, {}, np_adagrad, {}),
    (optimizers.Adagrad, {"initial_accumulator_value": 0.5}, np_adagrad, {"initial": 0.5}),
    (optimizers.Adadelta, {"rho": 0.9}, np_adadelta, {"rho": 0.9}),
    (optimizers.Nadam, {}, np_nadam, {}),
]
IDS = [f"{cls.__name__}-{'-'.join(map(str, kw.values())) or 'default'}" for cls, kw, _, _ in CASES]


def gradient_sequence(steps=5, seed=0):
    rng = np.random.default_rng(seed)
    return [(rng.normal(size=(3, 2)), rng.normal(size=(4,))) for _ in range(steps)]


def run_numpy(rule, kwargs, init, grads, dtype):
    weights, states = [w.astype(np.float64) for w in init], [{}, {}]
    for t, step_grads in enumerate(grads, start=1):
        step_grads = [g.astype(dtype).astype(np.float64) for g in step_grads]
        weights = [rule(w, g, s, t, LR32, **kwargs) for w, g, s in zip(weights, step_grads, states)]
    return weights


def initial_weights():
    rng = np.random.default_rng(1)
    return [rng.normal(size=(3, 2)), rng.normal(size=(4,))]


@pytest.mark.parametrize("dtype,rtol", [(np.float64, 1e-12), (np.float32, 2e-5)])
@pytest.mark.parametrize("cls,kwargs,rule,rule_kwargs", CASES, ids=IDS)
def test_rule_matches_numpy_over_several_steps(cls, kwargs, rule, rule_kwargs, dtype, rtol):
    init, grads = initial_weights(), gradient_sequence()
    variables = [tf.Variable(w.astype(dtype)) for w in init]
    opt = cls(learning_rate=LR, **kwargs)
    for step_grads in grads:
        opt.apply_gradients(zip([tf.constant(g.astype(dtype)) for g in step_grads], variables))
    expected = run_numpy(rule, rule_kwargs, [w.astype(dtype) for w in init], grads, dtype)
    for var, want in zip(variables, expected):
        assert var.dtype == tf.as_dtype(dtype)
        np.testing.assert_allclose(var.numpy(), want, rtol=rtol, atol=rtol)
    assert int(opt.iterations.numpy()) == len(grads)


@pytest.mark.parametrize("cls,kwargs,rule,rule_kwargs", CASES, ids=IDS)
def test_apply_gradients_in_function_equals_eager_and_traces_once(cls, kwargs, rule, rule_kwargs):
    init, grads = initial_weights(), gradient_sequence(4)
    eager_vars = [tf.Variable(w) for w in init]
    staged_vars = [tf.Variable(w) for w in init]
    eager_opt, staged_opt = cls(learning_rate=LR, **kwargs), cls(learning_rate=LR, **kwargs)
    before = len(staged_opt.variables)

    @tf.function
    def step(g0, g1):  # the slots are created on the first trace
        staged_opt.apply_gradients(zip([g0, g1], staged_vars))

    for g0, g1 in grads:
        eager_opt.apply_gradients(zip([tf.constant(g0), tf.constant(g1)], eager_vars))
        step(tf.constant(g0), tf.constant(g1))
    # TF's rule: a first call that creates Variables (the slots) is traced twice, then never again
    assert step.experimental_get_tracing_count() == (2 if len(staged_opt.variables) > before else 1)
    for eager, staged in zip(eager_vars, staged_vars):
        np.testing.assert_allclose(staged.numpy(), eager.numpy(), rtol=1e-12)
    assert int(staged_opt.iterations.numpy()) == len(grads)


def test_none_gradients_are_skipped():
    a, b = tf.Variable([1.0, 2.0]), tf.Variable([3.0])
    opt = optimizers.Adam(learning_rate=LR)
    opt.apply_gradients([(tf.constant([1.0, 1.0]), a), (None, b)])
    np.testing.assert_array_equal(b.numpy(), [3.0])
    assert not np.allclose(a.numpy(), [1.0, 2.0])
    assert len(opt.variables) == 2 + 2  # iterations, learning rate, m and v of `a` only
    assert int(opt.iterations.numpy()) == 1


@pytest.mark.parametrize("option,value", [("clipnorm", 0.5), ("clipvalue", 0.3), ("global_clipnorm", 1.0)])
def test_gradient_clipping(option, value):
    grads = [np.array([3.0, -4.0]), np.array([0.1, 2.0, -0.2])]
    variables = [tf.Variable(np.zeros_like(g)) for g in grads]
    optimizers.SGD(learning_rate=1.0, **{option: value}).apply_gradients(
        zip([tf.constant(g) for g in grads], variables))
    if option == "clipnorm":
        expected = [g * value / max(np.linalg.norm(g), value) for g in grads]
    elif option == "clipvalue":
        expected = [np.clip(g, -value, value) for g in grads]
    else:
        norm = math.sqrt(sum(np.sum(g * g) for g in grads))
        expected = [g * value / max(norm, value) for g in grads]
    for var, g in zip(variables, expected):
        np.testing.assert_allclose(var.numpy(), -g, rtol=1e-12)


def test_only_one_clipping_option():
    with pytest.raises(ValueError, match="Only one of"):
        optimizers.SGD(clipnorm=1.0, clipvalue=1.0)


def test_schedule_changes_the_step_eagerly_and_in_function():
    schedule = optimizers.schedules.PiecewiseConstantDecay([1], [1.0, 0.5])
    eager, staged = tf.Variable(0.0), tf.Variable(0.0)
    eager_opt, staged_opt = optimizers.SGD(schedule), optimizers.SGD(schedule)

    @tf.function
    def step():
        staged_opt.apply_gradients([(tf.constant(-1.0), staged)])

    for _ in range(3):  # iterations 0 and 1 use 1.0, iteration 2 uses 0.5
        eager_opt.apply_gradients([(tf.constant(-1.0), eager)])
        step()
    assert float(eager.numpy()) == float(staged.numpy()) == 2.5
    assert float(eager_opt.learning_rate) == 0.5


def test_learning_rate_is_an_assignable_variable_read_by_functions():
    var = tf.Variable(0.0)
    opt = optimizers.SGD(learning_rate=1.0)

    @tf.function
    def step():
        opt.apply_gradients([(tf.constant(-1.0), var)])

    step()
    opt.learning_rate = 0.25
    step()
    assert float(var.numpy()) == 1.25 and step.experimental_get_tracing_count() == 1
    assert float(opt.learning_rate.numpy()) == 0.25 and opt.iterations.dtype == tf.int64


def test_minimize_with_a_callable_and_with_a_tape():
    var = tf.Variable(3.0)
    opt = optimizers.SGD(learning_rate=0.1)
    opt.minimize(lambda: var ** 2, [var])  # d/dvar = 6
    assert float(var.numpy()) == pytest.approx(2.4)
    with tf.GradientTape() as tape:
        loss = var ** 2
    opt.minimize(loss, [var], tape=tape)
    assert float(var.numpy()) == pytest.approx(2.4 - 0.48)
    with pytest.raises(ValueError, match="tape"):
        opt.minimize(var * 2.0, [var])


@pytest.mark.parametrize("cls", [optimizers.SGD, optimizers.Adam, optimizers.AdamW, optimizers.RMSprop,
                                 optimizers.Adagrad, optimizers.Adadelta, optimizers.Nadam,
                                 optimizers.Adafactor])
def test_config_round_trip(cls):
    opt = cls(learning_rate=0.5, clipnorm=2.0)
    clone = cls.from_config(opt.get_config())
    assert clone.get_config() == opt.get_config()
    scheduled = cls(optimizers.schedules.ExponentialDecay(0.1, 10, 0.5, staircase=True))
    again = optimizers.deserialize(optimizers.serialize(scheduled))
    assert type(again) is cls and again.get_config() == scheduled.get_config()


def test_get_by_name_config_or_instance():
    assert isinstance(optimizers.get("adam"), optimizers.Adam)
    assert isinstance(optimizers.get("RMSprop"), optimizers.RMSprop)
    opt = optimizers.SGD()
    assert optimizers.get(opt) is opt
    assert isinstance(optimizers.get({"class_name": "SGD", "config": {"momentum": 0.9}}), optimizers.SGD)
    with pytest.raises(ValueError, match="Unknown optimizer 'adamm'"):
        optimizers.get("adamm")


def test_schedule_formulas():
    steps = [0, 3, 10, 15, 25, 100]
    expo = optimizers.schedules.ExponentialDecay(0.1, 10, 0.5)
    stairs = optimizers.schedules.ExponentialDecay(0.1, 10, 0.5, staircase=True)
    piece = optimizers.schedules.PiecewiseConstantDecay([3, 15], [1.0, 0.5, 0.25])
    cosine = optimizers.schedules.CosineDecay(0.1, 20, alpha=0.1)
    warm = optimizers.schedules.CosineDecay(0.0, 20, warmup_target=0.1, warmup_steps=10)
    for s in steps:
        cos = lambda x: 0.5 * (1 + math.cos(math.pi * min(x, 20) / 20))  # noqa: E731
        warm_want = 0.1 * s / 10 if s < 10 else 0.1 * cos(min(s, 30) - 10)
        for schedule, want in [(expo, 0.1 * 0.5 ** (s / 10)), (stairs, 0.1 * 0.5 ** (s // 10)),
                               (piece, 1.0 if s <= 3 else 0.5 if s <= 15 else 0.25),
                               (cosine, 0.1 * (0.9 * cos(s) + 0.1)), (warm, warm_want)]:
            assert float(schedule(s)) == pytest.approx(want, rel=1e-6, abs=1e-7), (schedule, s)


def test_build_creates_the_slots_before_a_function_first_traces():
    variables = [tf.Variable(np.ones((3, 2), np.float32)), tf.Variable(np.zeros(2, np.float32))]
    optimizer = tf.keras.optimizers.Adam(0.1)
    optimizer.build(variables)
    assert [optimizer.get_slot(variables[0], name).shape for name in ("m", "v")] == [(3, 2), (3, 2)]
    traces = []

    @tf.function
    def step():
        traces.append(1)
        optimizer.apply_gradients(zip([tf.ones((3, 2)), tf.ones(2)], variables))

    step()
    assert len(traces) == 1  # no Variable created while tracing: no second trace
    np.testing.assert_allclose(variables[0].numpy(), 1 - 0.1, rtol=1e-5)  # Adam's first step: lr * sign


def _steps(optimizer, rule, slots, steps=3):
    """Runs ``optimizer`` and the NumPy ``rule(w, g, slots, t)`` side by side on a quadratic."""
    w0 = np.array([1.0, -2.0, 0.5], np.float32)
    var, w = tf.Variable(w0), w0.astype(np.float64)
    for t in range(1, steps + 1):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(var ** 2 * tf.constant([1.0, 2.0, 3.0]))
        optimizer.apply_gradients([(tape.gradient(loss, var), var)])
        w = rule(w, 2 * w * np.array([1.0, 2.0, 3.0]), slots, t)
        np.testing.assert_allclose(var.numpy(), w, rtol=1e-4, atol=1e-6)


def test_ftrl_lion_and_lamb_follow_their_update_rules():
    def ftrl(w, g, s, t, lr=0.1, power=0.5):
        new = s["acc"] + g ** 2
        s["linear"] = s["linear"] + g - (new ** power - s["acc"] ** power) / lr * w
        s["acc"] = new
        return (np.clip(s["linear"], 0, 0) - s["linear"]) / (new ** power / lr)

    def lion(w, g, s, t, lr=0.05):
        step = np.sign(0.9 * s["m"] + 0.1 * g)
        s["m"] = 0.99 * s["m"] + 0.01 * g
        return w - lr * step

    def lamb(w, g, s, t, lr=0.1):
        s["m"] = s["m"] + (g - s["m"]) * 0.1
        s["v"] = s["v"] + (g ** 2 - s["v"]) * 0.001
        update = s["m"] / (1 - 0.9 ** t) / (np.sqrt(s["v"] / (1 - 0.999 ** t)) + 1e-7)
        return w - np.linalg.norm(w) / np.linalg.norm(update) * lr * update

    zeros = np.zeros(3)
    _steps(tf.keras.optimizers.Ftrl(0.1), ftrl, {"acc": np.full(3, 0.1), "linear": zeros.copy()})
    _steps(tf.keras.optimizers.Lion(0.05), lion, {"m": zeros.copy()})
    _steps(tf.keras.optimizers.Lamb(0.1), lamb, {"m": zeros.copy(), "v": zeros.copy()})
    for name, cls in (("ftrl", tf.keras.optimizers.Ftrl), ("lion", tf.keras.optimizers.Lion)):
        assert type(tf.keras.optimizers.get(name)) is cls
    with pytest.raises(ValueError, match="learning_rate_power"):
        tf.keras.optimizers.Ftrl(learning_rate_power=0.5)
    with pytest.raises(ValueError, match="beta_1"):
        tf.keras.optimizers.Lion(beta_1=0.0)


def test_optimizer_configs_have_keras3_keys_and_plain_variables_name_slots_as_keras():
    config = tf.keras.optimizers.Adam().get_config()
    assert list(config)[:11] == ["name", "learning_rate", "weight_decay", "clipnorm", "global_clipnorm",
                                 "clipvalue", "use_ema", "ema_momentum", "ema_overwrite_frequency",
                                 "loss_scale_factor", "gradient_accumulation_steps"]
    assert tf.keras.optimizers.AdamW(weight_decay=0.1).get_config()["weight_decay"] == 0.1
    assert type(tf.keras.optimizers.Adam.from_config(config)) is tf.keras.optimizers.Adam
    var, opt = tf.Variable([1.0], name="w"), tf.keras.optimizers.Adam()
    opt.apply_gradients([(tf.constant([1.0]), var)])
    assert [v.name for v in opt.variables][2:] == ["w_0_momentum", "w_0_velocity"]  # TF 2.21's names


def test_weight_decay_is_decoupled_for_every_optimizer_and_exclusions_hold():
    w = tf.Variable([1.0, -2.0])
    b = tf.Variable([0.5], name="bias")
    opt = tf.keras.optimizers.SGD(0.1, weight_decay=0.05)
    opt.exclude_from_weight_decay(var_list=[b])
    expected_w, expected_b = np.array([1.0, -2.0]), np.array([0.5])
    for _ in range(3):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(w * w) + tf.reduce_sum(3.0 * b)
        opt.apply_gradients(zip(tape.gradient(loss, [w, b]), [w, b]))
        expected_w = (expected_w - expected_w * 0.05 * 0.1) - 0.1 * 2 * expected_w
        expected_b = expected_b - 0.1 * 3.0
    np.testing.assert_allclose(w.numpy(), expected_w, rtol=1e-6)
    np.testing.assert_allclose(b.numpy(), expected_b, rtol=1e-6)
    assert opt.get_config()["weight_decay"] == 0.05
    with pytest.raises(ValueError, match="before the optimizer is built"):
        opt.exclude_from_weight_decay(var_names=["kernel"])
    with pytest.raises(TypeError, match="weight_decay"):
        tf.keras.optimizers.Adam(weight_decay="big")


def test_use_ema_keeps_keras_moving_average_and_fit_ends_with_it():
    w = tf.Variable([1.0, -2.0])
    opt = tf.keras.optimizers.SGD(0.1, use_ema=True, ema_momentum=0.5, ema_overwrite_frequency=3)
    value, average = np.array([1.0, -2.0]), None
    for step in range(1, 6):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(w * w * 0.5 + w)
        opt.apply_gradients([(tape.gradient(loss, w), w)])
        value = value - 0.1 * (value + 1)
        average = value.copy() if step == 1 else 0.5 * average + 0.5 * value
        if step % 3 == 0:
            value = average.copy()
        np.testing.assert_allclose(w.numpy(), value, rtol=1e-6)
    opt.finalize_variable_values([w])
    np.testing.assert_allclose(w.numpy(), average, rtol=1e-6)
    with pytest.raises(ValueError, match="ema_momentum"):
        tf.keras.optimizers.Adam(use_ema=True, ema_momentum=1.5)


@pytest.mark.parametrize("compiled", [False, True])
def test_gradient_accumulation_applies_the_average_every_nth_call(compiled):
    opt = optimizers.Adam(0.1, gradient_accumulation_steps=3)
    w = tf.Variable([1.0, 2.0])
    apply = tf.function(lambda g: opt.apply_gradients([(g, w)])) if compiled else (
        lambda g: opt.apply_gradients([(g, w)]))
    expected, slots, updates = np.array([1.0, 2.0]), {}, 0
    window = []
    for call in range(7):
        grad = np.array([1.0 + call, -2.0 * call], np.float32)
        apply(tf.constant(grad))
        window.append(grad)
        if len(window) == 3:  # NumPy oracle: Adam on the mean of the window, step = updates so far
            updates += 1
            expected = np_adam(expected, np.mean(window, axis=0), slots, updates, 0.1)
            window = []
        np.testing.assert_allclose(w.numpy(), expected, rtol=1e-5)
        assert int(opt.iterations.numpy()) == updates
    accumulator = opt.variables[2]
    np.testing.assert_allclose(accumulator.numpy(), window[0])  # one call since the last update
    assert accumulator.path.endswith("_gradient_accumulator")
    assert opt.get_config()["gradient_accumulation_steps"] == 3


def test_gradient_accumulation_rejects_bad_counts():
    for bad in (1, 0, 2.5, True):
        with pytest.raises(ValueError, match="gradient_accumulation_steps"):
            optimizers.SGD(gradient_accumulation_steps=bad)


def np_adafactor(w, g, s, t, lr, decay=-0.8, eps1=1e-30, eps2=1e-3, clip=1.0, relative=True):
    rms = lambda x: np.sqrt(np.mean(np.square(x)))  # noqa: E731
    if relative:
        lr = min(lr, 1 / np.sqrt(t))
    alpha = max(eps2, rms(w)) * min(lr, 1 / np.sqrt(t))
    square, beta = g * g + eps1, 1 - t ** decay
    if w.ndim >= 2:
        s["r"] = beta * s.get("r", 0.0) + (1 - beta) * square.mean(-1)
        s["c"] = beta * s.get("c", 0.0) + (1 - beta) * square.mean(-2)
        v = (s["r"] / s["r"].mean(-1, keepdims=True))[..., None] * s["c"][..., None, :]
    else:
        v = s["v"] = beta * s.get("v", 0.0) + (1 - beta) * square
    u = g / np.sqrt(v)
    return w - alpha * u / max(1.0, rms(u) / clip)


@pytest.mark.parametrize("kwargs", [{}, {"learning_rate": 0.5}, {"learning_rate": 0.5, "relative_step": False,
                                                                   "clip_threshold": 0.3}])
def test_adafactor_follows_its_factored_rule(kwargs):
    opt = optimizers.Adafactor(**kwargs)
    rng = np.random.default_rng(3)
    values = [rng.normal(size=(3, 4)), rng.normal(size=(2, 3, 2)), rng.normal(size=(5,))]
    variables = [tf.Variable(v.astype(np.float32)) for v in values]
    expected, states = [v.copy() for v in values], [{}, {}, {}]
    rule = {"lr": kwargs.get("learning_rate", 0.001), "relative": kwargs.get("relative_step", True),
            "clip": kwargs.get("clip_threshold", 1.0)}
    for t in range(1, 4):
        grads = [rng.normal(size=v.shape) for v in values]
        opt.apply_gradients(zip([tf.constant(g.astype(np.float32)) for g in grads], variables))
        expected = [np_adafactor(w, g, s, t, **rule) for w, g, s in zip(expected, grads, states)]
        for var, want in zip(variables, expected):
            np.testing.assert_allclose(var.numpy(), want, rtol=2e-4, atol=1e-6)
    assert [tuple(v.shape) for v in opt.variables[2:5]] == [(3,), (4,), (3, 4)]  # r, c, velocity
