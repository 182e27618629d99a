"""PolynomialDecay, InverseTimeDecay, CosineDecayRestarts and Adamax against NumPy (Keras's formulas)."""

import math

import numpy as np
import pytest

import companion as tf

S = tf.keras.optimizers.schedules
STEPS = [0, 1, 4, 5, 9, 10, 11, 25, 31, 60]


def np_polynomial(step, start, decay_steps, end, power, cycle):
    if cycle:
        decay_steps = decay_steps * (1 if step == 0 else math.ceil(step / decay_steps))
    else:
        step = min(step, decay_steps)
    return (start - end) * (1 - step / decay_steps) ** power + end


def np_restarts(step, start, first, t_mul, m_mul, alpha):
    fraction = step / first
    if t_mul == 1.0:
        restart = math.floor(fraction)
        fraction -= restart
    else:
        restart = math.floor(math.log(1 - fraction * (1 - t_mul)) / math.log(t_mul))
        fraction = (fraction - (1 - t_mul ** restart) / (1 - t_mul)) / t_mul ** restart
    cosine = 0.5 * m_mul ** restart * (1 + math.cos(math.pi * fraction))
    return start * ((1 - alpha) * cosine + alpha)


@pytest.mark.parametrize("power, cycle", [(1.0, False), (2.0, False), (1.0, True), (0.5, True)])
def test_polynomial_decay(power, cycle):
    schedule = S.PolynomialDecay(1.0, 10, 0.1, power=power, cycle=cycle)
    got = [float(schedule(s)) for s in STEPS]
    np.testing.assert_allclose(got, [np_polynomial(s, 1.0, 10, 0.1, power, cycle) for s in STEPS], rtol=1e-5)
    assert type(S.deserialize(S.serialize(schedule))) is S.PolynomialDecay


@pytest.mark.parametrize("staircase", [False, True])
def test_inverse_time_decay(staircase):
    schedule = S.InverseTimeDecay(0.5, 4, 0.3, staircase=staircase)
    expected = [0.5 / (1 + 0.3 * (math.floor(s / 4) if staircase else s / 4)) for s in STEPS]
    np.testing.assert_allclose([float(schedule(s)) for s in STEPS], expected, rtol=1e-5)


@pytest.mark.parametrize("t_mul, m_mul, alpha", [(2.0, 1.0, 0.0), (1.0, 0.5, 0.1), (3.0, 0.8, 0.0)])
def test_cosine_decay_restarts(t_mul, m_mul, alpha):
    schedule = S.CosineDecayRestarts(0.5, 4, t_mul=t_mul, m_mul=m_mul, alpha=alpha)
    expected = [np_restarts(s, 0.5, 4, t_mul, m_mul, alpha) for s in STEPS]
    np.testing.assert_allclose([float(schedule(s)) for s in STEPS], expected, rtol=1e-4, atol=1e-6)
    assert schedule.get_config()["name"] == "SGDRDecay"


def test_adamax_matches_numpy():
    grads = [np.array([1.0, 0.5]), np.array([-0.3, 2.0]), np.array([0.1, 0.1])]
    w, m, u = np.array([1.0, -2.0]), np.zeros(2), np.zeros(2)
    for t, g in enumerate(grads, start=1):
        m = m + (g - m) * 0.1
        u = np.maximum(0.9 * u, np.abs(g))
        w = w - 0.1 / (1 - 0.9 ** t) * m / (u + 1e-7)
    var = tf.Variable([1.0, -2.0])
    optimizer = tf.keras.optimizers.Adamax(0.1, beta_2=0.9)
    for g in grads:
        optimizer.apply_gradients([(tf.constant(g, tf.float32), var)])
    np.testing.assert_allclose(var.numpy(), w, rtol=1e-5)
    # TF 2.21 printed [0.835756, -2.2117260] for the same steps
    np.testing.assert_allclose(var.numpy(), [0.8357560, -2.2117260], rtol=1e-6)
    assert type(tf.keras.optimizers.get("adamax")) is tf.keras.optimizers.Adamax
    assert [v.name.split("_")[-1] for v in optimizer.variables[2:]] == ["momentum", "norm"]
