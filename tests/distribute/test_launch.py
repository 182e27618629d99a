"""companion-launch: real worker processes started by `python -m companion.distribute._launch`."""

import io
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from companion.distribute._launch import launch

ROOT = Path(__file__).resolve().parents[2]
LAUNCHER = [sys.executable, "-m", "companion.distribute._launch"]
READ_TASK = """
import json, os, sys, time
task = json.loads(os.environ["TF_CONFIG"])["task"]
index = task["index"]
"""


def script(tmp_path, body, name="worker.py"):
    path = tmp_path / name
    path.write_text(READ_TASK + textwrap.dedent(body))
    return path


def environment(**extra):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]), **extra)
    env.pop("TF_CONFIG", None)
    return env


def run_launcher(tmp_path, *argv, env=None, timeout=30):
    """Runs the launcher to the end; returns (exit code, stdout, stderr, seconds taken)."""
    start = time.monotonic()
    done = subprocess.run([*LAUNCHER, *map(str, argv)], cwd=tmp_path, env=env or environment(),
                          capture_output=True, text=True, timeout=timeout)
    return done.returncode, done.stdout, done.stderr, time.monotonic() - start


def is_running(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_each_worker_gets_its_task_and_devices(tmp_path):
    path = script(tmp_path, """
        import jax
        print(f"task {index} of {len(json.loads(os.environ['TF_CONFIG'])['cluster']['worker'])}:",
              jax.device_count(), "devices, args", sys.argv[1:])
        print("a warning", file=sys.stderr)
    """)
    code, out, _, _ = run_launcher(tmp_path, "--workers", 2, "--devices-per-worker", 2, path.name,
                                   "--epochs", 3)
    assert code == 0, out
    assert "[worker 0] task 0 of 2: 2 devices, args ['--epochs', '3']" in out
    assert "[worker 1] task 1 of 2: 2 devices, args ['--epochs', '3']" in out
    assert "[worker 1] a warning" in out
    assert out.rstrip().endswith("[launch] all 2 worker(s) finished")


def test_a_failing_worker_stops_the_others(tmp_path):
    # worker 1 fails only once both have said their pid (a loaded machine can start worker 0 late,
    # and the launcher would stop it before it printed)
    path = script(tmp_path, """
        print("pid", os.getpid())
        open(f"started-{index}", "w").close()
        if index == 1:
            deadline = time.monotonic() + 15
            while not os.path.exists("started-0") and time.monotonic() < deadline:
                time.sleep(0.05)
            raise RuntimeError("worker one broke")
        time.sleep(60)
    """)
    # worker 0 sleeps 60 s: the launcher returning within run_launcher's 30 s means it stopped it
    code, out, _, _ = run_launcher(tmp_path, "--workers", 2, path.name)
    assert code == 1
    assert "[worker 1] RuntimeError: worker one broke" in out
    assert "[launch] worker 1 exited with code 1; stopped the other workers." in out
    assert "[launch]   RuntimeError: worker one broke" in out  # the traceback repeated after the message
    pids = [int(line.split()[-1]) for line in out.splitlines() if " pid " in line]
    assert len(pids) == 2 and not any(is_running(pid) for pid in pids)


def test_a_worker_killed_by_a_signal(tmp_path):
    path = script(tmp_path, """
        if index == 0:
            os.kill(os.getpid(), 9)
        time.sleep(60)
    """)
    code, out, _, seconds = run_launcher(tmp_path, "--workers", 2, path.name)
    assert (code, seconds < 15) == (137, True)
    assert "[launch] worker 0 was killed by signal SIGKILL" in out


def test_timeout_stops_all_workers(tmp_path):
    path = script(tmp_path, """
        print("started", index)
        time.sleep(60)
    """)
    code, out, _, seconds = run_launcher(tmp_path, "--workers", 2, "--timeout", 1, path.name)
    assert (code, seconds < 15) == (124, True)
    assert "[launch] the workers did not all finish within timeout=1 s; stopped all workers." in out


def test_a_silent_worker_counts_as_hung_at_start_up(tmp_path):
    path = script(tmp_path, """
        if index == 0:
            print("worker 0 talks")
        time.sleep(60)
    """)
    code, out, _, seconds = run_launcher(tmp_path, "--workers", 2, "--startup-timeout", 1, path.name)
    assert (code, seconds < 15) == (124, True)
    assert "[launch] worker(s) [1] wrote nothing within startup_timeout=1 s" in out


def test_restarts_start_all_workers_again_after_a_failure(tmp_path):
    path = script(tmp_path, """
        def started(worker):
            return len([name for name in os.listdir("attempts") if name.startswith(f"{worker}-")])

        print("pid", os.getpid())
        if index == 0:
            open(f"attempts/0-{started(0)}", "w").close()
            time.sleep(0.5)
        else:
            while started(0) <= started(1):  # until this attempt's worker 0 has printed its pid
                time.sleep(0.01)
            if started(1) < 2:  # worker 1 fails in the first two attempts
                open(f"attempts/1-{started(1)}", "w").close()
                sys.exit(3)
    """)
    (tmp_path / "attempts").mkdir()
    code, out, _, _ = run_launcher(tmp_path, "--workers", 2, "--restarts", 2, path.name)
    assert code == 0, out
    assert out.count("[launch] worker 1 exited with code 3; stopped the other workers.") == 2
    assert "[launch] restart 1 of 2: starting all 2 worker(s) again with the same TF_CONFIG" in out
    assert "[launch] restart 2 of 2: starting all 2 worker(s) again with the same TF_CONFIG" in out
    assert out.rstrip().endswith("[launch] all 2 worker(s) finished after 2 restart(s)")
    pids = [int(line.split()[-1]) for line in out.splitlines() if " pid " in line]
    assert len(set(pids)) == 6 and not any(is_running(pid) for pid in pids)  # 3 attempts, fresh processes


def test_restarts_used_up_return_the_last_failure(tmp_path):
    path = script(tmp_path, """
        if index == 0:
            sys.exit(5)
        time.sleep(60)
    """)
    code, out, _, seconds = run_launcher(tmp_path, "--workers", 2, "--restarts", 1, path.name)
    assert (code, seconds < 25) == (5, True)
    assert out.count("[launch] worker 0 exited with code 5; stopped the other workers.") == 2
    assert out.rstrip().endswith("[launch] giving up: the workers failed 2 times (restarts=1).")


def test_a_time_limit_is_not_restarted(tmp_path):
    path = script(tmp_path, """
        print("started", index)
        time.sleep(60)
    """)
    code, out, _, _ = run_launcher(tmp_path, "--workers", 2, "--restarts", 3, "--timeout", 1, path.name)
    assert code == 124
    assert "restart" not in out


@pytest.mark.skipif(os.name != "posix", reason="sends POSIX signals")
def test_a_worker_killed_with_sigkill_is_restarted_with_the_same_tf_config(tmp_path):
    path = script(tmp_path, """
        print("config", os.environ["TF_CONFIG"])
        if not os.path.exists("killed"):
            print("pid", os.getpid())
            time.sleep(60)
    """)
    launcher = subprocess.Popen([*LAUNCHER, "--workers", "2", "--restarts", "1", path.name], cwd=tmp_path,
                                env=environment(), stdout=subprocess.PIPE, text=True)
    lines = []
    while sum(" pid " in line for line in lines) < 2:
        lines.append(launcher.stdout.readline())
        assert lines[-1], "the launcher ended before its workers started"
    victim = next(int(line.split()[-1]) for line in lines if line.startswith("[worker 1] pid"))
    (tmp_path / "killed").touch()
    os.kill(victim, signal.SIGKILL)
    out = "".join(lines) + launcher.stdout.read()
    assert launcher.wait(30) == 0, out
    assert "[launch] worker 1 was killed by signal SIGKILL; stopped the other workers." in out
    configs = [line.split("config ", 1)[1] for line in out.splitlines() if " config " in line]
    assert len(configs) == 4 and sorted(configs[:2]) == sorted(configs[2:])  # the same TF_CONFIG twice
    assert out.rstrip().endswith("[launch] all 2 worker(s) finished after 1 restart(s)")


@pytest.mark.parametrize("argv, message", [
    (["--workers", 0, "worker.py"], "argument --workers: expected an integer >= 1, received '0'"),
    (["--restarts", -1, "worker.py"], "argument --restarts: expected an integer >= 0, received '-1'"),
    (["--devices-per-worker", "two", "worker.py"], "argument --devices-per-worker: expected an integer"),
    (["--timeout", -1, "worker.py"], "argument --timeout: expected a number >= 0"),
    (["--workers", 2], "the following arguments are required: script"),
    (["missing.py"], "script 'missing.py' not found"),
])
def test_argument_errors(tmp_path, argv, message):
    script(tmp_path, "")
    code, out, err, _ = run_launcher(tmp_path, *argv)
    assert code == 2
    assert message in err and "usage: companion-launch" in err
    assert out == ""


@pytest.mark.skipif(os.name != "posix", reason="sends POSIX signals")
@pytest.mark.parametrize("number, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_stopping_the_launcher_stops_all_workers(tmp_path, number, code):
    path = script(tmp_path, """
        print("pid", os.getpid())
        time.sleep(60)
    """)
    launcher = subprocess.Popen([*LAUNCHER, "--workers", "2", path.name], cwd=tmp_path, env=environment(),
                                stdout=subprocess.PIPE, text=True)
    pids = []
    while len(pids) < 2:
        line = launcher.stdout.readline()
        assert line, "the launcher ended before its workers started"
        if " pid " in line:
            pids.append(int(line.split()[-1]))
    launcher.send_signal(number)  # Ctrl-C, or a kill from a job scheduler
    assert launcher.wait(60) == code  # a hang guard (SIGINT inside Popen.poll once left the launcher hung)
    launcher.stdout.close()
    deadline = time.monotonic() + 10  # stopped workers may take a moment to be reaped
    while any(is_running(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(is_running(pid) for pid in pids)


def test_worker_environment(tmp_path, monkeypatch):
    path = script(tmp_path, """
        print(os.environ["TF_CONFIG"], os.environ["XLA_FLAGS"], os.environ["JAX_PLATFORMS"])
    """)
    port = consecutive_free_ports(2)
    monkeypatch.setenv("XLA_FLAGS", "--xla_force_host_platform_device_count=7 --xla_dump_to=/tmp/x")
    monkeypatch.setenv("JAX_PLATFORMS", "cpu,cuda")
    out = io.StringIO()
    assert launch(path, workers=2, devices_per_worker=3, port=port, stream=out) == 0
    cluster = f'{{"cluster": {{"worker": ["localhost:{port}", "localhost:{port + 1}"]}}, '
    flags = "--xla_dump_to=/tmp/x --xla_force_host_platform_device_count=3"
    for index in range(2):
        task = f'"task": {{"type": "worker", "index": {index}}}}}'
        assert f"[worker {index}] {cluster}{task} {flags} cpu,cuda" in out.getvalue().splitlines()


def test_a_port_in_use_is_refused_before_starting(tmp_path):
    path = script(tmp_path, "")
    with socket.socket() as taken:
        taken.bind(("", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(ValueError, match=rf"Port {port} \(for worker 0\) is in use"):
            launch(path, workers=1, port=port, stream=io.StringIO())


def test_api_checks_arguments(tmp_path):
    with pytest.raises(ValueError, match=r"`devices_per_worker` must be a positive integer. Received: dev"):
        launch(script(tmp_path, ""), devices_per_worker=0)
    with pytest.raises(ValueError, match=r"`script` must be a Python file. Received: script='nope.py'"):
        launch("nope.py")
    with pytest.raises(ValueError, match=r"`restarts` must be an integer >= 0 .* Received: restarts=-1"):
        launch(script(tmp_path, ""), restarts=-1)


def test_workers_join_one_jax_cluster(tmp_path):
    """The whole path: TF_CONFIG -> TFConfigClusterResolver -> jax.distributed -> a cross-process sum."""
    path = script(tmp_path, """
        import jax
        import numpy as np
        from jax.sharding import Mesh, NamedSharding, PartitionSpec
        from companion.distribute.cluster_resolver import TFConfigClusterResolver

        resolver = TFConfigClusterResolver()
        jax.distributed.initialize(resolver.coordinator_address(), resolver.num_processes(),
                                   resolver.process_id(), initialization_timeout=30)
        mesh = Mesh(np.array(jax.devices()), ("replica",))
        local = np.full((jax.local_device_count(),), jax.process_index() + 1.0)
        x = jax.make_array_from_process_local_data(NamedSharding(mesh, PartitionSpec("replica")), local)
        total = jax.jit(lambda a: a.sum(), out_shardings=NamedSharding(mesh, PartitionSpec()))(x)
        print("devices", jax.device_count(), "sum", float(total.addressable_data(0)))
    """)
    code, out, _, _ = run_launcher(tmp_path, "--workers", 2, "--devices-per-worker", 2, path.name, timeout=60)
    assert code == 0, out
    for index in range(2):  # 2 devices holding 1.0 on process 0, 2 holding 2.0 on process 1
        assert f"[worker {index}] devices 4 sum 6.0" in out


def consecutive_free_ports(count):
    for first in range(30000, 60000, 97):
        sockets = []
        try:
            for port in range(first, first + count):
                sock = socket.socket()
                sockets.append(sock)
                sock.bind(("", port))
            return first
        except OSError:
            continue
        finally:
            for sock in sockets:
                sock.close()
    raise RuntimeError("no consecutive free ports")
