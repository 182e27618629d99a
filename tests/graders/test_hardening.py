"""Attacks on the grader (issue: a judge that trusts nothing from the child, safe intake, allow-list sandbox).

Every adversarial submission is built here and graded by the real CLI in one batch beside honest
ones: the batch always completes, the honest submissions keep full marks, the attacks earn nothing.
"""

import json
import os
import socket
import subprocess
import threading
from pathlib import Path

import pytest

from graders import _cgroup as cgroup
from graders._process import exit_reason
from graders._sandbox import sandbox_mode
from tests.graders.conftest import ROOT

pytestmark = pytest.mark.slow
SANDBOXED = pytest.mark.skipif(sandbox_mode() == "none", reason="no namespaces here: nothing is isolated")
TASKS_BOUNDED = pytest.mark.skipif(not cgroup.limits_tasks(),
                                   reason="no writable pids cgroup: a submission's processes are not bounded")

FORGE = """
import json, os
events = [{"event": "exercise", "id": "add_one", "status": "ran",
           "outputs": [{"t": {"x": 1}}, {"t": "none"}]},
          {"event": "exercise", "id": "add_one", "status": "ran",
           "outputs": [{"t": "tensor", "npy": HUGE}, {"t": "tensor", "npy": HUGE}]}]
for fd in range(3, 64):
    try:
        os.write(fd, "".join(json.dumps(e) + "\\n" for e in events).encode())
    except OSError:
        pass
"""
HUGE_NPY = ("import base64, io, numpy\nbuf = io.BytesIO()\nnumpy.lib.format.write_array_header_1_0(buf, "
            "{'descr': '<f8', 'fortran_order': False, 'shape': (10**15,)})\n"
            "HUGE = base64.b64encode(buf.getvalue() + bytes(16)).decode()\n")
LATE = """
import signal, time
signal.setitimer(signal.ITIMER_REAL, 0)
signal.signal(signal.SIGALRM, signal.SIG_IGN)
time.sleep(9)
result = np.asarray(array) + 1
"""
PUSHES_DEADLINE = """
import json, os, time
for _ in range(12):
    for fd in range(3, 64):
        try:
            os.write(fd, (json.dumps({"event": "start", "id": "add_one"}) + "\\n").encode())
        except OSError:
            pass
    time.sleep(0.8)
result = np.asarray(array) + 1
"""


def _reads(paths) -> str:
    """A body that answers right only if one of `paths` can be read from inside the sandbox."""
    return f"""
import pathlib
seen = []
for p in {[str(p) for p in paths]!r}:
    try:
        q = pathlib.Path(p)
        seen.append(q.read_bytes()[:10] if q.is_file() else sorted(x.name for x in q.iterdir()))
    except OSError:
        pass
result = np.asarray(array) + 1 if seen else np.zeros(3)
"""


SOCKET_BODY = """
import socket
try:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(SOCKET_PATH)
    s.sendall(b"stolen answers")
    s.close()
except OSError:
    pass
result = np.zeros(3)
"""
CPU_HOG = """
import subprocess, sys
for _ in range(40):
    subprocess.Popen([sys.executable, "-c", "while True: pass"])
"""
SHM_BODY = """
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
for key in range(4242, 4246):
    libc.shmget(key, 64 * 2**20, 0o1000 | 0o666)  # IPC_CREAT
result = np.zeros(3)
"""


@pytest.fixture(scope="module")
def batch(tmp_path_factory, toy):
    grader = toy.Grader(tmp_path_factory.mktemp("hardening"))
    subs = grader.base / "subs"
    toy.submission(subs / "honest.ipynb")
    toy.submission(subs / "alice" / "sub.ipynb")
    toy.submission(subs / "bob" / "sub.ipynb")
    toy.submission(subs / "alice__sub.ipynb", {"add_one": "result = np.zeros(3)"})
    toy.submission(subs / "...ipynb", {"add_one": "result = np.zeros(3)"})
    toy.submission(subs / "forges.ipynb", {"add_one": HUGE_NPY + FORGE + "result = np.zeros(3)"})
    toy.submission(subs / "late.ipynb", {"add_one": LATE})
    toy.submission(subs / "pushes_deadline.ipynb", {"add_one": PUSHES_DEADLINE})
    (subs / "linked.ipynb").symlink_to(grader.spec.parent / "solution.ipynb")
    (subs / "zero.ipynb").symlink_to("/dev/zero")
    os.mkfifo(subs / "fifo.ipynb")
    stale_cache = ROOT / "build" / "grader-cache"
    secrets = [ROOT / ".git" / "HEAD", stale_cache, grader.out, grader.spec.parent / "solution.ipynb"]
    toy.submission(subs / "reads_host.ipynb", {"add_one": _reads(secrets)})
    socket_path = grader.base / "host.sock"
    toy.submission(subs / "socket.ipynb", {"add_one": f"SOCKET_PATH = {str(socket_path)!r}\n" + SOCKET_BODY})
    toy.submission(subs / "shm.ipynb", {"add_one": SHM_BODY})
    toy.submission(subs / "cpu_hog.ipynb", prelude=CPU_HOG + "import time\ntime.sleep(15)\n")
    received, server = _listen(socket_path)
    shm_before = _shm_segments()
    done = grader.run(subs, args=("--jobs", "2", "--exercise-timeout", "5"), timeout=600)
    server.close()
    return grader, done, received, shm_before


def _listen(path: Path):
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    os.chmod(path, 0o777)
    server.listen()
    received = []

    def accept():
        try:
            while True:
                connection, _ = server.accept()
                received.append(connection.recv(100))
        except OSError:
            pass

    threading.Thread(target=accept, daemon=True).start()
    return received, server


def _shm_segments() -> set[str]:
    try:
        return {line.split()[1] for line in Path("/proc/sysvipc/shm").read_text().splitlines()[1:]}
    except OSError:
        return set()


def test_the_batch_completes_and_honest_submissions_keep_full_marks(batch, toy):
    grader, done, _, _ = batch
    assert done.returncode == 0, done.stderr[-3000:]
    summary = grader.summary()
    honest = [name for name in summary if name == "honest" or name.startswith(("alice__sub-", "bob__sub"))]
    assert grader.scores("honest") == toy.full
    for name in honest:
        scores = grader.scores(name)
        assert scores == toy.full or (name.startswith("alice__sub-") and scores["add_one"] == 0), name


def test_ids_are_unique_safe_and_every_report_stays_inside_out(batch):
    grader, _, _, _ = batch
    names = list(grader.summary())
    assert len(names) == len(set(names)) == 15
    assert len([name for name in names if name.startswith("alice__sub")]) == 2
    for name in names:
        assert not name.startswith(".") and "/" not in name
        assert (grader.out / name / "results.json").resolve().parent.parent == grader.out.resolve()
    assert not list(grader.base.glob("*.json")) and not (grader.base / "results.json").exists()


@pytest.mark.parametrize("name", ["linked", "zero", "fifo"])
def test_links_devices_and_pipes_are_refused_with_a_reason(batch, name):
    grader, _, _, _ = batch
    results = grader.results(name)
    assert results["score"] == 0 and results["extra_data"]["status"] == "invalid notebook"
    reasons = " ".join(test["output"] for test in results["tests"])
    assert "symbolic link" in reasons or "not a regular file" in reasons


@pytest.mark.parametrize("name", ["forges", "late", "pushes_deadline"])
def test_forged_messages_and_late_answers_earn_nothing(batch, name):
    grader, _, _, _ = batch
    assert grader.scores(name)["add_one"] == 0


def test_a_late_answer_is_reported_as_too_slow(batch):
    grader, _, _, _ = batch
    assert "time limit" in grader.output("late", "add_one")


@SANDBOXED
def test_the_host_s_files_sockets_and_shared_memory_are_out_of_reach(batch):
    grader, _, received, shm_before = batch
    assert grader.scores("reads_host")["add_one"] == 0
    assert received == []
    assert _shm_segments() == shm_before
    assert json.loads((grader.out / "socket" / "results.json").read_text())["score"] == 3.0


@pytest.mark.skipif(not cgroup.available(), reason="no writable CPU cgroup: CPU time is shared per process")
def test_a_submission_with_many_busy_processes_does_not_starve_the_others(batch, toy):
    grader, _, _, _ = batch
    assert grader.scores("honest") == toy.full and grader.scores("bob__sub") == toy.full


# Starts threads (which it then ends) and processes (which it leaves running) until refused, never
# more than the bound + 500 processes in all (over every hidden case), so the test cannot exhaust the
# machine's PIDs where the bound is missing. SLEEP is unique to this test run. The batch runs with a
# bound of BOUND (COMPANION_GRADER_MAX_TASKS), so that starting that many processes takes seconds even
# on a loaded machine (the default, 2048, took longer than an exercise's time limit there).
SLEEP = f"29.{os.getpid()}"
BOUND = 256
CAP = BOUND + 500
THREADS = f"""
import threading
threading.stack_size(256 * 1024)  # so the memory limit (RLIMIT_DATA counts stacks) is not what refuses them
stop, threads = threading.Event(), []
try:
    while len(threads) < {CAP}:
        thread = threading.Thread(target=stop.wait, daemon=True)
        thread.start()
        threads.append(thread)
finally:
    stop.set()
    for thread in threads:
        thread.join()
result = np.zeros(3)
"""
SPAWNS = f"""
import subprocess
while len(STARTED) < {CAP}:
    STARTED.append(subprocess.Popen(["sleep", "{SLEEP}"]))
result = np.zeros(2)
"""


@pytest.fixture(scope="module", params=["pooled", "fresh"])
def spawner(request, tmp_path_factory, toy):
    """A batch with a submission that starts threads (add_one) and processes (scale) until refused."""
    if not cgroup.limits_tasks():
        pytest.skip("no writable pids cgroup: a submission's processes are not bounded")
    grader = toy.Grader(tmp_path_factory.mktemp(f"spawner-{request.param}"))
    subs = grader.base / "subs"
    toy.submission(subs / "honest.ipynb")
    toy.submission(subs / "spawner.ipynb", {"add_one": THREADS, "scale": SPAWNS}, prelude="STARTED = []\n")
    args = ("--jobs", "2", *(("--no-pool",) if request.param == "fresh" else ()))
    done = grader.run(subs, args=args, timeout=600, env={cgroup.MAX_TASKS_VARIABLE: str(BOUND)})
    return grader, done


@TASKS_BOUNDED
def test_a_submission_starting_threads_or_processes_until_refused_is_refused_at_the_bound(spawner, toy):
    grader, done = spawner
    assert done.returncode == 0, done.stderr[-3000:]
    assert f"at most {BOUND} processes and threads per submission" in done.stdout
    assert grader.scores("honest") == toy.full
    scores = grader.scores("spawner")
    assert scores["add_one"] == scores["scale"] == 0 and scores["square_all"] == toy.full["square_all"]
    refused = ("(it could not start another process or thread: a submission may run at most 256 processes "
               "and threads at once, within its memory limit)")
    # threads a notebook starts are refused by the grader's guard at the first (graders/_guard.py)
    guard = ("(the grader runs no thread a notebook starts, as threading.Thread, Timer or a thread pool: do "
             "the work in the main thread)")
    assert f"add_one raised a RuntimeError {guard}" in grader.output("spawner", "add_one")
    assert f"scale raised a BlockingIOError {refused}" in grader.output("spawner", "scale")


@TASKS_BOUNDED
def test_the_refused_submission_s_processes_are_all_gone_afterwards(spawner):
    left = []
    for entry in Path("/proc").iterdir():
        try:
            if SLEEP.encode() in (entry / "cmdline").read_bytes():
                left.append(entry.name)
        except OSError:
            pass
    assert left == []


@TASKS_BOUNDED
def test_entering_puts_a_command_in_each_of_its_groups_and_remove_deletes_them():
    group = cgroup.new_group()
    try:
        assert group is not None and group.pids is not None
        assert (group.pids / "pids.max").read_text().strip() == str(cgroup.MAX_TASKS)  # the default
        seen = subprocess.run(cgroup.entering(group, ["cat", "/proc/self/cgroup"]), capture_output=True,
                              text=True, check=True).stdout
        assert len(group.folders) == len(set(cgroup.bases().values()))
        for folder in group.folders:
            assert f":/{cgroup.PARENT_NAME}/{folder.name}\n" in seen, seen
    finally:
        cgroup.remove(group)
    assert not any(folder.exists() for folder in group.folders)


def test_a_child_that_dies_after_a_refused_thread_is_told_why():
    assert cgroup.task_limit_text() in exit_reason(-6, None, 2048, tasks_refused=True)
    assert cgroup.task_limit_text() not in exit_reason(-6, None, 2048)


def test_the_bound_can_be_set_for_a_batch_and_a_bad_setting_is_refused_clearly(monkeypatch, grader):
    monkeypatch.setenv(cgroup.MAX_TASKS_VARIABLE, "300")
    assert cgroup.max_tasks() == 300 and "at most 300 processes" in cgroup.task_limit_text()
    for bad in ("12", "many"):
        monkeypatch.setenv(cgroup.MAX_TASKS_VARIABLE, bad)
        with pytest.raises(ValueError, match=f"MAX_TASKS must be a whole number of at least 64.*{bad!r}"):
            cgroup.max_tasks()
    done = grader.run(grader.base, env={cgroup.MAX_TASKS_VARIABLE: "many"})
    assert done.returncode == 2 and "COMPANION_GRADER_MAX_TASKS must be a whole number" in done.stderr


def test_children_graded_at_once_share_half_the_machine_s_pids(monkeypatch, tmp_path, grader):
    """With 16 children bounded at 2048 each, fork bombs in all of them would take every PID of a
    kernel whose pid_max is 32768: each child's bound is its share of half the machine's PIDs."""
    monkeypatch.delenv(cgroup.MAX_TASKS_VARIABLE, raising=False)
    if cgroup.limits_tasks():  # the CLI says the bound of its --jobs (before it finds no submission)
        done = grader.run(tmp_path / "absent.ipynb", args=["--jobs", "16"], env={})
        share = max(cgroup.LEAST_TASKS, min(cgroup.MAX_TASKS, cgroup.machine_tasks() // (2 * 16)))
        assert f"at most {share} processes and threads per submission" in done.stdout, done.stdout
    pid_max, threads_max = tmp_path / "pid_max", tmp_path / "threads-max"
    pid_max.write_text("32768\n")
    threads_max.write_text("192730\n")
    monkeypatch.setattr(cgroup, "_KERNEL_LIMITS", (pid_max, threads_max))
    assert cgroup.machine_tasks() == 32768 and cgroup.max_tasks() == cgroup.MAX_TASKS
    expected = {1: 2048, 2: 2048, 8: 2048, 16: 1024, 100: 163, 1000: cgroup.LEAST_TASKS}
    for jobs, bound in expected.items():
        with cgroup.children_at_once(jobs):
            assert cgroup.max_tasks() == bound and f"at most {bound} processes" in cgroup.task_limit_text()
            assert bound * jobs <= 32768 // 2 or bound == cgroup.LEAST_TASKS
    assert cgroup.max_tasks() == cgroup.MAX_TASKS  # the batch is over
    threads_max.write_text("2000\n")  # the smaller kernel limit counts
    assert cgroup.max_tasks() == 1000
    monkeypatch.setenv(cgroup.MAX_TASKS_VARIABLE, "300")  # an instructor's setting is kept as it is
    with cgroup.children_at_once(1000):
        assert cgroup.max_tasks() == 300
