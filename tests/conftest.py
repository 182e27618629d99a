"""Shared pytest fixtures."""

import functools
import os
import shutil
import sys
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
GRADING_SEED = "COMPANION_TEST_GRADING_SEED"


def pytest_configure(config):
    """One reference-output cache and one grading seed for every grader test of the session (xdist
    workers inherit both).

    Reference outputs are keyed by the solution notebook, hidden spec and grading seed, so tests that
    grade the same course assignment share one computation instead of each paying for it (a new seed
    per grading run would make each compute its own); tests about the cache or the seed itself keep
    their own. Set $COMPANION_TEST_GRADING_SEED to run the suite on other generated hidden cases.
    """
    os.environ.setdefault(GRADING_SEED, "20261128")
    if SHARED_CACHE not in os.environ:
        os.environ[SHARED_CACHE] = tempfile.mkdtemp(prefix="companion-test-references-")
        config._companion_made_cache = os.environ[SHARED_CACHE]


def pytest_unconfigure(config):
    made = getattr(config, "_companion_made_cache", None)
    if made:
        shutil.rmtree(made, ignore_errors=True)
        os.environ.pop(SHARED_CACHE, None)



def pytest_xdist_make_scheduler(config, log):
    """Under ``--dist loadgroup`` (what ``tasks.py test`` passes): each module that defines a
    module-scoped fixture runs on one worker; every other test is spread on its own.

    The grader modules' module fixtures grade whole batches (10-30 s each): spread over two workers,
    each worker would grade the same batch again. (xdist's own ``xdist_group`` marks cannot do it with
    pytest 9: xdist 3.8 renames a node by a private attribute pytest 9 no longer reads.)
    """
    if config.getvalue("dist") != "loadgroup":
        return None
    # deferred: xdist is a test-only dependency, and only the controller schedules
    from xdist.scheduler import LoadScopeScheduling

    class ModuleFixtureScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid):
            return module_group(config.rootpath, nodeid)

    return ModuleFixtureScheduling(config, log)


@functools.cache
def _defines_module_fixture(path):
    try:
        return 'scope="module"' in path.read_text(encoding="utf-8")
    except OSError:
        return False


def module_group(root, nodeid):
    """The scheduling unit of a test: its module's path when the module defines a module-scoped
    fixture, else the test itself."""
    module = nodeid.split("::", 1)[0]
    return module if _defines_module_fixture(root / module) else nodeid


UNSEEDED_TEST_ENTROPY = 20261128


@pytest.fixture(autouse=True)
def _no_global_seed():
    """Each test starts with no global seed, as a fresh interpreter does: a seeded op's values (a
    `shuffle(seed=1)`) depend on it, and a test earlier on the same worker may have set one.

    The unseeded streams restart from a fixed entropy, so a test's unseeded numbers (a layer's
    initial weights) are the same whichever tests ran before it: a tolerance that one draw happens
    to miss fails on every run, never on one order of the suite only."""
    companion = sys.modules.get("companion")
    if companion is not None:
        companion.random.set_seed(None)
        sys.modules["companion._ops._random"].restart_streams(UNSEEDED_TEST_ENTROPY)
