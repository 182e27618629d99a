"""TensorFlow's stateless binomial sampler, bit for bit (its CPU kernel, as `_philox_rejection`
runs the gamma and Poisson ones): inversion (a sum of geometric draws) below mean 10, Hormann's
BTRS transformed rejection from 10 on, on the smaller of ``p`` and ``1 - p``; each output's Philox
stream skips 42 blocks per output for inversion and 256 for BTRS, as TF reserves them."""

import jax.numpy as jnp
import numpy as np

from companion._core._op import op
from companion.random._philox_rejection import (
    _UNIFORM64,
    _per_output,
    _rejection_loop,
    _scatter,
    _streams,
    count,
)


def binomial_samples(seed, counts, probs, shape):
    """TF's ``StatelessRandomBinomial`` draws (float64) of ``shape``; ``counts``/``probs`` already
    broadcast to the batch shape and of their float dtype (its comparisons are made in it)."""
    per = int(np.prod(shape, dtype=np.int64)) // max(counts.size, 1)
    one = jnp.ones((), probs.dtype)
    flip = probs > 0.5
    small = jnp.where(flip, one - probs, probs)
    inversion = counts * small < 10
    n_trials = _per_output(counts.astype(jnp.float64), per)
    p = _per_output(small.astype(jnp.float64), per)
    use_inversion = _per_output(inversion, per)
    n = n_trials.shape[0]
    stream = _streams(seed, n, jnp.where(use_inversion, 42, 256), (_UNIFORM64,), ahead=2)
    flat_counts, flat_probs = _per_output(counts, per), _per_output(probs, per)
    degenerate = (flat_counts <= 0) | ~((flat_probs > 0) & (flat_probs < 1))
    drawn = _rejection_loop(stream, n, _binomial_attempt(stream, n_trials, p, use_inversion), degenerate,
                            jnp.zeros((n,)), (jnp.zeros((n,)), jnp.zeros((n,))))
    drawn = jnp.where(_per_output(flip, per), n_trials - drawn, drawn)
    drawn = jnp.where((flat_counts <= 0) | (flat_probs <= 0), 0.0, drawn)
    drawn = jnp.where((flat_counts > 0) & (flat_probs >= 1), n_trials, drawn)
    drawn = jnp.where(jnp.isnan(flat_probs) & (flat_counts > 0), jnp.nan, drawn)
    return _scatter(drawn, per, shape)


def _binomial_attempt(stream, count, prob, use_inversion):
    stddev = jnp.sqrt(count * prob * (1 - prob))
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * prob
    c = count * prob + 0.5
    v_r = 0.92 - 4.2 / b
    r = prob / (1 - prob)
    alpha = (2.83 + 5.1 / b) * stddev
    m = jnp.floor((count + 1) * prob)
    log_q = jnp.log1p(-prob)

    def attempt(state, active):
        (geom_sum, num_geom), state = state
        state, taken = stream.fetch(state), jnp.zeros(active.shape, jnp.int32)
        u, state, taken = stream.draw(state, 0, active, taken)
        v, state, _ = stream.draw(state, 0, active & ~use_inversion, taken)
        geom_sum = jnp.where(active & use_inversion, geom_sum + jnp.ceil(jnp.log(u) / log_q), geom_sum)
        inversion_done = active & use_inversion & (geom_sum > count)
        u = u - 0.5
        us = 0.5 - jnp.abs(u)
        k = jnp.floor((2 * a / us + b) * u + c)
        boxed = (us >= 0.07) & (v <= v_r)
        ratio = jnp.log(v * alpha / (a / (us * us) + b))
        bound = ((m + 0.5) * jnp.log((m + 1) / (r * (count - m + 1)))
                 + (count + 1) * jnp.log((count - m + 1) / (count - k + 1))
                 + (k + 0.5) * jnp.log(r * (count - k + 1) / (k + 1))
                 + _stirling_tail(m) + _stirling_tail(count - m)
                 - _stirling_tail(k) - _stirling_tail(count - k))
        in_range = (k >= 0) & (k <= count)
        btrs_done = active & ~use_inversion & (boxed | (in_range & (ratio <= bound)))
        value = jnp.where(use_inversion, num_geom, k)
        num_geom = jnp.where(active & use_inversion & ~inversion_done, num_geom + 1, num_geom)
        return ((geom_sum, num_geom), state), inversion_done | btrs_done, value

    return attempt


_TAIL = np.asarray([0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509,
                    0.0166446911898211, 0.0138761288230707, 0.0118967099458917, 0.0104112652619720,
                    0.00925546218271273, 0.00833056343336287])


def _stirling_tail(k):
    """TF's ``stirling_approx_tail``: a table up to 9, the series beyond."""
    kp1sq = (k + 1) * (k + 1)
    series = (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)
    table = jnp.asarray(_TAIL)[jnp.clip(k, 0, 9).astype(jnp.int32)]
    return jnp.where(k <= 9, table, series)


@op("stateless_random_binomial", static=("shape", "dtype"))
def stateless_binomial(seed, counts, probs, shape, dtype):
    """TF's ``StatelessRandomBinomial`` cast to ``dtype``."""
    if not count(shape):
        return jnp.zeros(shape, dtype)
    return binomial_samples(seed, counts, probs, shape).astype(dtype)



stateless_binomial.differentiable = False  # TF registers no gradient for StatelessRandomBinomial
