"""``companion.random``: random ops with TensorFlow's seed rules, stateless ops and `Generator`."""

from companion._ops._random import set_seed
from companion.random._candidate_sampling import log_uniform_candidate_sampler, uniform_candidate_sampler
from companion.random._generator import Generator, get_global_generator, set_global_generator
from companion.random._ops import (
    categorical,
    fold_in,
    gamma,
    normal,
    poisson,
    shuffle,
    split,
    stateless_categorical,
    stateless_normal,
    stateless_truncated_normal,
    stateless_uniform,
    truncated_normal,
    uniform,
)
from companion.random._stateless_rejection import stateless_binomial, stateless_gamma, stateless_poisson

__all__ = [
    "Generator",
    "categorical",
    "fold_in",
    "gamma",
    "get_global_generator",
    "log_uniform_candidate_sampler",
    "normal",
    "poisson",
    "set_global_generator",
    "set_seed",
    "shuffle",
    "split",
    "stateless_binomial",
    "stateless_categorical",
    "stateless_gamma",
    "stateless_normal",
    "stateless_poisson",
    "stateless_truncated_normal",
    "stateless_uniform",
    "truncated_normal",
    "uniform",
    "uniform_candidate_sampler",
]
