"""Re-executing solution notebooks in place, so their stored outputs match the library again."""

from __future__ import annotations

import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from graders._clean import clean_notebook


def refresh(notebook: Path, timeout: int = 600) -> float:
    """Runs ``notebook`` top to bottom in a fresh ``python3`` kernel and stores its outputs.

    The settings keep the file stable between runs: no per-cell timings, streams coalesced,
    the working directory is the notebook's folder, and widget state (random model ids) is
    not stored: the notebook is written in the form that opens clean in JupyterLab
    (`graders._clean`). Returns the execution time in seconds.
    """
    nb = nbformat.read(notebook, as_version=4)
    start = time.perf_counter()
    client = NotebookClient(nb, kernel_name="python3", timeout=timeout, record_timing=False,
                            coalesce_streams=True, extra_arguments=["--log-level=ERROR"],
                            resources={"metadata": {"path": str(notebook.parent.resolve())}})
    client.execute()
    nbformat.write(nbformat.from_dict(clean_notebook(nb)), notebook)
    return time.perf_counter() - start
