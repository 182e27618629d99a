"""A result event counts only with the secret the parent sent with its exercise.

Notebook code shares the child's process and so its channel descriptor: during a graded call it could
write a well-formed result of its own (claiming, say, that its step was a traced `tf.function`) and
exit before the harness reports. The parent sends a fresh token with each exercise; an event without
it is a protocol error, and the child is stopped with that reason.
"""

import pytest

from graders import _runner

EVENT = {"event": "exercise", "id": "add_one", "status": "ran", "outputs": [{"t": "none"}]}


def _attempt():
    attempt = _runner._Attempt()
    attempt.cell_errors, attempt.current, attempt.expected_cases = [], "add_one", 1
    attempt.token = "a" * 32
    return attempt


@pytest.mark.parametrize("token", [None, "", "b" * 32, "a" * 31, 12345])
def test_a_result_without_the_exercise_s_token_is_refused(token):
    event = dict(EVENT) if token is None else {**EVENT, "token": token}
    attempt = _attempt()
    with pytest.raises(_runner._ProtocolError):
        _runner._handle(event, attempt)
    assert attempt.exercises == {}


def test_a_result_with_the_token_is_taken():
    attempt = _attempt()
    assert _runner._handle({**EVENT, "token": "a" * 32}, attempt) is False
    assert attempt.exercises["add_one"].status == "ran" and attempt.current is None


def test_each_exercise_is_sent_with_a_new_token():
    sent = []

    class Child:
        def send(self, data):
            sent.append(data)

    attempt = _runner._Attempt()
    limits = _runner.Limits()
    queue = [{"id": "a", "cases": [1]}, {"id": "b", "cases": [1]}]
    tokens = []
    for _ in range(2):
        _runner._send_next(Child(), queue, attempt, limits)
        tokens.append(attempt.token)
    assert len(set(tokens)) == 2 and all(len(t) == 32 for t in tokens)
    assert all(token.encode() in line for token, line in zip(tokens, sent))
