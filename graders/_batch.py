"""Grading a batch: find submissions, compute or load the reference, grade N at a time, write reports.

Each submission's reports are written atomically as soon as it is graded (results.json last, so its
presence means "done"); a re-run skips submissions whose results.json matches the submission and the
reference, unless `force`. summary.csv is rewritten at the end, also after an interruption.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import re
import secrets
import traceback
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

from graders import _cgroup as cgroup
from graders._atomic import write_atomic
from graders._feedback import feedback_html, feedback_markdown
from graders._grade import fingerprint, grade_submission
from graders._gradescope import results_json
from graders._hidden_paths import hidden_paths
from graders._limits import Limits
from graders._pool import ForkServer, PoolError, pool_enabled
from graders._reference import default_cache_dir, load_or_compute, reference_seed
from graders._result import SubmissionResult
from graders._spec import Assignment
from graders._summary import summary_csv
from graders._verdict import exercise_result


@dataclass(frozen=True)
class BatchOptions:
    """Where reports go, how many children run at once, their limits, and whether to re-grade."""

    out: Path = Path("grades")
    jobs: int = 2
    limits: Limits = Limits()
    force: bool = False
    cache_dir: Path | None = None
    seed: int | None = None
    pool: bool = True


def grade_batch(assignment: Assignment, paths: list[Path], options: BatchOptions = BatchOptions(),
                report: Callable[[str], None] = print) -> list[dict]:
    """Grade every notebook named by `paths`; return the summary rows (one per submission)."""
    submissions = find_submissions(paths)
    ids = submission_ids(submissions)
    out, cache = options.out.resolve(), (options.cache_dir or default_cache_dir()).resolve()
    hidden = hidden_paths(assignment, cache, out, submissions)
    seed = grading_seed(out, options.seed)
    key_seed, assignment = reference_seed(assignment, seed), assignment.for_seed(seed)
    limits = dataclasses.replace(options.limits, host_devices=assignment.host_devices)
    reference = load_or_compute(assignment, limits, cache, hidden, key_seed)
    todo = [path for path in submissions
            if options.force or not _up_to_date(report_folder(out, ids[path]), path, reference)]
    report(f"[grade] {assignment.name}: {len(submissions)} submission(s), {len(todo)} to grade, "
           f"{options.jobs} at a time; reports in {out}")
    try:
        with cgroup.children_at_once(options.jobs), \
                _warm_pool(options.pool and bool(todo), limits, hidden, report) as zygote, \
                ThreadPoolExecutor(max_workers=options.jobs) as threads:
            futures = [threads.submit(_grade_safely, path, ids[path], assignment, reference, limits, hidden,
                                      zygote) for path in todo]
            for future in as_completed(futures):
                _write_reports(future.result(), out, report)
    finally:
        rows = [_row(report_folder(out, ids[path])) for path in submissions]
        rows = [row for row in rows if row]
        write_atomic(out / "summary.csv", summary_csv(rows, [e.id for e in assignment.exercises]))
    return rows


SEED_FILE = ".grading-seed"


def grading_seed(out: Path, seed: int | None = None) -> int:
    """The seed of this batch's generated hidden cases: `seed`, else the one kept in `out`, else new.

    A new seed comes from `secrets` and is kept in `out/.grading-seed` (readable by the grader only;
    no child ever sees `out`), so a re-run into the same folder grades the same cases and can skip
    what it already graded, while another batch gets cases no submission could know in advance.
    """
    path = out / SEED_FILE
    if seed is None:
        try:
            return int(path.read_text().strip())
        except (OSError, ValueError):
            seed = secrets.randbits(62)
    out.mkdir(parents=True, exist_ok=True)
    write_atomic(path, f"{int(seed)}\n")
    os.chmod(path, 0o600)
    return int(seed)


@contextlib.contextmanager
def _warm_pool(wanted: bool, limits: Limits, hidden: tuple[Path, ...], report: Callable[[str], None]):
    """A `ForkServer` for the batch where the sandbox allows one (see `_pool`), else None."""
    if not (wanted and pool_enabled()):
        yield None
        return
    try:
        server = ForkServer(limits, hidden)
    except PoolError as error:
        report(f"[grade] warm pool unavailable, starting a fresh process per submission: {error}")
        yield None
        return
    with server:
        yield server


def _grade_safely(path: Path, submission_id: str, assignment: Assignment, reference, limits: Limits,
                  hidden: tuple[Path, ...], zygote=None) -> SubmissionResult:
    """`grade_submission`, with any unexpected grader failure turned into this submission's row only."""
    try:
        return grade_submission(path, submission_id, assignment, reference, limits, hidden, zygote)
    except Exception as error:  # noqa: BLE001 - one submission must never stop the batch
        result = SubmissionResult(submission_id, path, assignment.name, [], "grader error",
                                  notes=[f"The grader failed on this submission ({type(error).__name__}); "
                                         "it was given no marks. Tell your instructor."])
        result.exercises = [exercise_result(e, None, [], problem="not graded: the grader failed")
                            for e in assignment.exercises]
        result.log = "".join(traceback.format_exception(error))[-4000:]
        return result


def find_submissions(paths: list[Path]) -> list[Path]:
    """Every *.ipynb named by `paths` (files, or folders searched recursively), in a stable order.

    Folders are walked without following links. Entries that are links, pipes or devices are
    still listed: they get a row saying why they were not graded (`read_submission` refuses them).
    """
    found = []
    for path in paths:
        if path.is_dir() and not path.is_symlink():
            found += _walk(path)
        elif path.is_symlink() or path.exists():
            found.append(path)
        else:
            raise FileNotFoundError(f"{path} does not exist. Expected a notebook or a folder of notebooks.")
    unique = dict.fromkeys(Path(os.path.abspath(path)) for path in found)
    return list(unique)


def _walk(folder: Path) -> list[Path]:
    found = []
    for parent, folders, files in os.walk(folder, followlinks=False):
        folders[:] = sorted(name for name in folders if name != ".ipynb_checkpoints")
        found += [Path(parent, name) for name in sorted(files) if name.endswith(".ipynb")]
        found += [Path(parent, name) for name in folders if name.endswith(".ipynb")]
    return sorted(found)


def submission_ids(submissions: list[Path]) -> dict[Path, str]:
    """Each submission's id: its file name without .ipynb, after as many folders as make it unique.

    Ids are safe as one path component (letters, digits, `.`, `_`, `-`, no leading dot) and unique
    by construction: ids that would still collide (`alice/C2W1.ipynb` beside a file named
    `alice__C2W1.ipynb`) all get a suffix from a hash of their full path.
    """
    groups: dict[str, list[Path]] = {}
    for path in submissions:
        groups.setdefault(path.stem, []).append(path)
    ids = {path: name for group in groups.values() for path, name in _unique_names(group).items()}
    counts: dict[str, int] = {}
    for name in ids.values():
        counts[name] = counts.get(name, 0) + 1
    return {path: name if counts[name] == 1 else f"{name}-{_path_hash(path)}" for path, name in ids.items()}


def _unique_names(group: list[Path]) -> dict[Path, str]:
    for depth in range(max(len(path.parts) for path in group)):
        names = {path: "__".join(_safe(part) for part in
                                 [*path.parent.parts[1:][len(path.parent.parts) - 1 - depth:], path.stem])
                 for path in group}
        if len(set(names.values())) == len(group):
            return names
    return {path: f"{_safe(path.stem)}-{_path_hash(path)}" for path in group}


def _safe(part: str) -> str:
    """A path component reduced to letters, digits, `.`, `_` and `-`; never empty, no leading dot."""
    cleaned = re.sub(r"[^A-Za-z0-9._-]", "-", part)[:80] or "_"
    return "_" + cleaned[1:] if cleaned.startswith(".") else cleaned


def _path_hash(path: Path) -> str:
    return hashlib.sha256(os.fsencode(path)).hexdigest()[:10]


def report_folder(out: Path, submission_id: str) -> Path:
    """`out/<id>`, checked to be a direct child of `out` (an id can never point elsewhere)."""
    folder = out / submission_id
    if folder.parent != out or submission_id in ("", ".", "..") or "/" in submission_id:
        raise ValueError(f"submission id {submission_id!r} is not a safe folder name inside {out}")
    return folder


def _up_to_date(folder: Path, path: Path, reference) -> bool:
    try:
        extra = json.loads((folder / "results.json").read_text())["extra_data"]
    except (OSError, ValueError, KeyError, TypeError):
        return False
    return extra.get("fingerprint") == fingerprint(path, reference)


def _write_reports(result: SubmissionResult, out: Path, report: Callable[[str], None]) -> None:
    folder = report_folder(out, result.id)
    write_atomic(folder / "log.txt", result.log)
    write_atomic(folder / "feedback.md", feedback_markdown(result))
    write_atomic(folder / "feedback.html", feedback_html(result))
    write_atomic(folder / "results.json", results_json(result))
    report(f"{result.seconds:6.1f} s  {result.id}: {result.score:g}/{result.max_score:g}  {result.status}")


def _row(folder: Path) -> dict | None:
    try:
        results = json.loads((folder / "results.json").read_text())
    except (OSError, ValueError):
        return None
    extra = results["extra_data"]
    return {"id": extra["id"], "tests": results["tests"], "score": results["score"],
            "max_score": results["max_score"], "status": extra["status"], "file": extra["submission"]}
