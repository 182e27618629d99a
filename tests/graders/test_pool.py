"""The warm pool: children forked from one zygote per batch still never see each other.

Submission `a_leaves` writes files (work folder, /tmp, /dev/shm), sets module globals on preloaded
modules (numpy, companion) and leaves a daemon process; `b_looks`, graded in the same batch after it
(--jobs 1) or beside it (--jobs 2), looks for all of them. Each submission's `add_one` is correct
only when what it checks holds, so full marks mean: A saw its own traces, B saw none of A's, and B
was forked from the warm zygote (companion was already imported before its first cell).
"""

import json
import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from graders._assignments import HIDDEN, ROOT
from graders._limits import Limits
from graders._pool import ForkServer, pool_enabled
from graders._runner import run_notebook
from tests.graders.test_sandbox import facts

POOLED = pytest.mark.skipif(not pool_enabled(), reason="the warm pool needs the namespace sandbox")

LEAVES = """
import os, subprocess, sys, time
import companion
open("leak-work.txt", "w").write("a")
open("/tmp/leak-tmp.txt", "w").write("a")
open("/dev/shm/leak-shm", "w").write("a")
np.LEAKED = companion.LEAKED = sys.LEAKED = "a"
if os.fork() == 0:  # a double-forked daemon, in its own session
    os.setsid()
    if os.fork() == 0:
        os.execv("/bin/sleep", ["sleep", "120"])
    os._exit(0)
daemon = subprocess.Popen(["sleep", "121"], start_new_session=True)
time.sleep(0.5)
SEEN = [os.path.exists("leak-work.txt"), os.path.exists("/tmp/leak-tmp.txt"),
        os.path.exists("/dev/shm/leak-shm"), getattr(np, "LEAKED", None) == "a", "sleep" in "".join(
            open(f"/proc/{p}/cmdline").read() for p in os.listdir("/proc") if p.isdigit())]
OK = all(SEEN)
time.sleep(4)  # still alive while `b_looks` runs beside it (--jobs 2)
"""

LOOKS = """
import os, sys, time
WARM = "matplotlib.pyplot" in sys.modules  # imported by the zygote, not by a fresh child before this cell
time.sleep(1.5)
import companion
def _cmdlines():
    found = []
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:
                found.append(open(f"/proc/{p}/cmdline").read())
            except OSError:
                pass
    return found
SEEN = [os.path.exists("leak-work.txt"), os.path.exists("/tmp/leak-tmp.txt"),
        os.path.exists("/dev/shm/leak-shm"), hasattr(np, "LEAKED"), hasattr(companion, "LEAKED"),
        hasattr(sys, "LEAKED"),
        any("sleep" in line for line in _cmdlines()), len(_cmdlines()) > 3]
OK = WARM and not any(SEEN)
"""

CHECKED = "result = np.asarray(array) + (1 if OK else 100)"


@POOLED
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_two_submissions_in_one_pooled_batch_cannot_see_each_other(toy, tmp_path, jobs):
    grader = toy.Grader(tmp_path)
    subs = tmp_path / "subs"
    toy.submission(subs / "a_leaves.ipynb", {"add_one": CHECKED}, prelude=LEAVES)
    toy.submission(subs / "b_looks.ipynb", {"add_one": CHECKED}, prelude=LOOKS)
    done = grader.run(subs, args=("--jobs", jobs))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "warm pool unavailable" not in done.stdout
    assert grader.scores("a_leaves") == toy.full, grader.results("a_leaves")
    assert grader.scores("b_looks") == toy.full, grader.results("b_looks")


@POOLED
def test_a_pooled_child_is_unprivileged_in_namespaces_of_its_own(tmp_path):
    probe = ("import json, os\nstatus = dict(line.split(':', 1) for line in open('/proc/self/status'))\n"
             "print('FACTS' + json.dumps([os.getuid(), os.getpid(), status['CapEff'].strip(), "
             "status['CapBnd'].strip(), status['NoNewPrivs'].strip(), os.listdir('.'), "
             "os.listdir('/tmp')]))\n"
             "open('mine.txt', 'w').write('x')\nopen('/tmp/mine.txt', 'w').write('x')\n")
    limits = Limits(notebook_timeout=30)
    with ForkServer(limits, ()) as pool:
        runs = [run_notebook([{"index": 0, "source": probe}], [], limits, (), pool) for _ in range(2)]
    # closing ends the zygote itself: it sees the end of its socket (it is not killed after a wait)
    assert pool.process.returncode == 0
    for run in runs:
        facts = next(line for line in run.log.splitlines() if line.startswith("FACTS"))
        uid, pid, effective, bounding, no_new_privs, listing, tmp = json.loads(facts[5:])
        assert pid == 2 and effective == bounding == "0" * 16 and no_new_privs == "1"
        assert "mine.txt" not in listing and "mine.txt" not in tmp  # the first run's files are gone
        if os.geteuid() == 0:
            assert uid == 65534


@POOLED
def test_a_pooled_child_sees_what_a_fresh_sandboxed_child_sees(tmp_path):
    with ForkServer(Limits(notebook_timeout=30), (HIDDEN, tmp_path)) as pool:
        seen = facts(tmp_path, pool)
    assert seen["hidden"] == "PermissionError" and seen["secret"] == "FileNotFoundError"
    assert seen["work"] == "written" and seen["repo"] in ("PermissionError", "OSError")
    assert not (ROOT / "graders" / "sandbox-probe.py").exists()
    assert not Path("/tmp/companion-sandbox-probe").exists()
    assert seen["network"] != "open" and seen["processes"] <= 3
    assert seen["devices"] == sorted(["fd", "full", "null", "random", "shm", "stderr", "stdin", "stdout",
                                      "tty", "urandom", "zero"])


@POOLED
def test_a_dead_zygote_means_a_fresh_child_not_a_failed_submission():
    limits = Limits(notebook_timeout=30)
    cells = [{"index": 0, "source": "import sys\nprint('WARM', 'matplotlib.pyplot' in sys.modules)\n"}]
    with ForkServer(limits, ()) as pool:
        pool.process.kill()
        pool.process.wait()
        run = run_notebook(cells, [], limits, (), pool)
    assert not run.stopped and "WARM False" in run.log


def test_the_pool_can_be_turned_off(toy, tmp_path):
    grader = toy.Grader(tmp_path)
    cold = "import sys\nOK = 'matplotlib.pyplot' not in sys.modules\n"
    toy.submission(tmp_path / "subs" / "cold.ipynb", prelude=cold, bodies={"add_one": CHECKED})
    env = {**os.environ, "COMPANION_GRADER_POOL": "0"}
    done = subprocess.run([sys.executable, "-m", "graders", str(grader.spec), str(tmp_path / "subs"), "--out",
                           str(grader.out), "--cache", str(grader.cache)], capture_output=True, text=True,
                          env=env, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert grader.scores("cold") == toy.full


UNDER_TMP = """
import sys
from graders._limits import Limits
from graders._pool import ForkServer
from graders._runner import run_notebook
cells = [{"index": 0, "source": "from companion import _probe_under_tmp as p\\nprint('FROM', p.__file__)"}]
limits = Limits(notebook_timeout=60)
with ForkServer(limits, ()) as pool:
    runs = [run_notebook(cells, [], limits, (), pool) for _ in range(2)]  # two children of one zygote
runs.append(run_notebook(cells, [], limits, (), None))  # and a fresh sandboxed child
for run in runs:
    print("RUN", run.stopped or "ok", run.log.replace("\\n", " | "))
"""


@POOLED
def test_a_checkout_under_tmp_grades_in_pooled_and_fresh_children():
    """A checkout in a temporary folder: each child's fresh /tmp must still hold the bound repository.

    (It once did not: every pooled child exited while starting, unable to import its own libraries.)
    """
    checkout = Path("/tmp") / f"companion-checkout-{uuid.uuid4().hex}"
    try:
        for package in ("companion", "graders"):
            shutil.copytree(ROOT / package, checkout / package,
                            ignore=shutil.ignore_patterns("__pycache__", "_hidden"))
        (checkout / "companion" / "_probe_under_tmp.py").write_text("")  # read by the child, not preloaded
        done = subprocess.run([sys.executable, "-c", UNDER_TMP], capture_output=True, text=True, timeout=300,
                              cwd=checkout, env={**os.environ, "PYTHONPATH": str(checkout)})
    finally:
        shutil.rmtree(checkout, ignore_errors=True)
    runs = [line.split(" ", 2) for line in done.stdout.splitlines() if line.startswith("RUN ")]
    assert len(runs) == 3, done.stdout + done.stderr
    for _, stopped, log in runs:
        assert stopped == "ok", log
        assert f"FROM {checkout}/companion/_probe_under_tmp.py" in log, log
