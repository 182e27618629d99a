"""Candidate samplers (`log_uniform_candidate_sampler`, `uniform_candidate_sampler`): the negative
classes of sampled losses and of word2vec's negative sampling, with TensorFlow's expected counts.

A sampler draws ``num_sampled`` classes from ``[0, range_max)``; with ``unique`` it redraws
repeats, counting every try. The expected count of class ``k`` is ``p(k) * num_sampled`` without
``unique`` and ``-expm1(tries * log1p(-p(k)))`` with it (TF's ``RangeSampler``). Which classes come
out is companion's own stream (TF's seed rules, not its bit stream); the counts follow from them.
The sampling runs on the host: inside a `function`, the function runs eagerly.
"""

import numpy as np

from companion._core._context import state
from companion._core._convert import as_input
from companion._core._errors import InvalidArgumentError
from companion._core._tensor import Tensor
from companion._ops._random import consume_tf_op_seed, next_host_key
from companion._staging._needs_values import NeedsValues


def log_uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=None,
                                  name=None):
    """Samples classes from the log-uniform (Zipfian) distribution
    ``p(k) = log((k + 2) / (k + 1)) / log(range_max + 1)``: small class ids (frequent words, when a
    vocabulary is sorted by frequency) come out most often.

    Args:
        true_classes: int64 ``[batch, num_true]``, the target classes (for their expected counts).
        num_true: the number of columns of ``true_classes``.
        num_sampled: how many classes to draw.
        unique: draw without repeats (needs ``num_sampled <= range_max``).
        range_max: the number of classes.
        seed: the op seed.

    Returns:
        ``(sampled_candidates int64 [num_sampled], true_expected_count float32 [batch, num_true],
        sampled_expected_count float32 [num_sampled])``.

    Example:
        >>> import companion as tf
        >>> classes = tf.constant([[1], [5]], tf.int64)
        >>> sampled, true_count, _ = tf.random.log_uniform_candidate_sampler(classes, 1, 4, True, 50, seed=1)
        >>> sampled.shape, len(set(sampled.numpy().tolist())), true_count.shape
        (TensorShape([4]), 4, TensorShape([2, 1]))
    """
    log_range = np.log(float(range_max) + 1.0) if _positive(range_max) else 1.0

    def draw(rng, count):
        values = (np.exp(rng.random(count) * log_range) - 1).astype(np.int64)
        return values % int(range_max)

    def probability(classes):
        classes = classes.astype(np.float64)
        return np.log((classes + 2.0) / (classes + 1.0)) / log_range

    return _sample("log_uniform_candidate_sampler", true_classes, num_true, num_sampled, unique, range_max,
                   seed, draw, probability)


def uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=None, name=None):
    """Samples classes uniformly from ``[0, range_max)`` (arguments and results as
    `log_uniform_candidate_sampler`)."""
    def draw(rng, count):
        return rng.integers(0, int(range_max), count, dtype=np.int64)

    def probability(classes):
        return np.full(classes.shape, 1.0 / float(range_max))

    return _sample("uniform_candidate_sampler", true_classes, num_true, num_sampled, unique, range_max, seed,
                   draw, probability)


def _sample(what, true_classes, num_true, num_sampled, unique, range_max, seed, draw, probability):
    true_classes = _true_classes(true_classes, num_true, what)
    num_sampled = _count(num_sampled, "num_sampled", what, minimum=0)
    range_max = _count(range_max, "range_max", what, minimum=1)
    if unique and num_sampled > range_max:
        raise InvalidArgumentError(f"{what}: Sampler's range is too small: unique=True needs num_sampled <= "
                                   f"range_max. Received num_sampled={num_sampled}, range_max={range_max}.")
    outside = true_classes[(true_classes < 0) | (true_classes >= range_max)]
    if outside.size:
        raise InvalidArgumentError(f"{what}: `true_candidate` out of range [0, {range_max}), received "
                                   f"{int(outside[0])}. Every true class must be a class id below range_max.")
    if state.staging:
        raise NeedsValues(f"{what} draws its classes on the host, so it runs eagerly (not inside a "
                          "compiled function).")
    consume_tf_op_seed(seed)
    rng = np.random.default_rng(next_host_key(seed))
    sampled, tries = _draw_unique(rng, draw, num_sampled) if unique else (draw(rng, num_sampled), num_sampled)
    return (Tensor(sampled.astype(np.int64)),
            Tensor(_expected(probability(true_classes), tries, num_sampled)),
            Tensor(_expected(probability(sampled), tries, num_sampled)))


def _draw_unique(rng, draw, count):
    """``count`` distinct classes in the order first drawn, and how many draws that took."""
    seen, order, tries = set(), [], 0
    while len(order) < count:
        for value in draw(rng, 2 * (count - len(order)) + 8).tolist():
            tries += 1
            if value not in seen:
                seen.add(value)
                order.append(value)
                if len(order) == count:
                    break
    return np.asarray(order, np.int64), tries


def _expected(p, tries, count):
    """TF's ``ExpectedCountHelper``: ``p * count``, or with repeats redrawn ``1 - (1 - p) ** tries``."""
    if tries == count:
        return (p * count).astype(np.float32)
    return (-np.expm1(tries * np.log1p(-p))).astype(np.float32)


def _true_classes(true_classes, num_true, what):
    tensor = as_input(true_classes)
    if tensor.dtype.name != "int64":
        raise InvalidArgumentError(f"{what}: true_classes must be an int64 tensor. Received dtype "
                                   f"{tensor.dtype.name}. Build it with tf.constant(..., dtype=tf.int64).")
    if tensor.ndim != 2 or tensor.shape.as_list()[1] != int(num_true):
        raise InvalidArgumentError(f"{what}: true_classes must have num_true columns ([batch, {num_true}]). "
                                   f"Received shape {list(tensor.shape.as_list())}.")
    return np.asarray(tensor)


def _count(value, name, what, minimum):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise InvalidArgumentError(f"{what}: {name} must be an int >= {minimum}. Received: {name}={value!r}")
    return int(value)


def _positive(value):
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool) and value > 0
