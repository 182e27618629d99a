"""Run notebooks' code cells as plain Python, one fresh process per notebook, without Jupyter.

Run: python3 benchmarks/notebook_cells.py NOTEBOOK.ipynb [...] [--jobs 4] [--timeout 240]

For machines that have no Jupyter kernel packages, e.g. the lent GPU machine (`benchmarks/on_gpu.sh`):
each notebook's code cells run in order in one namespace, in a fresh interpreter whose working
directory is a new temporary folder, with matplotlib's Agg backend. `%%writefile NAME` cells write
their body to NAME (the multi-worker lab's scripts); other magic lines are dropped. Prints one line
per notebook: status, wall seconds, and the first failing cell's error. The exit code is the number
of notebooks that failed. Jupyter's own run of these notebooks is `tests/test_notebooks*.py`'s job.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

RUNNER = r"""
import json, linecache, sys, time, traceback, builtins
import matplotlib
matplotlib.use("Agg")
cells = json.load(open(sys.argv[1]))
namespace = {"__name__": "__main__"}
builtins.display = getattr(builtins, "display", print)
start = time.perf_counter()
for index, source in cells:
    if source.startswith("%%writefile"):
        header, _, body = source.partition("\n")
        open(header.split()[-1], "w").write(body)
        continue
    code = "\n".join(line for line in source.splitlines() if not line.startswith(("%", "!")))
    name = f"<cell {index}>"
    linecache.cache[name] = (len(code), None, code.splitlines(True), name)  # source for AutoGraph
    began = time.perf_counter()
    print(f"RUNNING cell {index} at {began - start:.1f} s", file=sys.stderr, flush=True)
    try:
        exec(compile(code, name, "exec"), namespace)
    except BaseException as error:
        seconds = time.perf_counter() - start
        print(f"CELL {index} FAILED after {seconds:.1f} s: {type(error).__name__}: {error}")
        traceback.print_exc()
        sys.exit(1)
    if time.perf_counter() - began > 5:
        print(f"SLOW cell {index}: {time.perf_counter() - began:.1f} s", file=sys.stderr)
print(f"DONE {time.perf_counter() - start:.1f}")
"""


def code_cells(notebook: Path) -> list[tuple[int, str]]:
    """(index, source) of every code cell."""
    document = json.loads(notebook.read_text())
    return [(index, "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"])
            for index, cell in enumerate(document["cells"]) if cell["cell_type"] == "code"]


def run_one(notebook: Path, timeout: float) -> tuple[str, float, str]:
    """(status, seconds, detail) of one notebook run in a fresh process and folder."""
    with tempfile.TemporaryDirectory(prefix="notebook-cells-") as folder:
        cells = Path(folder) / "cells.json"
        cells.write_text(json.dumps(code_cells(notebook)))
        path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
        env = {**os.environ, "PYTHONPATH": path, "MPLBACKEND": "Agg"}
        start = time.perf_counter()
        try:
            done = subprocess.run([sys.executable, "-c", RUNNER, str(cells)], cwd=folder, env=env,
                                  capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired as stopped:
            text = stopped.stderr.decode() if isinstance(stopped.stderr, bytes) else stopped.stderr or ""
            lines = [line for line in text.splitlines() if line.startswith(("SLOW cell", "RUNNING cell"))]
            where = "\n".join([line for line in lines if line.startswith("SLOW")] + lines[-1:])
            return "TIMEOUT", time.perf_counter() - start, f"still running after {timeout:.0f} s\n{where}"
        seconds = time.perf_counter() - start
        slow = "\n".join(line for line in done.stderr.splitlines() if line.startswith("SLOW cell"))
        if done.returncode == 0:
            return "ok", seconds, slow
        failed = [line for line in done.stdout.splitlines() if line.startswith("CELL ")]
        return "FAILED", seconds, (failed[0] if failed else "") + "\n" + done.stderr[-1500:]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="+", type=Path)
    parser.add_argument("--jobs", type=int, default=1, help="notebooks run at once")
    parser.add_argument("--timeout", type=float, default=240.0, help="seconds per notebook")
    args = parser.parse_args(argv)
    missing = [str(path) for path in args.notebooks if not path.is_file()]
    if missing:
        parser.error(f"no such notebook: {', '.join(missing)}")
    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        results = list(pool.map(lambda path: run_one(path.resolve(), args.timeout), args.notebooks))
    for path, (status, seconds, detail) in zip(args.notebooks, results):
        print(f"{status:8} {seconds:7.1f} s  {path}")
        if detail:
            print("    " + detail.strip().replace("\n", "\n    "))
    return sum(status != "ok" for status, _, _ in results)


if __name__ == "__main__":
    sys.exit(main())
