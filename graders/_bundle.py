"""`companion-grade bundle`: a Gradescope autograder zip for one assignment, and the script it runs there.

The zip holds, at its top level (Gradescope unpacks it into /autograder/source):
- `setup.sh`: makes a Python 3.11+ venv in /autograder/venv and installs this source tree into it
  (editable, with the `grader` and `labs` extras and their pinned ranges);
- `run_autograder`: grades /autograder/submission with the hidden cases and writes
  /autograder/results/results.json in Gradescope's format (`python -m graders._bundle run`);
- the source tree (`pyproject.toml`, `companion/`, `graders/` with the hidden specs, the solution
  notebook) and `grading/`: the seed of the hidden cases and their reference outputs, computed here
  at bundle time so each Gradescope run grades only the submission.
The zip is for course staff: it contains the hidden cases and the solution. At grading time the
sandbox keeps both out of the submission's reach, as it does in a local batch.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import zipfile
from pathlib import Path

from graders._assignments import ROOT, load_assignment
from graders._atomic import write_atomic
from graders._batch import BatchOptions, grade_batch, grading_seed
from graders._hidden_paths import hidden_paths
from graders._limits import Limits
from graders._reference import load_or_compute, reference_seed

SETUP = """#!/usr/bin/env bash
# Gradescope set-up: a venv with companion and its grader, from this source tree.
set -euo pipefail
SOURCE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PYTHON="$(command -v python3.13 || command -v python3.12 || command -v python3.11 || true)"
if [ -z "$PYTHON" ]; then
    apt-get update && apt-get install -y python3.11 python3.11-venv && PYTHON=python3.11
fi
"$PYTHON" -m venv /autograder/venv
/autograder/venv/bin/pip install --upgrade pip
/autograder/venv/bin/pip install -e "$SOURCE[grader,labs]"
"""

RUN = """#!/usr/bin/env bash
# Gradescope entry point: grade /autograder/submission, write /autograder/results/results.json.
ROOT="${AUTOGRADER_ROOT:-/autograder}"
PYTHON="${COMPANION_PYTHON:-$ROOT/venv/bin/python}"
cd "$ROOT/source" && exec "$PYTHON" -m graders._bundle run --root "$ROOT"
"""

SOURCE_ITEMS = ("pyproject.toml", "README.md", "companion", "graders")
SKIP = ("__pycache__", ".ipynb_checkpoints")


def build_bundle(name: str, out: Path, limits: Limits | None = None) -> Path:
    """Write the autograder zip of assignment `name` to `out`; return its path."""
    assignment = load_assignment(name)
    with tempfile.TemporaryDirectory(prefix="companion-bundle-") as scratch:
        grading = Path(scratch) / "grading"
        seed = grading_seed(grading)
        cache = grading / "cache"
        exercises = assignment.for_seed(seed)
        limits = Limits(host_devices=assignment.host_devices) if limits is None else limits
        load_or_compute(exercises, limits, cache, hidden_paths(assignment, cache, None, []),
                        reference_seed(assignment, seed))
        manifest = {"assignment": name, "notebook": assignment.solution.name}
        out.parent.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as bundle:
            _add_text(bundle, "setup.sh", SETUP)
            _add_text(bundle, "run_autograder", RUN)
            _add_text(bundle, "grading/manifest.json", json.dumps(manifest))
            for item in SOURCE_ITEMS:
                _add_tree(bundle, ROOT / item, item)
            _add_tree(bundle, assignment.solution, str(assignment.solution.relative_to(ROOT)))
            _add_tree(bundle, grading, "grading")
    return out


def _add_text(bundle: zipfile.ZipFile, name: str, text: str) -> None:
    info = zipfile.ZipInfo(name)
    info.external_attr = (0o755 if not name.endswith(".json") else 0o644) << 16
    bundle.writestr(info, text)


def _add_tree(bundle: zipfile.ZipFile, path: Path, name: str) -> None:
    paths = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
    for file in paths:
        if not any(part in SKIP for part in file.parts) and file.suffix != ".pyc":
            relative = name if file == path else f"{name}/{file.relative_to(path)}"
            bundle.write(file, relative)


def run_in_gradescope(root: Path) -> int:
    """Grade the submission under `root`/submission; always leave a valid `root`/results/results.json."""
    results = root / "results" / "results.json"
    source = root / "source"
    try:
        manifest = json.loads((source / "grading" / "manifest.json").read_text())
        notebook = _submitted_notebook(root / "submission", manifest["notebook"])
        grading = Path(tempfile.mkdtemp(prefix="companion-grading-"))
        seed = int((source / "grading" / ".grading-seed").read_text())
        cache = grading / "cache"
        shutil.copytree(source / "grading" / "cache", cache)
        out = grading / "out"
        options = BatchOptions(out=out, jobs=1, cache_dir=cache, seed=seed)
        rows = grade_batch(load_assignment(manifest["assignment"]), [notebook], options)
        write_atomic(results, (out / rows[0]["id"] / "results.json").read_text())
        return 0
    except Exception as error:  # noqa: BLE001 - Gradescope must always get a results file
        message = (f"The autograder could not grade this submission: {error}. Submit the assignment's "
                   "notebook (.ipynb) and try again, or ask the course staff.")
        write_atomic(results, json.dumps({"score": 0, "output": message, "visibility": "visible"}) + "\n")
        return 1


def _submitted_notebook(folder: Path, expected_name: str) -> Path:
    notebooks = sorted(path for path in folder.rglob("*.ipynb") if ".ipynb_checkpoints" not in path.parts)
    named = [path for path in notebooks if path.name == expected_name]
    if named or len(notebooks) == 1:
        return (named or notebooks)[0]
    found = ", ".join(path.name for path in notebooks) or "none"
    raise FileNotFoundError(f"expected one notebook named {expected_name}; found {found}")


def main(argv: list[str] | None = None) -> int:
    """`python -m graders._bundle run --root /autograder` (what run_autograder calls)."""
    cli = argparse.ArgumentParser(prog="python -m graders._bundle")
    cli.add_argument("command", choices=["run"])
    cli.add_argument("--root", type=Path, default=Path("/autograder"))
    options = cli.parse_args(sys.argv[1:] if argv is None else argv)
    return run_in_gradescope(options.root)


if __name__ == "__main__":
    sys.exit(main())
