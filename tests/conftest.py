"""Shared pytest fixtures."""

import os
import shutil
import tempfile

import numpy as np
import pytest


@pytest.fixture(autouse=True)
def _keras_seeding_ends_with_the_test():
    """`keras.utils.set_random_seed` switches later unseeded Keras objects to Keras's default seeds
    for the rest of the process; a test that calls it must not change how later tests draw."""
    yield
    # deferred: imported only after the test ran (companion is loaded by then anyway)
    from companion.keras.random._seed_generator import stop_following_keras_seeding

    stop_following_keras_seeding()


@pytest.fixture(autouse=True)
def _keras_dtype_policy_ends_with_the_test():
    """`keras.mixed_precision.set_global_policy` applies to every later layer: reset it after each test."""
    yield
    # deferred: imported only after the test ran (companion is loaded by then anyway)
    from companion.keras._dtype_policy import set_global_policy

    set_global_policy(None)


@pytest.fixture
def rng():
    """A NumPy generator with a fixed seed, for building test inputs."""
    return np.random.default_rng(1234)


SHARED_CACHE = "COMPANION_TEST_REFERENCE_CACHE"


def pytest_configure(config):
    """One reference-output cache for every grader test of the session (xdist workers inherit it).

    Reference outputs are keyed by the solution notebook and hidden spec, so tests that grade the same
    course assignment share one computation instead of each paying for it; tests about the cache
    itself keep their own folder.
    """
    if SHARED_CACHE not in os.environ:
        os.environ[SHARED_CACHE] = tempfile.mkdtemp(prefix="companion-test-references-")
        config._companion_made_cache = os.environ[SHARED_CACHE]


def pytest_unconfigure(config):
    made = getattr(config, "_companion_made_cache", None)
    if made:
        shutil.rmtree(made, ignore_errors=True)
        os.environ.pop(SHARED_CACHE, None)


def pytest_collection_modifyitems(config, items):
    """Keep each module whose tests share a module-scoped fixture on one xdist worker.

    Under ``--dist loadgroup`` (what ``tasks.py test`` passes) a test with an ``xdist_group`` mark
    runs on the worker that runs its group; tests without one are spread one by one. The grader
    modules' module fixtures grade whole batches (10-30 s each): spread over two workers, each worker
    would grade the same batch again.
    """
    for item in items:
        definitions = getattr(getattr(item, "_fixtureinfo", None), "name2fixturedefs", {})
        if any(fixture.scope == "module" for chain in definitions.values() for fixture in chain):
            item.add_marker(pytest.mark.xdist_group(item.module.__name__))
