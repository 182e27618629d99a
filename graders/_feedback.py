"""Learner feedback in Markdown and HTML: per-exercise status, reasons and hints, no hidden data."""

from __future__ import annotations

import html

from graders._result import SubmissionResult

ICONS = {"passed": "✅", "partial": "🟡", "failed": "❌"}


def feedback_markdown(result: SubmissionResult) -> str:
    """A Markdown report: total, a table of exercises, then the details of each one not passed."""
    lines = [f"# {result.assignment}: {result.score:g} / {result.max_score:g}", "",
             "| Exercise | Status | Score |", "|---|---|---|"]
    lines += [f"| `{e.id}` | {ICONS[e.status]} {e.status} | {e.score:g} / {e.max_score:g} |"
              for e in result.exercises]
    for exercise in result.exercises:
        lines += ["", f"## `{exercise.id}`: {exercise.status}", ""]
        lines += [f"- {_md(line)}" for line in exercise.lines]
        lines += [f"- Hint: {exercise.hint}"] if exercise.hint else []  # the instructor's Markdown
    if result.notes:
        lines += ["", "## Notes", "", *[f"- {_md(note)}" for note in result.notes]]
    return "\n".join(lines) + "\n"


def feedback_html(result: SubmissionResult) -> str:
    """The same report as a standalone HTML page (all learner-controlled text escaped)."""
    rows = "".join(f"<tr><td><code>{_h(e.id)}</code></td><td>{ICONS[e.status]} {e.status}</td>"
                   f"<td>{e.score:g} / {e.max_score:g}</td></tr>" for e in result.exercises)
    sections = "".join(_html_section(e) for e in result.exercises)
    notes = "".join(f"<li>{_h(note)}</li>" for note in result.notes)
    title = f"{_h(result.assignment)}: {result.score:g} / {result.max_score:g}"
    return (f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{_h(result.assignment)} feedback"
            f"</title></head><body>\n<h1>{title}</h1>\n"
            f"<table><tr><th>Exercise</th><th>Status</th><th>Score</th></tr>{rows}</table>\n{sections}"
            + (f"<h2>Notes</h2><ul>{notes}</ul>\n" if notes else "") + "</body></html>\n")


def _html_section(exercise) -> str:
    items = "".join(f"<li>{_h(line)}</li>" for line in exercise.lines)
    hint = f"<li>Hint: {_h(exercise.hint)}</li>" if exercise.hint else ""
    return f"<h2><code>{_h(exercise.id)}</code>: {exercise.status}</h2><ul>{items}{hint}</ul>\n"


def _h(text: str) -> str:
    return html.escape(str(text))


def _md(text: str) -> str:
    """Text shown verbatim in Markdown: HTML and Markdown control characters escaped."""
    text = html.escape(str(text), quote=False).replace("\n", " ")
    return "".join("\\" + char if char in "\\`*_[]|" else char for char in text)
