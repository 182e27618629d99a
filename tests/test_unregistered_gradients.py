"""Ops TF registers no gradient for: tape.gradient through them raises TF's LookupError; ops TF
marks not differentiable give None (TF 2.21's observed behaviour, from probes)."""
import pytest

import companion as tf

X = tf.constant([[4.0, 3.0], [6.0, 3.0]])
V = tf.constant([1.5, 2.7, 0.2, 2.7])

NO_ENTRY = {
    "Lu": lambda: tf.linalg.lu(X)[0] * 2.0 + X,
    "Unique": lambda: tf.unique(V)[0],
    "UniqueWithCounts": lambda: tf.unique_with_counts(V)[0],
    "DenseBincount": lambda: tf.math.bincount(tf.constant([0, 1, 1]), weights=V[:3]),
    "HistogramFixedWidth": lambda: tf.histogram_fixed_width(V, [0.0, 3.0], nbins=3),  # an int target
    "RandomPoissonV2": lambda: tf.random.poisson([2], V, seed=1),
    "Bitcast": lambda: tf.bitcast(V, tf.int32),
}


@pytest.mark.parametrize("op_type", sorted(NO_ENTRY))
def test_gradient_through_an_op_without_a_registered_gradient_raises_lookup_error(op_type):
    with tf.GradientTape() as tape:
        tape.watch([X, V])
        y = NO_ENTRY[op_type]()
    with pytest.raises(LookupError, match=f"^gradient registry has no entry for: {op_type}$"):
        tape.gradient(y, [X, V])


def test_only_a_path_of_floating_tensors_reaches_the_op():
    """TF: an op off the target's path, behind stop_gradient or behind an integer tensor is not
    differentiated, so no error: the gradient is as without it."""
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([X, V])
        tf.linalg.lu(X)
        off_path = X * 2.0
        stopped = tf.stop_gradient(tf.linalg.lu(X)[0]) + X
        through_int = tf.cast(tf.bitcast(V, tf.int32), tf.float32)
        counted = tf.cast(tf.histogram_fixed_width(V, [0.0, 3.0], nbins=3), tf.float32)
        pivots = tf.cast(tf.linalg.lu(X)[1], tf.float32)
    assert tape.gradient(off_path, X).numpy().tolist() == [[2.0, 2.0], [2.0, 2.0]]
    assert tape.gradient(stopped, X).numpy().tolist() == [[1.0, 1.0], [1.0, 1.0]]
    assert tape.gradient(through_int, V) is None
    assert tape.gradient(counted, V) is None
    assert tape.gradient(pivots, X) is None


def test_a_persistent_tape_still_works_after_the_lookup_error():
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(V)
        y = tf.unique(V)[0]
        doubled = V * 2.0
    with pytest.raises(LookupError):
        tape.gradient(y, V)
    assert tape.gradient(doubled, V).numpy().tolist() == [2.0] * 4


def test_inside_a_function_the_lookup_error_is_a_staging_error():
    @tf.function
    def staged(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.linalg.lu(x)[0]
        return tape.gradient(y, x)

    with pytest.raises(Exception, match="LookupError: gradient registry has no entry for: Lu") as info:
        staged(X)
    assert type(info.value).__name__ == "StagingError"


def test_not_differentiable_ops_give_none_and_nextafter_passes_the_gradient_to_x1():
    a, b = tf.constant([1.0, 2.0]), tf.constant([3.0, 0.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([a, b, V])
        after = tf.math.nextafter(a, b) * tf.constant([2.0, 3.0])
        index = tf.math.argmax(V)
        rounded = tf.round(V) + tf.floor(V) + tf.math.ceil(V)
        where = tf.cast(tf.searchsorted(tf.sort(V), V), tf.float32)
    ga, gb = tape.gradient(after, [a, b])
    assert ga.numpy().tolist() == [2.0, 3.0] and gb.numpy().tolist() == [0.0, 0.0]
    assert tape.gradient(index, V) is None
    assert tape.gradient(rounded, V) is None
    assert tape.gradient(where, V) is None
