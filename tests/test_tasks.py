"""Tests for tasks.py, the set-up and CI entry points, run as a user would run them."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import tasks

TASKS = Path(tasks.__file__).resolve()


def run_tasks(*args, env=None):
    """Run `python tasks.py ARGS` with the current interpreter; return the finished process."""
    return subprocess.run([sys.executable, str(TASKS), *args], capture_output=True, text=True,
                          env=env, timeout=300)


def test_help_explains_the_commands():
    done = run_tasks("--help")
    assert done.returncode == 0, done.stderr
    for word in ("lab", "test", "--headless", "--jobs", "--timeout", "COMPANION_VENV"):
        assert word in done.stdout


def test_unknown_command_is_a_clear_error():
    done = run_tasks("deploy")
    assert done.returncode == 2
    assert "unknown command 'deploy'" in done.stderr
    assert "lab, test, record-parity" in done.stderr and "--help" in done.stderr


def test_bad_headless_option_fails_before_any_set_up(tmp_path):
    env = dict(os.environ, COMPANION_VENV=str(tmp_path / "venv"))
    done = run_tasks("lab", "--headless", "--jobs", "0", env=env)
    assert done.returncode == 2
    assert "--jobs" in done.stderr and "positive" in done.stderr
    assert not (tmp_path / "venv").exists()


@pytest.mark.parametrize("version", [(3, 10, 13), (3, 8, 0, "final", 0)])
def test_old_python_is_named_in_the_error(version):
    problem = tasks.python_version_problem(version)
    assert f"Python {'.'.join(map(str, version[:3]))}" in problem
    assert "3.11" in problem and "python3.11 tasks.py" in problem


@pytest.mark.parametrize("version", [(3, 11, 0), (3, 12, 1), (4, 0, 0)])
def test_new_enough_python_passes(version):
    assert tasks.python_version_problem(version) is None


def test_main_refuses_an_old_running_python(monkeypatch, capsys):
    monkeypatch.setattr(tasks.sys, "version_info", (3, 9, 18, "final", 0))
    assert tasks.main(["--help"]) == 1
    assert "Python 3.9.18" in capsys.readouterr().err


def fake_venv(folder, python=sys.executable):
    """A folder shaped like a venv whose bin/python is `python`."""
    bin_dir = tasks.venv_bin(folder, "python").parent
    bin_dir.mkdir(parents=True)
    tasks.venv_bin(folder, "python").symlink_to(python)
    return folder


def test_install_needed_when_there_is_no_venv(tmp_path):
    assert "no virtual environment" in tasks.install_reason(tmp_path / "venv", "abc")


def test_install_needed_until_the_stamp_matches(tmp_path):
    venv = fake_venv(tmp_path / "venv")
    assert "pyproject.toml changed" in tasks.install_reason(venv, "abc")
    (venv / tasks.STAMP_NAME).write_text("abc\n")
    assert tasks.install_reason(venv, "abc") is None
    assert "pyproject.toml changed" in tasks.install_reason(venv, "def")


def test_install_needed_when_the_venv_python_is_broken(tmp_path):
    broken = tmp_path / "broken-python"
    broken.write_text("#!/bin/sh\nexit 1\n")
    broken.chmod(0o755)
    venv = fake_venv(tmp_path / "venv", python=broken)
    (venv / tasks.STAMP_NAME).write_text("abc\n")
    assert "does not run" in tasks.install_reason(venv, "abc")
    assert "missing" in tasks.install_reason(tmp_path, "abc")


def test_stamp_digest_follows_pyproject():
    digest = tasks.pyproject_digest()
    assert len(digest) == 64 and digest == tasks.pyproject_digest()


def write_notebook(path, *sources):
    """Write a notebook with one code cell per source string."""
    nbformat = pytest.importorskip("nbformat")
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in sources]
    nbformat.write(notebook, path)
    return path


@pytest.mark.notebook
def test_headless_executor_reports_each_notebook(tmp_path):
    pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    write_notebook(tmp_path / "good.ipynb", "import sys\nprint(sys.prefix)", "x = 1 + 1\nx")
    write_notebook(tmp_path / "bad.ipynb", "y = 1", "raise ValueError('boom from cell')")
    (tmp_path / "junk.ipynb").write_text("this is not JSON")
    out = tmp_path / "out"
    done = run_tasks("_execute", "--out", str(out), "--jobs", "2", str(tmp_path))
    assert done.returncode == 1, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert any(line.startswith("ok") and "good.ipynb" in line for line in lines), done.stdout
    assert any(line.startswith("FAILED") and "bad.ipynb" in line for line in lines), done.stdout
    assert any(line.startswith("FAILED") and "junk.ipynb" in line for line in lines), done.stdout
    assert "ValueError" in done.stdout and "boom from cell" in done.stdout
    assert "1 passed, 2 failed" in done.stdout
    executed = (out / "good.ipynb").read_text()
    assert sys.prefix in executed  # the kernel ran this venv's python
    assert (out / "bad.ipynb").exists()


@pytest.mark.notebook
def test_headless_executor_passes_and_times_out(tmp_path):
    pytest.importorskip("nbclient")
    good = write_notebook(tmp_path / "good.ipynb", "print('fine')")
    assert run_tasks("_execute", "--out", str(tmp_path / "out"), str(good)).returncode == 0
    slow = write_notebook(tmp_path / "slow.ipynb", "import time\ntime.sleep(60)")
    done = run_tasks("_execute", "--out", str(tmp_path / "out"), "--timeout", "2", str(slow))
    assert done.returncode == 1 and "FAILED" in done.stdout and "Timeout" in done.stdout


def test_headless_executor_with_no_notebooks_says_so(tmp_path):
    done = run_tasks("_execute", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "No notebooks found" in done.stdout


def _lab(folder, name, text):
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_learner_labs_arrive_once_and_saved_work_is_never_overwritten(tmp_path):
    labs, mine = tmp_path / "labs", tmp_path / "my-labs"
    _lab(labs, "week1/A.ipynb", "v1")
    _lab(labs, "week1/B.ipynb", "b1")
    assert len(tasks.sync_learner_labs(labs, mine, today="2026-11-24")) == 2
    (mine / "week1" / "A.ipynb").write_text("my answers")           # the learner saves work in A
    _lab(labs, "week1/A.ipynb", "v2")                                 # upstream updates A and B
    _lab(labs, "week1/B.ipynb", "b2")
    _lab(labs, "week2/C.ipynb", "c1")                                 # and adds C
    lines = tasks.sync_learner_labs(labs, mine, today="2026-11-24")
    assert (mine / "week1" / "A.ipynb").read_text() == "my answers"
    assert (mine / "week1" / "A (updated 2026-11-24).ipynb").read_text() == "v2"
    assert (mine / "week1" / "B.ipynb").read_text() == "b2"           # untouched copy: updated in place
    assert (mine / "week2" / "C.ipynb").read_text() == "c1"
    assert len(lines) == 3 and any("has your changes" in line for line in lines)
    assert tasks.sync_learner_labs(labs, mine, today="2026-11-25") == []  # nothing new: nothing written
    (mine / "week2" / "C.ipynb").unlink()                             # a deleted lab stays deleted
    assert tasks.sync_learner_labs(labs, mine) == [] and not (mine / "week2" / "C.ipynb").exists()


def test_the_served_lab_has_no_news_pop_up_and_keeps_other_settings(tmp_path):
    path = tmp_path / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    path.parent.mkdir(parents=True)
    path.write_text('{"@jupyterlab/apputils-extension:themes": {"theme": "JupyterLab Dark"}}')
    assert tasks.write_lab_settings(tmp_path) == path
    settings = json.loads(path.read_text())
    assert settings["@jupyterlab/apputils-extension:notification"]["fetchNews"] == "false"
    assert settings["@jupyterlab/apputils-extension:themes"] == {"theme": "JupyterLab Dark"}


def test_record_parity_rejects_a_path_that_is_not_a_program(tmp_path):
    done = run_tasks("record-parity", "--python", sys.executable, str(tmp_path / "missing.py"))
    assert done.returncode != 0
    assert "is not a parity program" in done.stderr and "tests/parity/GROUP/NAME.py" in done.stderr


def test_record_parity_rejects_a_missing_python(tmp_path):
    done = run_tasks("record-parity", "--python", str(tmp_path / "no-python"), "tests/parity")
    assert done.returncode == 2
    assert "does not exist" in done.stderr and "has tensorflow" in done.stderr


def test_record_parity_finds_programs_but_not_the_runner():
    programs = tasks.find_parity_programs([])
    names = {path.name for path in programs}
    assert programs and all(path.parent.parent == tasks.PARITY_DIR for path in programs)
    assert not any(name.startswith(("test_", "_")) for name in names)
    group = tasks.find_parity_programs([str(tasks.PARITY_DIR / "math")])
    assert group and {path.parent.name for path in group} == {"math"}


@pytest.mark.parametrize(("code", "stderr", "status"), [
    (0, "", None),
    (1, "Traceback (most recent call last):\n  ...\nValueError: bad value\n", "raised ValueError"),
    (1, "tensorflow.python.framework.errors_impl.InvalidArgumentError: cannot compute\n",
     "raised InvalidArgumentError"),
    (3, "no traceback here\n", "exit 3"),
])
def test_record_parity_status_names_the_exception_class(code, stderr, status):
    assert tasks.parity_status(code, stderr) == status


def test_record_parity_stores_stdout_and_how_the_program_ended(tmp_path, monkeypatch):
    group = tmp_path / "parity" / "demo"
    group.mkdir(parents=True)
    program = group / "prints_then_raises.py"
    program.write_text("import os\nprint('cwd is empty:', os.listdir('.') == [])\nraise KeyError('x')\n")
    monkeypatch.setattr(tasks, "PARITY_DIR", tmp_path / "parity")
    name, _, ended = tasks.record_parity_program(sys.executable, program)
    assert (name, ended) == ("demo/prints_then_raises", "raised KeyError")
    assert program.with_suffix(".out").read_text() == "cwd is empty: True\n"
    assert program.with_suffix(".status").read_text() == "raised KeyError\n"
    program.write_text("print('fine')\n")
    assert tasks.record_parity_program(sys.executable, program)[2] is None
    assert not program.with_suffix(".status").exists()


def test_e2e_without_the_browser_and_without_root_says_what_to_install(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(tasks, "ensure_venv", lambda: tmp_path)
    monkeypatch.setattr(tasks, "BROWSER", {"chromium": str(tmp_path / "no-chromium"),
                                           "chromium-driver": str(tmp_path / "no-driver")})
    monkeypatch.setattr(os, "geteuid", lambda: 1000, raising=False)
    assert tasks.main(["e2e"]) == 2
    error = capsys.readouterr().err
    assert "needs chromium and chromium-driver" in error
    assert "apt-get install chromium chromium-driver" in error
    assert "e2e" in tasks.HELP


def test_e2e_runs_every_notebook_two_at_a_time_by_default():
    command, env = tasks.e2e_command("py", ["-k", "week1"])
    assert command == ["py", "-m", "pytest", "-n", "2", "-m", "e2e", "tests/e2e", "-k", "week1"]
    assert env == {"COMPANION_E2E_REQUIRED": "1", "COMPANION_E2E_ALL": "1"}


@pytest.mark.parametrize("workers", [["-n", "1"], ["-n4"], ["--numprocesses=3"], ["-p", "no:xdist"]])
def test_e2e_keeps_the_workers_chosen_and_subset_runs_what_ci_runs(workers):
    command, env = tasks.e2e_command("py", ["--subset", *workers])
    assert command == ["py", "-m", "pytest", "-m", "e2e", "tests/e2e", *workers]
    assert "COMPANION_E2E_ALL" not in env and env["COMPANION_E2E_REQUIRED"] == "1"


class _Runs:
    """Stands in for subprocess.run: records each command, answers with the given exit codes."""

    def __init__(self, codes):
        self.commands, self.codes = [], codes

    def __call__(self, command, **kwargs):
        self.commands.append(command)
        code = next((code for word, code in self.codes.items() if word in " ".join(command)), 0)
        return subprocess.CompletedProcess(command, code, stdout="", stderr="")


def _no_browser(monkeypatch, tmp_path, root, codes=None):
    monkeypatch.setattr(tasks, "BROWSER", {"chromium": str(tmp_path / "no-chromium"),
                                           "chromium-driver": sys.executable})
    monkeypatch.setattr(os, "geteuid", lambda: 0 if root else 1000, raising=False)
    monkeypatch.setattr(tasks.shutil, "which", lambda name: "/usr/bin/apt-get")
    runs = _Runs(codes or {})
    monkeypatch.setattr(tasks.subprocess, "run", runs)
    return runs


def test_browser_pieces_install_with_apt_get_as_root_only_what_is_missing(monkeypatch, tmp_path):
    runs = _no_browser(monkeypatch, tmp_path, root=True)
    assert tasks.ensure_browser(tmp_path) is None
    assert runs.commands[:2] == [["apt-get", "update", "-q"], ["apt-get", "install", "-y", "-q", "chromium"]]
    assert runs.commands[2][1:] == ["-c", "import selenium"] and len(runs.commands) == 3


def test_browser_pieces_not_installable_give_the_reason(monkeypatch, tmp_path):
    runs = _no_browser(monkeypatch, tmp_path, root=False)
    assert "sudo apt-get install chromium chromium-driver" in tasks.ensure_browser(tmp_path)
    assert runs.commands == []
    _no_browser(monkeypatch, tmp_path, root=True, codes={"install -y": 100})
    assert "`apt-get install -y -q chromium` exited with 100" in tasks.ensure_browser(tmp_path)


def test_selenium_comes_from_the_e2e_extra_when_missing(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(tasks, "BROWSER", {"chromium": sys.executable, "chromium-driver": sys.executable})
    runs = _Runs({"import selenium": 1})
    monkeypatch.setattr(tasks.subprocess, "run", runs)
    assert tasks.ensure_browser(tmp_path) is None
    assert runs.commands[1][-2:] == ["-e", f".[{tasks.EXTRAS},e2e]"]
    runs.codes["pip install"] = 1
    assert "could not install the [e2e] extra" in tasks.ensure_browser(tmp_path)


def test_the_test_command_goes_on_without_the_browser_and_says_why(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(tasks, "ensure_venv", lambda: tmp_path)
    monkeypatch.setattr(tasks, "ensure_browser", lambda venv: "the browser test needs chromium")
    monkeypatch.setattr(tasks, "_lint", lambda venv: True)
    monkeypatch.setattr(tasks, "_pytest", lambda venv, args: True)
    assert tasks.main(["test"]) == 0
    assert "browser tests will be skipped: the browser test needs chromium" in capsys.readouterr().out


@pytest.mark.parametrize("uid, extra", [(0, ["--allow-root"]), (1000, [])])
def test_the_lab_command_is_the_one_the_browser_test_starts(monkeypatch, tmp_path, uid, extra):
    monkeypatch.setattr(os, "geteuid", lambda: uid, raising=False)
    command = tasks.jupyter_lab_command(tmp_path, "my-labs/", ["--no-browser"])
    assert command == [str(tasks.venv_bin(tmp_path, "jupyter")), "lab", "my-labs/", "--no-browser", *extra]
    assert (tmp_path / "share" / "jupyter" / "lab" / "settings" / "overrides.json").is_file()


@pytest.mark.parametrize(("args", "expected"), [
    ([], ["-n", "auto", "--dist", "loadgroup"]),
    (["-n", "0"], ["--dist", "loadgroup", "-n", "0"]),
    (["--dist", "load"], ["-n", "auto", "--dist", "load"]),
])
def test_test_keeps_module_fixtures_on_one_worker_unless_told_so(monkeypatch, tmp_path, args, expected):
    commands = []
    monkeypatch.setattr(tasks, "_run", lambda command, venv: commands.append(command) or 0)
    assert tasks._pytest(tmp_path, args)
    assert commands[0][-len(expected):] == expected


def test_tests_of_a_module_with_a_module_fixture_are_scheduled_together(tmp_path):
    from tests import conftest

    module_scope = "scope=" + '"module"'  # (spelled apart: this file itself defines no module fixture)
    (tmp_path / "test_batch.py").write_text(f"@pytest.fixture({module_scope})\ndef graded(): ...\n")
    (tmp_path / "test_plain.py").write_text("def test_one(): ...\n")
    assert conftest.module_group(tmp_path, "test_batch.py::test_a[1]") == "test_batch.py"
    assert conftest.module_group(tmp_path, "test_batch.py::test_b") == "test_batch.py"
    assert conftest.module_group(tmp_path, "test_plain.py::test_one") == "test_plain.py::test_one"


def test_set_up_writes_the_bytecode_of_companion_and_graders(tmp_path, monkeypatch, capsys):
    # installed in place, their modules would otherwise compile on every import where bytecode is not
    # written (PYTHONDONTWRITEBYTECODE, a read-only grading sandbox)
    for package in ("companion", "graders"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "mod.py").write_text("X = 1\n")
    (tmp_path / "graders" / "broken.py").write_text("def (:\n")
    monkeypatch.setattr(tasks, "ROOT", tmp_path)
    tasks._compile_bytecode(Path(sys.prefix))
    tag = sys.implementation.cache_tag
    assert (tmp_path / "companion" / "__pycache__" / f"mod.{tag}.pyc").is_file()
    assert (tmp_path / "graders" / "__pycache__" / f"mod.{tag}.pyc").is_file()
    # a file that does not compile is reported, not fatal: the set-up goes on
    assert "could not write companion's bytecode" in capsys.readouterr().out
