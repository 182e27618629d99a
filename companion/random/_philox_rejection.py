"""TensorFlow's stateless gamma, Poisson and binomial samplers, bit for bit, as JAX programs.

TF's CPU kernels draw each output from its own Philox stream: the seed's key and counter
(`_philox._key_counter`), skipped ahead by 256 blocks per output (42 for binomial inversion). Each
kernel pulls buffered samples from that stream, one Philox block per refill, handing a buffer's
values out last first (TF's ``SampleBuffer`` and ``UNIFORM`` macro), and loops until it accepts:
- gamma: Marsaglia-Tsang on double normals and uniforms (2 per block), ``alpha == 1`` as
  ``-log1p(-u)``, ``alpha < 1`` boosted by ``u ** (1 / alpha)``;
- Poisson: Knuth's product of uniforms below rate 10, Hormann's transformed rejection from 10 on;
- binomial (`_philox_binomial`): inversion below mean 10, Hormann's BTRS from 10 on.
Here every output runs the same loop at once (`lax.while_loop` until all have accepted), each
draw masked to the outputs that take it, so the numbers do not depend on how TF shards its work.
All three compute in float64, as TF's kernels do (Poisson of float16 rates included).
"""

import jax
import jax.numpy as jnp
import numpy as np

from companion._core._op import op
from companion.random import _philox

_MAX_ATTEMPTS = 10_000  # an output still rejecting then (a NaN or impossible parameter) becomes NaN


class _Stream:
    """The buffered draws of one output per lane: a block offset and one buffer per distribution.

    An attempt first fetches the next ``ahead`` blocks of every lane in one Philox evaluation
    (`fetch`); its draws then take them in turn (one Philox program in the loop, not one per draw:
    XLA compiles the loop several times faster)."""

    def __init__(self, key, counter, first_block, fills, ahead):
        self.key, self.counter, self.fills, self.ahead = key, counter, fills, ahead
        self.first_block = first_block  # uint64 [n]: each output's skip into the stream

    def start(self, n):
        buffers = tuple((jnp.zeros((n, size), dtype), jnp.zeros((n,), jnp.int32))
                        for size, dtype, _ in self.fills)
        return jnp.zeros((n,), jnp.uint64), buffers, jnp.zeros((n, self.ahead, 4), jnp.uint32)

    def fetch(self, state):
        """``state`` with the blocks its lanes' next draws may take."""
        used, buffers, _ = state
        offsets = (self.first_block + used)[:, None] + jnp.arange(self.ahead, dtype=jnp.uint64)
        return used, buffers, _block_at(self.key, self.counter, offsets)

    def draw(self, state, which, active, taken):
        """The next value of buffer ``which`` for the ``active`` lanes (others keep their state);
        ``taken``: blocks this attempt has refilled from before (int32 [n])."""
        used, buffers, ahead = state
        values, remaining = buffers[which]
        size, _, fill = self.fills[which]
        refill = active & (remaining == 0)
        block = jnp.take_along_axis(ahead, jnp.minimum(taken, self.ahead - 1)[:, None, None], 1)[:, 0]
        values = jnp.where(refill[:, None], fill(block), values)
        remaining = jnp.where(refill, size, remaining) - active.astype(jnp.int32)
        value = jnp.take_along_axis(values, jnp.maximum(remaining, 0)[:, None], 1)[:, 0]
        buffers = buffers[:which] + ((values, remaining),) + buffers[which + 1:]
        return value, (used + refill.astype(jnp.uint64), buffers, ahead), taken + refill.astype(jnp.int32)


def _block_at(key, counter, offsets):
    return _philox._blocks((key, counter), offsets)


def _uniform64(block):
    return jnp.stack([_philox._unit_float64(block[:, 0], block[:, 1]),
                      _philox._unit_float64(block[:, 2], block[:, 3])], 1)


def _normal64(block):
    first, second = _philox._box_muller64(block[:, 0], block[:, 1], block[:, 2], block[:, 3])
    return jnp.stack([first, second], 1)


_UNIFORM64 = (2, jnp.float64, _uniform64)
_NORMAL64 = (2, jnp.float64, _normal64)


def _rejection_loop(stream, n, attempt, done, result, extra=()):
    """Runs ``attempt((extra, stream state), active) -> (state, accepted, value)`` until every lane
    accepted; lanes ``done`` from the start keep their ``result``. ``extra``: per-lane values an
    attempt carries on (a running product, a count)."""
    def cond(carry):
        _, done, _, tries = carry
        return jnp.any(~done) & (tries < _MAX_ATTEMPTS)

    def body(carry):
        state, done, result, tries = carry
        state, accepted, value = attempt(state, ~done)
        return state, done | accepted, jnp.where(accepted, value, result), tries + 1

    start = ((extra, stream.start(n)), done, result, 0)
    _, done, result, _ = jax.lax.while_loop(cond, body, start)
    return jnp.where(done, result, jnp.nan)


def _streams(seed, n, blocks_per_output, fills, ahead):
    """Output ``i``'s stream starts ``blocks_per_output[i]`` (or a number for all) blocks per output
    into the seed's Philox stream (TF's ``Skip``); an attempt refills at most ``ahead`` times."""
    key, counter = _philox._key_counter(seed)
    first = jnp.arange(n, dtype=jnp.uint64) * jnp.asarray(blocks_per_output, jnp.uint64)
    return _Stream(key, counter, first, fills, ahead)


def _per_output(params, samples_per_param):
    """Each output's parameter, outputs in TF's order (parameter-major; `_scatter` undoes it)."""
    return jnp.repeat(params.reshape(-1), samples_per_param)


def _scatter(flat, samples_per_param, shape):
    """TF's output index of output ``param * samples + sample`` is ``sample * params + param``."""
    return flat.reshape(-1, samples_per_param).T.reshape(shape)


# -- gamma ---------------------------------------------------------------------------------------

def gamma_samples(seed, alpha, shape):
    """Gamma(``alpha``, 1) samples of ``shape`` (ending with ``alpha.shape``), in float64."""
    per = int(np.prod(shape, dtype=np.int64)) // max(alpha.size, 1)
    a = _per_output(alpha.astype(jnp.float64), per)
    n = a.shape[0]
    stream = _streams(seed, n, 256, (_NORMAL64, _UNIFORM64), ahead=3)
    exponential = -jnp.log1p(-_uniform64(_block_at(stream.key, stream.counter, stream.first_block))[:, 1])
    below_one = a < 1
    d = a + jnp.where(below_one, 2.0 / 3, -1.0 / 3)
    c = 1.0 / 3 / jnp.sqrt(d)

    def attempt(state, active):
        extra, state = state
        state, taken = stream.fetch(state), jnp.zeros(active.shape, jnp.int32)
        x, state, taken = stream.draw(state, 0, active, taken)
        v = 1 + c * x
        active = active & (v > 0)
        v = v * v * v
        u, state, taken = stream.draw(state, 1, active, taken)
        squeeze = u < 1 - 0.0331 * (x * x) * (x * x)
        accepted = active & (squeeze | (jnp.log(u) < 0.5 * x * x + d * (1 - v + jnp.log(v))))
        boost, state, _ = stream.draw(state, 1, accepted & below_one, taken)
        value = d * v * jnp.where(below_one, boost ** (1 / a), 1.0)
        return (extra, state), accepted, value

    invalid = jnp.isnan(a) | ~(d > 0)  # TF's loop never ends there
    flat = _rejection_loop(stream, n, attempt, (a == 1.0) | invalid,
                           jnp.where(invalid, jnp.nan, exponential))
    return _scatter(flat, per, shape)


@op("stateless_random_gamma", static=("shape", "dtype"))
def stateless_gamma(seed, alpha, beta, shape, dtype):
    """TF's ``StatelessRandomGammaV3`` divided by ``beta``, never below the dtype's tiny."""
    if not count(shape):
        return jnp.zeros(shape, dtype)
    draws = _gamma_sample_op(seed, alpha, shape).astype(dtype)
    return jnp.maximum(draws / beta, jnp.finfo(dtype).tiny)


def _gamma_sample_op(seed, alpha, shape):
    """The draws, with TF's gradient for ``alpha``: implicit reparameterization, d sample / d alpha
    = ``random_gamma_grad(alpha, sample)`` (the seed and the draws themselves are constants)."""

    @jax.custom_jvp
    def draw(a):
        return gamma_samples(seed, a, shape)

    @draw.defjvp
    def _(primals, tangents):
        (a,), (da,) = primals, tangents
        sample = draw(a)
        wide = jnp.broadcast_to(a, shape).astype(sample.dtype)
        return sample, jax.lax.random_gamma_grad(wide, sample) * jnp.broadcast_to(da, shape)

    return draw(alpha)


# -- Poisson -------------------------------------------------------------------------------------

def poisson_samples(seed, lam, shape):
    """TF's ``StatelessRandomPoisson`` draws (float64, as its kernel computes them) of ``shape``."""
    per = int(np.prod(shape, dtype=np.int64)) // max(lam.size, 1)
    rate = _per_output(lam.astype(jnp.float64), per)
    n = rate.shape[0]
    stream = _streams(seed, n, 256, (_UNIFORM64,), ahead=2)
    knuth = rate < 10
    exp_neg_rate = jnp.exp(-rate)
    b = 0.931 + 2.53 * jnp.sqrt(rate)
    a = -0.059 + 0.02483 * b
    inv_alpha = 1.1239 + 1.1328 / (b - 3.4)
    log_rate = jnp.log(rate)

    def attempt(state, active):
        (prod, count), state = state
        state, taken = stream.fetch(state), jnp.zeros(active.shape, jnp.int32)
        u, state, taken = stream.draw(state, 0, active, taken)
        v, state, _ = stream.draw(state, 0, active & ~knuth, taken)
        prod = jnp.where(active & knuth, prod * u, prod)
        knuth_done = active & knuth & (prod <= exp_neg_rate)
        u = u - 0.5
        shifted = 0.5 - jnp.abs(u)
        draw = jnp.floor((2 * a / shifted + b) * u + rate + 0.43)
        boxed = (shifted >= 0.07) & (v <= 0.9277 - 3.6224 / (b - 2))
        skip = (draw < 0) | ((shifted < 0.013) & (v > shifted))
        s = jnp.log(v * inv_alpha / (a / (shifted * shifted) + b))
        t = -rate + draw * log_rate - jax.lax.lgamma(draw + 1)
        hormann_done = active & ~knuth & (boxed | (~skip & (s <= t)))
        value = jnp.where(knuth, count, draw)
        count = jnp.where(active & knuth & ~knuth_done, count + 1, count)
        return ((prod, count), state), knuth_done | hormann_done, value

    invalid = ~jnp.isfinite(rate) & ~knuth  # TF's loop never ends there
    flat = _rejection_loop(stream, n, attempt, invalid, jnp.full((n,), jnp.nan),
                           (jnp.ones((n,)), jnp.zeros((n,))))
    return _scatter(flat, per, shape)


# -- shared helpers ------------------------------------------------------------------------------

def count(shape):
    return int(np.prod(shape, dtype=np.int64))


@op("stateless_random_poisson", static=("shape", "dtype"))
def stateless_poisson(seed, lam, shape, dtype):
    """TF's ``StatelessRandomPoisson`` cast to ``dtype``."""
    if not count(shape):
        return jnp.zeros(shape, dtype)
    return poisson_samples(seed, lam, shape).astype(dtype)


stateless_poisson.differentiable = False  # TF registers no gradient for StatelessRandomPoisson
