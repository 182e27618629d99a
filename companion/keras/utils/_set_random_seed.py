"""`set_random_seed`: seeds Python, NumPy and companion's random streams at once, as Keras does."""

import random

import numpy as np

from companion.keras.random._seed_generator import follow_keras_seeding
from companion.random import set_seed


def set_random_seed(seed):
    """Sets the seed of Python's `random`, NumPy's global generator and `companion.random`.

    Args:
        seed: an integer.

    Raises:
        ValueError: ``seed`` is not an integer.

    Example:
        >>> import numpy as np
        >>> import companion as tf
        >>> tf.keras.utils.set_random_seed(3); a = np.random.rand(), tf.random.uniform([])
        >>> tf.keras.utils.set_random_seed(3); b = np.random.rand(), tf.random.uniform([])
        >>> a[0] == b[0], bool(a[1].numpy() == b[1].numpy())
        (True, True)
    """
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise ValueError("Expected `seed` argument to be an integer. "
                         f"Received: seed={seed!r} (of type {type(seed)})")
    random.seed(int(seed))
    np.random.seed(int(seed))
    set_seed(int(seed))
    follow_keras_seeding()  # unseeded initializers and random layers now take Keras's default seeds
