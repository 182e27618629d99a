"""The `companion-grade` command (also `python -m graders`): a thin layer over `grade_batch`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from graders import _cgroup as cgroup
from graders._assignments import load_assignment
from graders._batch import BatchOptions, grade_batch
from graders._errors import ReferenceOutputsError, SandboxError, SpecError, UnknownAssignmentError
from graders._limits import Limits
from graders._sandbox import describe, sandbox_mode

DEFAULTS = BatchOptions()


def main(argv: list[str] | None = None) -> int:
    """Grade submissions; `python -m graders build ...` goes to `companion-labs`."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] in (["build"], ["refresh"]):
        from graders._labs_cli import main as labs_main

        return labs_main(argv)
    if argv[:1] == ["bundle"]:
        return _bundle(argv[1:])
    options = parser().parse_args(argv)
    try:
        limits = Limits(options.timeout, options.exercise_timeout, options.memory, options.cpu_time)
        assignment = load_assignment(options.assignment)
        batch = BatchOptions(options.out, options.jobs, limits, options.force, options.cache, options.seed,
                             pool=not options.no_pool)
        print(f"[grade] sandbox: {describe(sandbox_mode())}", flush=True)
        with cgroup.children_at_once(options.jobs):  # each child's share of the machine's PIDs
            print(f"[grade] cgroups: {cgroup.describe()}", flush=True)
        rows = grade_batch(assignment, options.paths, batch, report=lambda line: print(line, flush=True))
    except (UnknownAssignmentError, SpecError, SandboxError, FileNotFoundError, ValueError) as error:
        print(f"companion-grade: error: {error}", file=sys.stderr)
        return 2
    except ReferenceOutputsError as error:
        print(f"companion-grade: error: {error}", file=sys.stderr)
        return 1
    print(f"[grade] {len(rows)} graded; summary in {options.out / 'summary.csv'}")
    return 0


def _bundle(argv: list[str]) -> int:
    """`companion-grade bundle ASSIGNMENT --out autograder.zip`: a Gradescope autograder."""
    cli = argparse.ArgumentParser(prog="companion-grade bundle",
                                  description="Write a Gradescope autograder zip for one assignment.")
    cli.add_argument("assignment", help="assignment name (e.g. c2w1)")
    cli.add_argument("--out", type=Path, default=Path("autograder.zip"), help="the zip to write")
    options = cli.parse_args(argv)
    from graders._bundle import build_bundle

    try:
        path = build_bundle(options.assignment, options.out)
    except (UnknownAssignmentError, SpecError, SandboxError, ReferenceOutputsError) as error:
        print(f"companion-grade bundle: error: {error}", file=sys.stderr)
        return 2
    print(f"[bundle] wrote {path}: upload it as the assignment's autograder (it holds the hidden cases "
          "and the solution: keep it among course staff)")
    return 0


def parser() -> argparse.ArgumentParser:
    """The command line, with the Python API's defaults."""
    limits = DEFAULTS.limits
    cli = argparse.ArgumentParser(prog="companion-grade", description="Grade notebooks in a sandbox.")
    cli.add_argument("assignment", help="assignment name (e.g. c2w1) or a spec file (*.py)")
    cli.add_argument("paths", nargs="+", type=Path, help="submitted notebooks or folders of them")
    cli.add_argument("--out", type=Path, default=DEFAULTS.out, help="report folder (default: grades/)")
    cli.add_argument("--jobs", type=_positive(int), default=DEFAULTS.jobs, help="submissions at a time")
    cli.add_argument("--timeout", type=_positive(float), default=limits.notebook_timeout,
                     help="seconds for running a notebook's cells")
    cli.add_argument("--exercise-timeout", type=_positive(float), default=limits.exercise_timeout,
                     help="seconds for one exercise's hidden cases")
    cli.add_argument("--memory", type=_positive(int), default=limits.memory_mb, help="memory limit in MB")
    cli.add_argument("--cpu-time", type=_positive(int), default=None,
                     help="CPU seconds per child (default: the wall budget x cores)")
    cli.add_argument("--force", action="store_true", help="re-grade submissions already graded")
    cli.add_argument("--cache", type=Path, default=None, help="reference cache (default: build/grader-cache)")
    cli.add_argument("--seed", type=int, default=None,
                     help="seed of the generated hidden cases (default: kept in OUT/.grading-seed, else new)")
    cli.add_argument("--no-pool", action="store_true",
                     help="start a fresh sandboxed Python per submission instead of forking each from a warm "
                          "zygote (also: COMPANION_GRADER_POOL=0)")
    return cli


def _positive(kind: type):
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            value = 0
        if value <= 0:
            raise argparse.ArgumentTypeError(f"expected a positive number, received {text!r}")
        return value
    return parse


if __name__ == "__main__":
    sys.exit(main())
