"""The course's Week 1-4 solution notebooks, each from a fresh kernel: companion vs TensorFlow 2.21.

Run: .venv/bin/python benchmarks/notebooks_vs_tf.py [--repeats 3] [--only W1] [--tf-python PATH] [--json OUT]

Each notebook of solutions/week1..week4 runs top to bottom in a fresh Jupyter kernel, once as it is
(`import companion as tf`) and once in a kernel of the throwaway TensorFlow environment (default
/work/tfenv, with ipykernel, matplotlib and scikit-learn) with the source rewritten:
- `import companion as tf` becomes `import tensorflow as tf`, plus `tf.datasets` from
  `_tf_course_shim` (companion's offline data sets as `tf.data`, exported once by companion in an
  untimed warm-up run: TF reads .npz files, so its data loading costs it less than companion's);
- the grader's lines (`from graders... import check`, `check(...)`) are removed (companion-only);
  a cell left empty is skipped. Cells that still raise under TF are listed: such a notebook is one
  "TF cannot run" (its time is given, but not compared).
The two flavours run interleaved, alternating which goes first; each figure is the median over
`--repeats` runs of: kernel start + every cell, until the last cell's output (kernel shut-down not
counted). Per-cell medians go to `--json`; the table lists, where companion is slower, the cells
that cost it the most against TF.
"""

import argparse
import json
import os
import re
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted(path for week in ("week1", "week2", "week3", "week4")
                   for path in (ROOT / "solutions" / week).glob("C2*.ipynb"))
GRADER_LINE = re.compile(r"^\s*(from graders[\w.]* import .*|check\(.*\))\s*$")


def tf_source(source: str) -> str:
    """A companion cell's source as the TensorFlow kernel runs it ('' when nothing is left)."""
    lines = [line for line in source.splitlines() if not GRADER_LINE.match(line)]
    text = "\n".join(lines)
    text = re.sub(r"^import companion as tf$", "import tensorflow as tf\nimport _tf_course_shim\n"
                  "_tf_course_shim.install(tf)", text, flags=re.M)
    return text if text.strip() else ""


def run_notebook(path: Path, flavour: str) -> dict:
    """Execute `path` in a fresh kernel of `flavour` ('companion' or 'tf'); seconds and per-cell data."""
    import nbformat
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)
    skipped = []
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type == "code" and flavour == "tf":
            cell.source = tf_source(cell.source)
            if not cell.source:
                skipped.append(index)
    with tempfile.TemporaryDirectory(prefix="nb-vs-tf-") as work:
        client = NotebookClient(notebook, timeout=900, allow_errors=True,
                                kernel_name="python3" if flavour == "companion" else "tf-bench",
                                resources={"metadata": {"path": work}})
        start = time.perf_counter()
        cells, errors = {}, {}
        with client.setup_kernel():
            kernel = time.perf_counter() - start
            for index, cell in enumerate(notebook.cells):
                if cell.cell_type != "code" or index in skipped:
                    continue
                began = time.perf_counter()
                client.execute_cell(cell, index)
                cells[index] = time.perf_counter() - began
                error = next((o for o in cell.get("outputs", []) if o.get("output_type") == "error"), None)
                if error:
                    errors[index] = f"{error['ename']}: {error['evalue']}"[:200]
            total = time.perf_counter() - start
    return {"total": total, "kernel": kernel, "cells": cells, "errors": errors, "skipped": skipped,
            "sources": {index: notebook.cells[index].source for index in cells}}


def setup_tf_kernel(tf_python: str, scratch: Path) -> None:
    """A kernelspec 'tf-bench' for the TensorFlow environment, found through $JUPYTER_PATH."""
    spec = scratch / "kernels" / "tf-bench"
    spec.mkdir(parents=True)
    env = {"PYTHONPATH": str(ROOT / "benchmarks"), "COMPANION_BENCH_DATA": str(scratch / "data"),
           "COMPANION_BENCH_EXPORT": f"{sys.executable} {Path(__file__).resolve()} --export",
           "TF_CPP_MIN_LOG_LEVEL": "2"}
    (scratch / "data").mkdir()
    spec.joinpath("kernel.json").write_text(json.dumps({
        "argv": [tf_python, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "TensorFlow (benchmark)", "language": "python", "env": env}))
    os.environ["JUPYTER_PATH"] = os.pathsep.join([str(scratch), os.environ.get("JUPYTER_PATH", "")])


def export(key: str, stem: str) -> None:
    """(companion env) Write companion's arrays and info for one `tf.datasets.load` call of the shim."""
    import numpy as np

    import companion as tf

    name, spec, builder_kwargs = json.loads(key)
    stem = Path(stem)
    try:
        data, info = tf.datasets.load(name, split=spec, batch_size=-1, with_info=True,
                                      builder_kwargs=builder_kwargs)
    except tf.datasets.DatasetFilesNotFoundError as error:
        stem.with_suffix(".json").write_text(json.dumps({"error": "DatasetFilesNotFoundError",
                                                         "message": str(error)}))
        return
    arrays = {key: np.asarray(value) for key, value in tf.datasets.as_numpy(data).items()}
    np.savez(stem.with_suffix(".npz"), **arrays)
    label = info.features["label"]
    stem.with_suffix(".json").write_text(json.dumps({
        "name": name, "spec": spec, "num_examples": len(next(iter(arrays.values()))),
        "names": list(label.names), "splits": {n: s.num_examples for n, s in info.splits.items()},
        "supervised_keys": list(info.supervised_keys or ())}))


def main() -> None:
    options = parse()
    if options.export:
        return export(*options.export)
    notebooks = [path for path in NOTEBOOKS if not options.only or any(o in path.name for o in options.only)]
    runs = {path: {"companion": [], "tf": []} for path in notebooks}
    signal.signal(signal.SIGTERM, _interrupt)  # `timeout` stops it: still print what was measured
    try:
        with tempfile.TemporaryDirectory(prefix="nb-vs-tf-kernels-") as scratch:
            setup_tf_kernel(options.tf_python, Path(scratch))
            for path in notebooks:
                if "tf.datasets" in path.read_text():
                    run_notebook(path, "tf")  # warm-up: companion exports the data the shim reads
            for repeat in range(options.repeats):
                for path in notebooks:
                    order = ("companion", "tf") if repeat % 2 == 0 else ("tf", "companion")
                    for flavour in order:
                        runs[path][flavour].append(run_notebook(path, flavour))
                        print(f"  {path.name:50s} {flavour:9s} {runs[path][flavour][-1]['total']:7.1f} s",
                              file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        print("interrupted: medians of the runs done so far", file=sys.stderr)
    runs = {path: flavours for path, flavours in runs.items() if all(flavours.values())}
    rows = summarize(runs)
    print(table(rows, options.repeats))
    if options.json:
        Path(options.json).write_text(json.dumps(rows, indent=1))


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def summarize(runs: dict) -> list[dict]:
    rows = []
    for path, flavours in runs.items():
        first_tf, first_companion = flavours["tf"][0], flavours["companion"][0]
        row = {"notebook": str(path.relative_to(ROOT)), "skipped_for_tf": first_tf["skipped"],
               "tf_errors": first_tf["errors"], "companion_errors": first_companion["errors"]}
        for flavour, results in flavours.items():
            row[flavour] = statistics.median(r["total"] for r in results)
            row[f"{flavour}_kernel"] = statistics.median(r["kernel"] for r in results)
            row[f"{flavour}_cells"] = {index: statistics.median(r["cells"][index] for r in results)
                                       for index in results[0]["cells"]}
        companion_cells, tf_cells = row["companion_cells"], row["tf_cells"]
        extra = {index: companion_cells[index] - tf_cells.get(index, 0.0) for index in companion_cells}
        sources = {index: (text.strip().splitlines() or [""])[0][:70]
                   for index, text in first_companion["sources"].items()}
        worst = [index for index in sorted(extra, key=extra.get, reverse=True)[:3] if extra[index] > 0.05]
        row["costliest"] = [{"cell": index, "companion": round(companion_cells[index], 2),
                             "tf": round(tf_cells.get(index, 0.0), 2), "source": sources[index]}
                            for index in worst]
        rows.append(row)
    return rows


def table(rows: list[dict], repeats: int) -> str:
    lines = [f"Fresh kernel + every cell, median of up to {repeats} (seconds); ratio = companion / TF",
             "| notebook | companion | TensorFlow 2.21 | ratio | TF run: skipped cells / errors |",
             "|---|---|---|---|---|"]
    for row in rows:
        runnable = not row["tf_errors"]
        ratio = f"{row['companion'] / row['tf']:.2f}" if runnable else "—"
        notes = []
        if row["skipped_for_tf"]:
            notes.append(f"{len(row['skipped_for_tf'])} grader-only cell(s) skipped")
        if row["tf_errors"]:
            index, error = next(iter(row["tf_errors"].items()))
            notes.append(f"TF cannot run it: cell {index}: {error[:90]}")
        tf_time = f"{row['tf']:.1f}" + ("" if runnable else "*")
        lines.append(f"| {Path(row['notebook']).name} | {row['companion']:.1f} | {tf_time} | {ratio} | "
                     f"{'; '.join(notes) or '—'} |")
    slower = [row for row in rows if not row["tf_errors"] and row["companion"] > row["tf"]]
    if slower:
        lines.append("\nWhere companion is slower, the cells that cost it most (companion s / TF s):")
        for row in slower:
            cells = "; ".join(f"cell {c['cell']} {c['companion']}/{c['tf']} `{c['source']}`"
                              for c in row["costliest"])
            lines.append(f"- {Path(row['notebook']).name} (kernel start {row['companion_kernel']:.1f}/"
                         f"{row['tf_kernel']:.1f}): {cells}")
    return "\n".join(lines)


def parse():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only", nargs="*", default=None,
                        help="only notebooks whose file name contains one of these")
    parser.add_argument("--tf-python", default="/work/tfenv/bin/python")
    parser.add_argument("--json", default=None, help="write per-cell medians here")
    parser.add_argument("--export", nargs=2, metavar=("KEY", "STEM"), help=argparse.SUPPRESS)
    return parser.parse_args()


if __name__ == "__main__":
    main()
