"""summary.csv for a batch: one row per submission, for an LMS import."""

from __future__ import annotations

import csv
import io


def summary_csv(rows: list[dict], exercise_ids: list[str]) -> str:
    """CSV text with id, one column per exercise, total, max_total, status, file."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["id", *exercise_ids, "total", "max_total", "status", "file"])
    for row in sorted(rows, key=lambda row: row["id"]):
        scores = {test["name"]: test["score"] for test in row["tests"]}
        writer.writerow([row["id"], *[_number(scores.get(name, 0)) for name in exercise_ids],
                         _number(row["score"]), _number(row["max_score"]), row["status"], row["file"]])
    return buffer.getvalue()


def _number(value: float) -> str:
    return f"{value:g}"
