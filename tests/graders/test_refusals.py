"""The learner's feedback says why an error was the grader's doing (graders/_refusals.py)."""

from graders import _cgroup
from graders._refusals import THREAD_REFUSAL, explanation


def test_the_guard_s_thread_refusal_is_explained():
    why = explanation(f"RuntimeError: {THREAD_REFUSAL} (threading.Thread, Timer, a thread pool): run ...")
    assert "runs no thread a notebook starts" in why and "main thread" in why


def test_the_task_bound_is_explained():
    assert explanation("BlockingIOError: [Errno 11] Resource temporarily unavailable") == \
        f" ({_cgroup.task_limit_text()})"


def test_the_learner_s_own_errors_get_nothing_added():
    assert explanation("RuntimeError: my own message") == ""
    assert explanation(f"ValueError: {THREAD_REFUSAL}") == ""
