"""Shared pytest fixtures."""

import numpy as np
import pytest


@pytest.fixture
def rng():
    """A NumPy generator with a fixed seed, for building test inputs."""
    return np.random.default_rng(1234)
