"""Autograder timing: one Week-1 submission, a batch of 20 with --jobs 2, and where the time goes.

Run: .venv/bin/python benchmarks/grading.py [--assignment c2w1] [--batch 20] [--repeats 3]

Measures, with the solution notebook as the submission (the slowest honest one: every cell runs):
- `companion-grade` on one submission, as a fresh CLI process with a warm reference cache
  (start-up of the CLI, the sandbox and the child included; target <= 15 s);
- the same CLI on a batch of `--batch` copies with `--jobs 2` (target <= 180 s);
- computing the reference outputs (the cold-cache cost, paid once per solution/spec change);
- where one submission's time goes: the child's start-up (sandbox set-up, Python, IPython), its
  notebook cells, its graded exercises (from the parent's clock, saved in results.json), and the
  rest (CLI start-up, structure checks, reports).
Each figure is the median over `--repeats` runs.
"""

import argparse
import json
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


def cli(assignment: str, paths: list[Path], out: Path, cache: Path, *extra: str) -> float:
    """Seconds for one `python -m graders` run (fails loudly if the CLI fails)."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "graders", assignment, *map(str, paths), "--out", str(out),
                    "--cache", str(cache), "--force", *extra], cwd=ROOT, check=True, capture_output=True)
    return time.perf_counter() - start


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
    return parser.parse_args()


if __name__ == "__main__":
    main()
