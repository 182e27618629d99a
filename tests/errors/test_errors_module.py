"""``companion.errors`` has TF's classes, codes and constructor signatures."""

import pytest

import companion as tf

# TF 2.21: every class below is a tf.errors.OpError subclass with this error_code
CODES = {
    "CancelledError": 1, "UnknownError": 2, "InvalidArgumentError": 3, "DeadlineExceededError": 4,
    "NotFoundError": 5, "AlreadyExistsError": 6, "PermissionDeniedError": 7, "ResourceExhaustedError": 8,
    "FailedPreconditionError": 9, "AbortedError": 10, "OutOfRangeError": 11, "UnimplementedError": 12,
    "InternalError": 13, "UnavailableError": 14, "DataLossError": 15, "UnauthenticatedError": 16,
}


@pytest.mark.parametrize("name", sorted(CODES))
def test_classes_and_codes(name):
    cls = getattr(tf.errors, name)
    assert issubclass(cls, tf.errors.OpError)
    assert cls.error_code == CODES[name]
    constant = "".join("_" + c if c.isupper() else c for c in name[:-5]).lstrip("_").upper()
    assert getattr(tf.errors, constant) == CODES[name]


def test_tf_signature_and_attributes():
    # TF 2.21: InvalidArgumentError(None, None, 'boom') -> str 'boom', .message 'boom', .error_code 3
    error = tf.errors.InvalidArgumentError(None, None, "boom")
    assert (str(error), error.message, error.op, error.node_def, error.error_code) == ("boom", "boom", None,
                                                                                     None, 3)
    assert tf.errors.OpError(None, None, "x", tf.errors.ABORTED).error_code == 10


def test_a_single_message_also_works():
    assert str(tf.errors.NotFoundError("missing")) == "missing"


def test_builtin_bases():
    assert issubclass(tf.errors.InvalidArgumentError, ValueError)
    assert issubclass(tf.errors.NotFoundError, LookupError)
    assert issubclass(tf.errors.OutOfRangeError, IndexError)
    assert issubclass(tf.errors.UnimplementedError, NotImplementedError)
    assert issubclass(tf.errors.InaccessibleTensorError, ValueError)  # as TF's
    assert issubclass(tf.errors.OperatorNotAllowedInGraphError, TypeError)  # as TF's


def test_catching_the_base_class():
    with pytest.raises(tf.errors.OpError):
        tf.constant([1, 2]) + tf.constant([1, 2, 3])
