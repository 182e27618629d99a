"""The graded result of a submission, per exercise, as the reports read it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class ExerciseResult:
    """Score and learner-safe explanation of one exercise."""

    id: str
    score: float
    max_score: float
    passed: int
    cases: int
    lines: list[str]
    hint: str = ""

    @property
    def status(self) -> str:
        """passed, partial or failed."""
        if self.score >= self.max_score:
            return "passed"
        return "partial" if self.score > 0 else "failed"


@dataclass
class SubmissionResult:
    """Everything the reports need about one graded submission."""

    id: str
    path: Path
    assignment: str
    exercises: list[ExerciseResult]
    status: str
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0
    log: str = ""
    fingerprint: str = ""
    sandbox: str = ""
    phases: dict[str, float] = field(default_factory=dict)

    @property
    def score(self) -> float:
        return round(sum(exercise.score for exercise in self.exercises), 6)

    @property
    def max_score(self) -> float:
        return round(sum(exercise.max_score for exercise in self.exercises), 6)
