"""The sandbox's layers, checked from inside a child: hidden paths, read-only files, no network, limits."""

import json
from pathlib import Path

import pytest

from graders._assignments import HIDDEN, ROOT
from graders._limits import Limits
from graders._runner import run_notebook
from graders._sandbox import Layout, child_command, sandbox_mode

NAMESPACES = pytest.mark.skipif(sandbox_mode() == "none", reason="unshare is not available here")
PROBE = '''
import json, os, socket, pathlib
facts = {"uid": os.getuid(), "cwd": os.getcwd(), "devices": sorted(os.listdir("/dev"))}
for name, path in {"hidden": HIDDEN_DIR, "secret": SECRET}.items():
    try:
        facts[name] = os.listdir(path) if os.path.isdir(path) else open(path).read()
    except OSError as error:
        facts[name] = type(error).__name__
for name, path in {"repo": REPO_FILE, "work": "written.txt", "tmp": "/tmp/companion-sandbox-probe"}.items():
    try:
        pathlib.Path(path).write_text("x")
        facts[name] = "written"
    except OSError as error:
        facts[name] = type(error).__name__
try:
    socket.create_connection(("1.1.1.1", 53), timeout=2)
    facts["network"] = "open"
except OSError as error:
    facts["network"] = type(error).__name__
facts["processes"] = len([p for p in os.listdir("/proc") if p.isdigit()])
print("FACTS" + json.dumps(facts))
'''


def facts(tmp_path: Path, pool=None) -> dict:
    """What a probe cell sees inside the sandbox (it writes into the repo only when namespaces protect it)."""
    secret = tmp_path / "secret.txt"
    secret.write_text("the answer")
    repo_file = ROOT / "graders" / "sandbox-probe.py" if sandbox_mode() != "none" else tmp_path / "probe.py"
    cells = [{"index": 0, "source": f"HIDDEN_DIR, SECRET, REPO_FILE = {str(HIDDEN)!r}, {str(secret)!r}, "
                                     f"{str(repo_file)!r}\n" + PROBE}]
    try:
        run = run_notebook(cells, [], Limits(notebook_timeout=30), (HIDDEN, tmp_path), pool)
    finally:
        if repo_file.parent == ROOT / "graders":
            repo_file.unlink(missing_ok=True)
    line = next(line for line in run.log.splitlines() if line.startswith("FACTS"))
    return json.loads(line[5:])


@NAMESPACES
def test_the_child_cannot_read_hidden_paths_write_files_or_reach_the_network(tmp_path):
    seen = facts(tmp_path)
    assert seen["hidden"] == "PermissionError"  # graders/_hidden lies inside an allowed folder: covered
    assert seen["secret"] == "FileNotFoundError"  # anything else of the host is simply not there
    assert seen["work"] == "written"
    assert not Path("/tmp/companion-sandbox-probe").exists()  # the child's /tmp is a private tmpfs
    assert seen["network"] != "open"
    assert seen["devices"] == sorted(["fd", "full", "null", "random", "shm", "stderr", "stdin", "stdout",
                                      "tty", "urandom", "zero"])
    assert seen["processes"] <= 3


@NAMESPACES
def test_the_repository_is_read_only_and_the_child_runs_unprivileged(tmp_path):
    seen = facts(tmp_path)
    assert seen["repo"] in ("PermissionError", "OSError")
    assert not (ROOT / "graders" / "sandbox-probe.py").exists()
    if sandbox_mode() == "root":
        assert seen["uid"] == 65534


def test_the_work_dir_is_private_and_gone_afterwards(tmp_path):
    seen = facts(tmp_path)
    assert seen["work"] == "written"
    assert not Path(seen["cwd"]).exists() or not any(Path(seen["cwd"]).iterdir())


def test_a_cpu_spinning_child_is_stopped_by_the_cpu_limit():
    cells = [{"index": 0, "source": "def f():\n    return 1\n"},
             {"index": 1, "source": "while True:\n    pass\n"}]
    run = run_notebook(cells, [{"id": "f", "cases": [[]]}], Limits(notebook_timeout=60, cpu_seconds=3), ())
    assert "CPU-time limit" in run.stopped and run.seconds < 30
    assert run.exercises["f"].status == "failed"


def test_the_sandbox_command_hides_paths_and_drops_privileges(tmp_path):
    layout = Layout(tmp_path / "work", tmp_path / "stage", (tmp_path / "hidden",), (ROOT,))
    (tmp_path / "hidden").mkdir()
    script = child_command("root", layout, ["python", "child.py"])[-1]
    covered = f"{tmp_path / 'stage' / 'root'}{tmp_path / 'hidden'}"
    assert f"mount -t tmpfs -o size=4k,mode=000 tmpfs {covered}" in script
    assert "remount,bind,ro" in script and "--reuid=65534" in script and "--bounding-set=-all" in script
    assert child_command("none", layout, ["python", "child.py"]) == ["python", "child.py"]
