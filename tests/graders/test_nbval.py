"""Every solution notebook reproduces its stored outputs under nbval (volatile text sanitized)."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SANITIZE = ROOT / ".ci" / "nbval-sanitize.cfg"
NOTEBOOKS = sorted((ROOT / "solutions").rglob("*.ipynb"))
pytestmark = [pytest.mark.slow, pytest.mark.notebook]


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda path: str(path.relative_to(ROOT / "solutions")))
def test_the_solution_notebook_reproduces_its_outputs(notebook):
    pytest.importorskip("nbval")
    command = [sys.executable, "-m", "pytest", "--nbval", "--nbval-sanitize-with", str(SANITIZE),
               "-p", "no:xdist", "-p", "no:cacheprovider", "-q", "--nbval-cell-timeout", "300", str(notebook)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    if done.returncode and _stalled_on_forced_devices(notebook, done.stdout):
        # the known XLA CPU collective stall on a loaded 2-core machine (README, "Known issue"):
        # a cell that timed out, never a differing output, is run once more
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-6000:]


def _stalled_on_forced_devices(notebook, output):
    return "Timeout of" in output and "xla_force_host_platform_device_count" in notebook.read_text()
