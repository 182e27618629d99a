"""An exercise's score: its child-reported outputs compared case by case with the reference outputs."""

from __future__ import annotations

from graders._compare import compare, safe_name, with_article
from graders._result import ExerciseResult
from graders._runner import ExerciseRun
from graders._spec import Exercise

MAX_REASONS = 3


def exercise_result(exercise: Exercise, run: ExerciseRun | None, expected: list[dict],
                    problem: str | None = None) -> ExerciseResult:
    """Partial credit = weight × passed cases / cases; zero with a reason when it could not run."""
    cases = len(exercise.cases)
    if problem or run is None or run.status != "ran":
        reason = problem or _not_ran(exercise.id, run)
        return ExerciseResult(exercise.id, 0.0, exercise.weight, 0, cases, [_capital(reason)], exercise.hint)
    reasons = [compare(want, got, exercise.rule) for want, got in zip(expected, run.outputs)]
    passed = sum(reason is None for reason in reasons)
    score = round(exercise.weight * passed / cases, 6)
    lines = [f"{passed}/{cases} hidden cases passed."]
    lines += _grouped(exercise.id, reasons)
    return ExerciseResult(exercise.id, score, exercise.weight, passed, cases, lines,
                          exercise.hint if passed < cases else "")


def _grouped(name: str, reasons: list[str | None]) -> list[str]:
    """One line per distinct reason, naming the cases it applies to (at most MAX_REASONS lines)."""
    cases: dict[str, list[str]] = {}
    for number, reason in enumerate(reasons, 1):
        if reason:
            cases.setdefault(reason, []).append(str(number))
    lines = [f"Hidden case{'s' if len(numbers) > 1 else ''} {', '.join(numbers)}: {name} {reason}."
             for reason, numbers in cases.items()]
    extra = [f"... and {len(lines) - MAX_REASONS} more."] if len(lines) > MAX_REASONS else []
    return lines[:MAX_REASONS] + extra


def _not_ran(name: str, run: ExerciseRun | None) -> str:
    if run is None:
        return "not graded: the notebook was not run"
    if run.status == "missing":
        return f"{name} is not defined after running the notebook (did its cell raise an error before `def`?)"
    if run.status == "not_callable":
        return (f"{name} is {with_article(safe_name(run.type))} after running the notebook, not a function "
                "(reassigned?)")
    return run.reason


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
