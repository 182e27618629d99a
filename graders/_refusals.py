"""Why learner code got an error that is the grader's doing, for the learner's feedback.

Three refusals come from the grader, not from the learner's code: the bound on a submission's processes
and threads (its cgroup, `_cgroup`), the guard's refusal of threads a notebook starts (`_guard`), and
its audit hook's refusal of frames, the collector's objects, ctypes and functions' code (`_audit`).
The child reports an error as ``Type: message``; `explanation` adds what the grader knows to it.
"""

from __future__ import annotations

from graders._cgroup import refused_a_task, task_limit_text

THREAD_REFUSAL = "The grader runs no thread of the notebook's own"
AUDIT_REFUSAL = "The grader does not let a notebook"


def explanation(error: str) -> str:
    """`` (why)`` for an error the grader caused, else the empty string."""
    if refused_a_task(error):
        return f" ({task_limit_text()})"
    if error.startswith(f"RuntimeError: {THREAD_REFUSAL}"):
        return (" (the grader runs no thread a notebook starts, as threading.Thread, Timer or a thread "
                "pool: do the work in the main thread)")
    if error.startswith(f"RuntimeError: {AUDIT_REFUSAL} "):
        what = error[len(f"RuntimeError: {AUDIT_REFUSAL} "):].split(": a graded notebook")[0][:200]
        return f" (the grader refused to let it {what}: graded code may not reach into the grader's process)"
    return ""
