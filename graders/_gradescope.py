"""results.json in Gradescope's autograder format, built from a SubmissionResult."""

from __future__ import annotations

import json

from graders._result import SubmissionResult


def results_json(result: SubmissionResult) -> str:
    """The Gradescope document: tests with name/score/max_score/output/visibility, total score, time."""
    tests = [_test(number, exercise) for number, exercise in enumerate(result.exercises, 1)]
    document = {
        "score": result.score,
        "max_score": result.max_score,
        "execution_time": round(result.seconds, 3),
        "output": "\n".join([f"{result.assignment}: {result.score:g}/{result.max_score:g}", *result.notes]),
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "tests": tests,
        "extra_data": {"id": result.id, "status": result.status, "fingerprint": result.fingerprint,
                       "sandbox": result.sandbox, "submission": str(result.path), "seconds": result.phases},
    }
    return json.dumps(document, indent=2) + "\n"


def _test(number: int, exercise) -> dict:
    output = exercise.lines + ([f"Hint: {exercise.hint}"] if exercise.hint else [])
    status = "passed" if exercise.status == "passed" else "failed"
    return {"name": exercise.id, "number": str(number), "score": exercise.score,
            "max_score": exercise.max_score, "status": status, "output": "\n".join(output),
            "visibility": "visible"}
