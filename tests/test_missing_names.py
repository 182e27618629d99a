"""Names companion lacks: TensorFlow names say they are not implemented yet, typos get suggestions."""

import pytest

import companion as tf


def test_a_tensorflow_name_not_implemented_says_so():
    with pytest.raises(AttributeError, match=r"companion does not implement `tf.CriticalSection` yet"):
        tf.CriticalSection
    assert not hasattr(tf, "CriticalSection")


def test_a_typo_suggests_the_nearest_names():
    with pytest.raises(AttributeError, match=r"has no attribute 'sqare'. Did you mean `square`\?"):
        tf.sqare
    with pytest.raises(AttributeError, match=r"no attribute 'xyzzy'\.$"):
        tf.xyzzy


def test_a_none_target_explains_that_it_was_never_computed():
    x = tf.Variable(1.0)
    with tf.GradientTape() as tape:
        y = None
    with pytest.raises(ValueError, match="never computed.*YOUR CODE HERE"):
        tape.gradient(y, x)
