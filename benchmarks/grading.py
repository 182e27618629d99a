"""Autograder timing: one Week-1 submission, a batch of 20 with --jobs 2, where the time goes, and throughput.

Run: .venv/bin/python benchmarks/grading.py [--assignment c2w1] [--batch 20] [--repeats 3]
     .venv/bin/python benchmarks/grading.py --throughput 50   (only the class-scale table)

Measures, with the solution notebook as the submission (the slowest honest one: every cell runs):
- `companion-grade` on one submission, as a fresh CLI process with a warm reference cache
  (start-up of the CLI, the sandbox and the child included; target <= 15 s);
- the same CLI on a batch of `--batch` copies with `--jobs 2` (target <= 180 s);
- computing the reference outputs (the cold-cache cost, paid once per solution/spec change);
- where one submission's time goes: the child's start-up (sandbox set-up, Python, IPython), its
  notebook cells, its graded exercises (from the parent's clock, saved in results.json), and the
  rest (CLI start-up, structure checks, reports).
Each figure is the median over `--repeats` runs.

With `--throughput N`: N copies of the solution graded by one CLI run at `--jobs` 1, 2 and the core
count, with the warm pool (forked children, `graders/_pool.py`) and without it
($COMPANION_GRADER_POOL=0: a fresh sandboxed Python per submission), interleaved. Each row gives the
batch's wall time (zygote start and reference loading included), seconds per submission,
submissions per minute, and the median of one child's own time (start-up + cells + hidden cases,
from results.json). On a machine shared with other work the wall figures vary with its load.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from graders._assignments import load_assignment  # noqa: E402
from graders._sandbox import describe, sandbox_mode  # noqa: E402


def cli(assignment: str, paths: list[Path], out: Path, cache: Path, *extra: str, env=None) -> float:
    """Seconds for one `python -m graders` run (fails loudly if the CLI fails)."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "graders", assignment, *map(str, paths), "--out", str(out),
                    "--cache", str(cache), "--force", *extra], cwd=ROOT, check=True, capture_output=True,
                   env=env)
    return time.perf_counter() - start


def throughput(options) -> None:
    """The class-scale table: N copies at --jobs 1, 2 and the core count, with and without the pool."""
    assignment = load_assignment(options.assignment)
    cores = os.cpu_count() or 1
    with tempfile.TemporaryDirectory(prefix="grading-bench-") as scratch:
        scratch = Path(scratch)
        folder = scratch / "submissions"
        folder.mkdir()
        for number in range(options.throughput):
            shutil.copy(assignment.solution, folder / f"learner{number:02d}.ipynb")
        cache = scratch / "cache"
        cli(options.assignment, [folder / "learner00.ipynb"], scratch / "warm", cache)  # the reference
        rows = []
        for jobs in sorted({1, 2, cores}):
            for pool in ("1", "0"):
                env = {**os.environ, "COMPANION_GRADER_POOL": pool}
                out = scratch / f"out-{jobs}-{pool}"
                wall = cli(options.assignment, [folder], out, cache, "--jobs", str(jobs), env=env)
                child = statistics.median(sum(json.loads(path.read_text())["extra_data"]["seconds"].values())
                                          for path in out.glob("*/results.json"))
                rows.append((jobs, pool == "1", wall, child))
    n = options.throughput
    print(f"sandbox: {describe(sandbox_mode())}; {n} copies of the {options.assignment} solution; "
          f"{cores} cores")
    print("| --jobs | children | wall s | s per submission | submissions per minute | one child, median s |")
    print("|---|---|---|---|---|---|")
    for jobs, pool, wall, child in rows:
        kind = "forked from a warm zygote" if pool else "fresh Python each"
        print(f"| {jobs} | {kind} | {wall:.1f} | {wall / n:.2f} | {60 * n / wall:.1f} | {child:.2f} |")


def median_run(assignment: str, path: Path, out: Path, cache: Path, repeats: int) -> tuple[float, dict]:
    """The median of `repeats` one-submission runs, with that run's phases from its results.json."""
    runs = []
    for _ in range(repeats):
        seconds = cli(assignment, [path], out, cache)
        results = json.loads((out / path.stem / "results.json").read_text())
        runs.append((seconds, results["extra_data"]["seconds"]))
    return sorted(runs, key=lambda run: run[0])[len(runs) // 2]


def median(measure, repeats: int) -> float:
    return statistics.median(measure() for _ in range(repeats))


def main() -> None:
    options = parse()
    if options.throughput:
        return throughput(options)
    assignment = load_assignment(options.assignment)
    with tempfile.TemporaryDirectory(prefix="grading-bench-") as scratch:
        scratch = Path(scratch)
        names = [scratch / f"learner{number:02d}.ipynb" for number in range(options.batch)]
        batch = [Path(shutil.copy(assignment.solution, name)) for name in names]
        cache, out = scratch / "cache", scratch / "out"
        reference = median(lambda: _cold(options.assignment, batch[:1], out, cache), 1)
        one, phases = median_run(options.assignment, batch[0], out, cache, options.repeats)
        many = cli(options.assignment, batch, out, cache, "--jobs", "2")
    report(options, reference, one, many, phases)


def _cold(assignment: str, paths: list[Path], out: Path, cache: Path) -> float:
    shutil.rmtree(cache, ignore_errors=True)
    return cli(assignment, paths, out, cache)


def report(options, reference: float, one: float, many: float, phases: dict) -> None:
    print(f"sandbox: {describe(sandbox_mode())}")
    print(f"grade 1 submission (CLI, warm cache)         {one:7.2f} s   target <= 15 s")
    print(f"grade {options.batch} submissions, --jobs 2             {many:7.2f} s   target <= 180 s "
          f"({many / options.batch:.2f} s per submission)")
    print(f"first run (reference outputs + 1 submission) {reference:7.2f} s")
    print("where one submission's time goes:")
    print(f"  sandbox + Python + IPython start-up        {phases['start']:7.2f} s")
    print(f"  notebook cells (import companion, ...)     {phases['cells']:7.2f} s")
    print(f"  graded exercises on hidden cases           {phases['exercises']:7.2f} s")
    print(f"  CLI start-up, checks, child exit, reports  {one - sum(phases.values()):7.2f} s")


def parse():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--assignment", default="c2w1")
    parser.add_argument("--batch", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--throughput", type=int, default=0, metavar="N",
                        help="only the throughput table, for N copies of the solution")
    return parser.parse_args()


if __name__ == "__main__":
    main()
