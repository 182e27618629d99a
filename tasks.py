"""Set-up and CI entry points (stdlib only): `python3.11 tasks.py lab` and `python3.11 tasks.py test`."""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parent
MIN_PYTHON = (3, 11)
EXTRAS = "labs,grader,dev"
STAMP_NAME = ".companion-install-stamp"
LINT_TARGETS = ("companion", "graders", "tests", "benchmarks", "tasks.py")

HELP = """\
usage: python3.11 tasks.py COMMAND [ARGS ...]

Set-up and CI entry points for companion. Every command first creates or updates the
virtual environment .venv (pip install -e ".[labs,grader,dev]"; skipped while
pyproject.toml is unchanged and .venv's python works), then:

  lab [JUPYTER ARGS ...]      copy new or updated labs into my-labs/ (never over your changes),
                              then open JupyterLab on my-labs/ (extra args such as --port 8899
                              or --no-browser are passed to `jupyter lab`)
  lab --headless [PATH ...]   execute notebooks instead of serving them: every *.ipynb
      [--jobs N]              under solutions/ by default, each in a fresh python3
      [--timeout SECONDS]     kernel, N at a time (default min(2, CPUs)), at most
                              SECONDS each (default 600); executed copies go to
                              build/executed/; exits 1 if any notebook failed
  test [PYTEST ARGS ...]      ruff check, then pytest -n auto --dist loadgroup (extra args go to pytest); the
                              suite includes nbval over solutions/, the autograder over every
                              assignment's solution (100%) and lab (0), and the labs-in-sync
                              check (-m "not notebook" skips the notebook runs), and a few notebooks
                              in headless Chromium (it installs the browser test's pieces as `e2e`
                              does when it can, else those tests are skipped with the reason)
  record-parity [--python PATH] [--jobs N] [PROGRAM ...]
                              run parity programs (tests/parity/GROUP/NAME.py; all by default)
                              under real TensorFlow and store what each prints as NAME.out
                              (and NAME.status when it raised); PATH is a python that has
                              tensorflow (default: build/tf-venv, created with
                              `pip install tensorflow-cpu` when missing). Needs no .venv;
                              run by hand, never in CI (see tests/parity/README.md)
  e2e [--subset] [PYTEST ARGS ...]
                              the browser test alone: installs Chromium and its driver (apt-get, as
                              root, when missing) and Selenium (the [e2e] extra) if needed, then
                              runs every lab and solution in JupyterLab in headless Chromium, two
                              at a time (--subset: only the few that `test` runs); screenshots go
                              to build/e2e/

Environment: COMPANION_VENV=DIR uses DIR instead of .venv (e.g. a throwaway one).
"""


def main(argv: list[str]) -> int:
    """Check the Python version, then dispatch to one command."""
    problem = python_version_problem(sys.version_info)
    if problem:
        return _fail(problem, code=1)
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(HELP, end="")
        return 0
    command, args = argv[0], argv[1:]
    if command not in COMMANDS:
        return _fail(f"unknown command {command!r}. Expected one of: lab, test, record-parity, e2e. "
                     "Run `python3.11 tasks.py --help` for usage.")
    return COMMANDS[command](args)


def python_version_problem(version: tuple) -> str | None:
    """Say what is wrong when `version` is older than MIN_PYTHON, else None."""
    if tuple(version[:2]) >= MIN_PYTHON:
        return None
    found = ".".join(str(part) for part in version[:3])
    return (f"companion needs Python {MIN_PYTHON[0]}.{MIN_PYTHON[1]} or newer, but this is Python {found} "
            f"({sys.executable}). Install Python 3.11 (python.org, your package manager or "
            "`pyenv install 3.11`) and run `python3.11 tasks.py ...`.")


def cmd_lab(args: list[str]) -> int:
    """Serve the learner's copies of labs/ (my-labs/) in JupyterLab, or execute notebooks with --headless."""
    if "--headless" in args:
        find_notebooks(_headless_parser().parse_args(args).paths)  # reject bad arguments before the set-up
        venv = ensure_venv()
        execute = [str(venv_bin(venv, "python")), str(ROOT / "tasks.py"), "_execute", *args]
        return _run(execute, venv, cwd=Path.cwd())  # the venv's python has nbclient
    venv = ensure_venv()
    folder = f"{LEARNER_DIR}/"
    if (ROOT / "labs").is_dir():
        for line in sync_learner_labs(ROOT / "labs", ROOT / LEARNER_DIR):
            print(f"[lab] {line}")
    else:
        print("[lab] labs/ does not exist yet (it is generated from solutions/); serving the repo root.")
        folder = "."
    command = jupyter_lab_command(venv, folder, args)
    print(f"[lab] jupyter {' '.join(command[1:])}", flush=True)
    os.chdir(ROOT)
    os.execve(command[0], command, venv_env(venv))


def jupyter_lab_command(venv: Path, folder: str, args: list[str]) -> list[str]:
    """`tasks.py lab`'s `jupyter lab` command line (the browser test starts the same); writes the settings."""
    write_lab_settings(venv)
    if hasattr(os, "geteuid") and os.geteuid() == 0 and "--allow-root" not in args:
        args = [*args, "--allow-root"]  # containers often run as root; Jupyter refuses it otherwise
    return [str(venv_bin(venv, "jupyter")), "lab", folder, *args]


LAB_SETTINGS = {"@jupyterlab/apputils-extension:notification": {"fetchNews": "false",
                                                                "checkForUpdates": False}}


def write_lab_settings(venv: Path) -> Path:
    """JupyterLab settings of the venv (not the learner's home): no news pop-up, no update checks."""
    path = venv / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    try:
        settings = json.loads(path.read_text())
    except (OSError, ValueError):
        settings = {}
    for plugin, values in LAB_SETTINGS.items():
        settings.setdefault(plugin, {}).update(values)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}")  # two browser-test workers may write at once
    partial.write_text(json.dumps(settings, indent=2) + "\n")
    partial.replace(path)
    return path


LEARNER_DIR = "my-labs"
DELIVERED = ".companion-delivered.json"


def sync_learner_labs(labs: Path, mine: Path, today: str | None = None) -> list[str]:
    """Bring new and updated labs into the learner's folder without ever overwriting their work.

    `mine/.companion-delivered.json` records the hash of each lab as last delivered. A lab the
    learner does not have yet is copied; a delivered lab that changed upstream replaces the
    learner's copy only if that copy is still exactly what was delivered; otherwise it arrives
    beside it as `NAME (updated YYYY-MM-DD).ipynb`. A lab the learner deleted is not brought back.
    Returns one line per file written.
    """
    today = today or time.strftime("%Y-%m-%d")
    record = mine / DELIVERED
    try:
        delivered = json.loads(record.read_text())
    except (OSError, ValueError):
        delivered = {}
    lines = []
    for lab in sorted(labs.rglob("*.ipynb")):
        if ".ipynb_checkpoints" in lab.parts:
            continue
        relative, data = lab.relative_to(labs).as_posix(), lab.read_bytes()
        digest, target = hashlib.sha256(data).hexdigest(), mine / lab.relative_to(labs)
        line = _deliver(target, data, digest, delivered.get(relative), today)
        if line:
            lines.append(line)
        delivered[relative] = digest
    mine.mkdir(parents=True, exist_ok=True)
    record.write_text(json.dumps(delivered, indent=1, sort_keys=True) + "\n")
    return lines


def _deliver(target: Path, data: bytes, digest: str, previous: str | None, today: str) -> str | None:
    if not target.exists():
        if previous is not None:
            return None  # delivered before and deleted by the learner: respect that
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        return f"new lab {_short(target)}"
    if digest == previous:
        return None
    if previous is not None and hashlib.sha256(target.read_bytes()).hexdigest() == previous:
        target.write_bytes(data)  # the learner never changed it: take the update
        return f"updated {_short(target)}"
    if hashlib.sha256(target.read_bytes()).hexdigest() == digest:
        return None
    copy = target.with_name(f"{target.stem} (updated {today}).ipynb")
    copy.write_bytes(data)
    return f"{_short(target)} has your changes, so the updated lab is beside it: {_short(copy)}"


def cmd_test(args: list[str]) -> int:
    """Lint with ruff, then run pytest in parallel (both always run); non-zero on any failure."""
    venv = ensure_venv()
    problem = ensure_browser(venv)  # CI runs a few notebooks in the browser (tests/e2e) when it can
    if problem:
        print(f"[set-up] The browser tests will be skipped: {problem}.", flush=True)
    lint_ok = _lint(venv)
    tests_ok = _pytest(venv, args)
    if not lint_ok:
        return _fail("ruff found problems (listed above). Fix them, or run "
                     "`.venv/bin/ruff check --fix` for the fixable ones.", code=1)
    return 0 if tests_ok else 1


def cmd_execute(args: list[str]) -> int:
    """Hidden `_execute`, run by the venv's python: execute notebooks in parallel kernels."""
    options = _headless_parser().parse_args(args)
    notebooks = find_notebooks(options.paths)
    if not notebooks:
        where = " ".join(options.paths) or "solutions/"
        print(f"[headless] No notebooks found: no *.ipynb under {where}. Nothing to run.")
        return 0
    try:
        import nbclient  # noqa: F401 - only checks that the executor's packages are here
    except ImportError as error:
        return _fail(f"{error}. Run `python3.11 tasks.py lab --headless`, which installs nbclient in .venv.")
    print(f"[headless] Executing {len(notebooks)} notebook(s), {options.jobs} at a time, "
          f"timeout {options.timeout:g} s each; executed copies in {options.out}", flush=True)
    with ProcessPoolExecutor(max_workers=options.jobs) as pool:
        futures = [pool.submit(execute_notebook, nb, options.out, options.timeout) for nb in notebooks]
        failed = sum(_report(*future.result()) for future in as_completed(futures))
    print(f"[headless] {len(notebooks) - failed} passed, {failed} failed")
    return 1 if failed else 0


def execute_notebook(path: Path, out_dir: Path, timeout: float) -> tuple[str, float, str | None]:
    """Run one notebook in a fresh python3 kernel, save the executed copy; return (name, seconds, error)."""
    import nbformat
    from nbclient import NotebookClient

    start, notebook, error = time.monotonic(), None, None
    try:
        notebook = nbformat.read(path, as_version=4)
        NotebookClient(notebook, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}},
                       extra_arguments=["--log-level=ERROR"],  # no transport warnings; errors still show
                       # a busy machine may take over nbclient's default 60 s to start a kernel: the
                       # notebook's own budget bounds the start too
                       startup_timeout=max(60, int(timeout)),
                       timeout_func=lambda cell: max(1, int(start + timeout - time.monotonic()))).execute()
    except Exception as exc:  # any failure (cell error, timeout, dead kernel, bad JSON) is reported
        error = f"{type(exc).__name__}: {exc}"
    if notebook is not None:
        (out_dir / _display_name(path)).parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(notebook, out_dir / _display_name(path))
    return str(_display_name(path)), time.monotonic() - start, error


def find_notebooks(paths: list[str]) -> list[Path]:
    """Every *.ipynb named by `paths` (files or folders); solutions/ when none."""
    found: list[Path] = []
    for raw in paths or [str(ROOT / "solutions")]:
        path = Path(raw).resolve()
        if path.is_dir():
            found += [nb for nb in path.rglob("*.ipynb") if ".ipynb_checkpoints" not in nb.parts]
        elif path.suffix == ".ipynb" and path.is_file():
            found.append(path)
        elif paths:
            raise SystemExit(f"tasks.py: error: {raw!r} is not a notebook or a folder. "
                             "Expected a path to an existing *.ipynb file or a folder of them.")
    return sorted(set(found))


def ensure_venv() -> Path:
    """Create or update the virtual environment; return its folder."""
    venv = venv_dir()
    digest = pyproject_digest()
    reason = install_reason(venv, digest)
    if reason is None:
        print(f"[set-up] {_short(venv)} is up to date (pyproject.toml unchanged).", flush=True)
        _compile_bytecode(venv)
        return venv
    print(f"[set-up] Installing companion[{EXTRAS}] into {_short(venv)}: {reason}.", flush=True)
    start = time.monotonic()
    if not venv_python_works(venv):
        _create_venv(venv)
    _install(venv)
    (venv / STAMP_NAME).write_text(digest + "\n")
    _compile_bytecode(venv)
    print(f"[set-up] Done in {time.monotonic() - start:.0f} s.", flush=True)
    return venv


def _compile_bytecode(venv: Path) -> None:
    """Writes the bytecode of companion and graders (only files changed since): they are installed
    in place, so without it a shell that sets PYTHONDONTWRITEBYTECODE, or a grading sandbox that
    cannot write the repository, compiles their source on every import (about a quarter second)."""
    done = subprocess.run([str(venv_bin(venv, "python")), "-m", "compileall", "-q", "-j", "0", "companion",
                           "graders"], cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:  # not fatal: imports then compile the source, only slower
        print(f"[set-up] note: could not write companion's bytecode (is the folder writable?): "
              f"{(done.stdout + done.stderr).strip()[-300:]}", flush=True)


def install_reason(venv: Path, digest: str) -> str | None:
    """Why the venv needs (re)installing, or None when the stamp matches and python works."""
    if not venv.exists():
        return f"no virtual environment at {venv}"
    if not venv_python_works(venv):
        return f"the python in {venv} is missing or does not run"
    stamp = venv / STAMP_NAME
    if not stamp.is_file() or stamp.read_text().strip() != digest:
        return "pyproject.toml changed since the last install"
    return None


def venv_python_works(venv: Path) -> bool:
    """Whether the venv's python starts and is new enough."""
    check = f"import sys; sys.exit(sys.version_info[:2] < {MIN_PYTHON!r})"
    try:
        return subprocess.run([str(venv_bin(venv, "python")), "-c", check], capture_output=True,
                              timeout=120).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def pyproject_digest() -> str:
    """SHA-256 of pyproject.toml plus the extras installed, recorded in the stamp file."""
    return hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + EXTRAS.encode()).hexdigest()


def venv_dir() -> Path:
    """The venv folder: $COMPANION_VENV, else .venv at the repo root."""
    return Path(os.environ.get("COMPANION_VENV") or ROOT / ".venv").absolute()


def venv_bin(venv: Path, name: str) -> Path:
    """Path of an executable inside the venv."""
    return venv / ("Scripts" if os.name == "nt" else "bin") / name


def venv_env(venv: Path) -> dict[str, str]:
    """os.environ as if the venv were activated, preferring its Jupyter kernelspecs."""
    env = dict(os.environ, VIRTUAL_ENV=str(venv), JUPYTER_PREFER_ENV_PATH="1")
    env["PATH"] = os.pathsep.join([str(venv_bin(venv, "")), env.get("PATH", "")])
    env.pop("PYTHONHOME", None)
    return env


def _create_venv(venv: Path) -> None:
    if venv.exists() and any(venv.iterdir()) and not (venv / "pyvenv.cfg").exists():
        raise SystemExit(f"tasks.py: error: {venv} exists and is not a virtual environment. "
                         "Remove it, or point COMPANION_VENV at another folder.")
    print(f"[set-up] python -m venv {_short(venv)} (Python {sys.version.split()[0]}); "
          "a first install takes a minute or two.", flush=True)
    _quiet([sys.executable, "-m", "venv", "--clear", str(venv)],
           "could not create the virtual environment. On Debian/Ubuntu install python3.11-venv.")


def _install(venv: Path) -> None:
    python = str(venv_bin(venv, "python"))
    print(f"[set-up] pip install -e \".[{EXTRAS}]\" (quiet)", flush=True)
    _quiet([python, "-m", "pip", "install", "-q", "--disable-pip-version-check", "-e", f".[{EXTRAS}]"],
           "pip could not install the project. Read pip's error above, fix it (network? pyproject.toml?) "
           "and run the command again.")
    _quiet([python, "-m", "ipykernel", "install", "--sys-prefix", "--name", "python3"],
           "could not register the venv's python3 Jupyter kernel.")


def _quiet(command: list[str], hint: str) -> None:
    """Run a set-up step, showing its output only if it fails."""
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        print(done.stdout + done.stderr, file=sys.stderr)
        raise SystemExit(f"tasks.py: error: `{' '.join(command)}` exited with {done.returncode}: {hint}")


def _run(command: list[str], venv: Path, cwd: Path = ROOT) -> int:
    return subprocess.run(command, cwd=cwd, env=venv_env(venv)).returncode


def _lint(venv: Path) -> bool:
    targets = [name for name in LINT_TARGETS if (ROOT / name).exists()]
    print(f"[test 1/2] Lint: ruff check {' '.join(targets)}", flush=True)
    return _run([str(venv_bin(venv, "python")), "-m", "ruff", "check", *targets], venv) == 0


def _pytest(venv: Path, args: list[str]) -> bool:
    workers = [] if any(arg.startswith(("-n", "--numprocesses")) for arg in args) else ["-n", "auto"]
    if not any(arg.startswith(("--dist", "-d")) for arg in args):  # module fixtures stay on one worker
        workers += ["--dist", "loadgroup"]
    print(f"[test 2/2] Tests: pytest {' '.join([*workers, *args])}", flush=True)
    code = _run([str(venv_bin(venv, "python")), "-m", "pytest", *workers, *args], venv)
    if code == 5:
        _fail("pytest collected no tests. Expected at least one test under tests/; "
              "check the paths and -k/-m filters you passed.")
    return code == 0


BROWSER = {"chromium": "/usr/bin/chromium", "chromium-driver": "/usr/bin/chromedriver"}  # package: program


def cmd_e2e(args: list[str]) -> int:
    """Install what the browser test needs (idempotent), then run only it: every notebook, 2 at a time."""
    venv = ensure_venv()
    problem = ensure_browser(venv)
    if problem:
        return _fail(f"{problem}. Then run `python3.11 tasks.py e2e` again.")
    write_lab_settings(venv)
    command, env = e2e_command(str(venv_bin(venv, "python")), args)
    print(f"[e2e] {' '.join(['pytest', *command[3:]])} (JupyterLab + headless Chromium, "
          f"{'the CI subset' if 'COMPANION_E2E_ALL' not in env else 'every lab and solution'}; "
          "screenshots in build/e2e/)", flush=True)
    return subprocess.run(command, cwd=ROOT, env=dict(venv_env(venv), **env)).returncode


def e2e_command(python: str, args: list[str]) -> tuple[list[str], dict[str, str]]:
    """pytest's command line and extra environment for `tasks.py e2e ARGS`.

    Every notebook (COMPANION_E2E_ALL=1) unless --subset (what CI runs); two pytest workers, each
    with its own JupyterLab and Chromium, unless ARGS choose the workers (-n, -p no:xdist).
    """
    env = {"COMPANION_E2E_REQUIRED": "1"}
    if "--subset" in args:
        args = [arg for arg in args if arg != "--subset"]
    else:
        env["COMPANION_E2E_ALL"] = "1"
    chosen = any(arg.startswith(("-n", "--numprocesses", "--dist")) or arg == "no:xdist" for arg in args)
    workers = [] if chosen else ["-n", "2"]
    return [python, "-m", "pytest", *workers, "-m", "e2e", "tests/e2e", *args], env


def ensure_browser(venv: Path) -> str | None:
    """Install what the browser test lacks (idempotent): Chromium and its driver with apt-get when
    root, Selenium (the [e2e] extra) in the venv. None when all is there, else why not."""
    missing = [package for package, path in BROWSER.items() if not os.access(path, os.X_OK)]
    if missing:
        if not (hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get")):
            return (f"the browser test needs {' and '.join(missing)} ({', '.join(BROWSER.values())}). "
                    f"Install them (Debian/Ubuntu: sudo apt-get install {' '.join(BROWSER)})")
        print(f"[set-up] apt-get install {' '.join(missing)} for the browser test (quiet; a minute or two)",
              flush=True)
        apt_env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        for command in (["apt-get", "update", "-q"], ["apt-get", "install", "-y", "-q", *missing]):
            done = subprocess.run(command, capture_output=True, text=True, env=apt_env)
            if done.returncode != 0:
                print(done.stdout[-3000:] + done.stderr[-3000:], file=sys.stderr)
                return (f"`{' '.join(command)}` exited with {done.returncode}; "
                        f"install {' '.join(missing)} by hand")
    python = str(venv_bin(venv, "python"))
    if subprocess.run([python, "-c", "import selenium"], capture_output=True).returncode != 0:
        print(f"[set-up] pip install -e \".[{EXTRAS},e2e]\" (selenium, for the browser test; quiet)",
              flush=True)
        done = subprocess.run([python, "-m", "pip", "install", "-q", "--disable-pip-version-check", "-e",
                               f".[{EXTRAS},e2e]"], cwd=ROOT, capture_output=True, text=True)
        if done.returncode != 0:
            print(done.stdout[-3000:] + done.stderr[-3000:], file=sys.stderr)
            return "pip could not install the [e2e] extra (selenium; its error is above)"
    return None


PARITY_DIR = ROOT / "tests" / "parity"
TF_VENV = ROOT / "build" / "tf-venv"
# TensorFlow quiet and deterministic: no C++ log lines, no GPU, no oneDNN reordering of float sums.
PARITY_ENV = {"TF_CPP_MIN_LOG_LEVEL": "3", "CUDA_VISIBLE_DEVICES": "", "TF_ENABLE_ONEDNN_OPTS": "0",
              "PYTHONHASHSEED": "0", "PYTHONUNBUFFERED": "1", "PYTHONWARNINGS": "ignore"}


def cmd_record_parity(args: list[str]) -> int:
    """Run parity programs under real TensorFlow; store each one's stdout (and how it ended) beside it."""
    options = _record_parity_parser().parse_args(args)
    programs = find_parity_programs(options.programs)
    if not programs:
        return _fail(f"no parity programs found under {_short(PARITY_DIR)}. Expected files like "
                     "tests/parity/GROUP/NAME.py.")
    python = Path(options.python) if options.python else ensure_tf_venv()
    if not python.exists():
        return _fail(f"--python {options.python} does not exist. Expected the python of an environment "
                     "that has tensorflow, e.g. --python /path/to/venv/bin/python.")
    print(f"[record-parity] {len(programs)} program(s) with {python}, {options.jobs} at a time", flush=True)
    with ProcessPoolExecutor(max_workers=options.jobs) as pool:
        futures = [pool.submit(record_parity_program, str(python), program) for program in programs]
        results = [future.result() for future in as_completed(futures)]
    for name, seconds, ended in sorted(results):
        print(f"{'ok' if ended is None else 'RAISED':8} {name}  ({seconds:.1f} s)"
              + (f"  {ended}" if ended else ""), flush=True)
    raised = sum(ended is not None for _, _, ended in results)
    print(f"[record-parity] recorded {len(results)}; {raised} ended with an exception (stored in .status)")
    return 0


def find_parity_programs(paths: list[str]) -> list[Path]:
    """The parity programs named by `paths` (program files or group folders); every one when none."""
    found: list[Path] = []
    for raw in paths or [str(PARITY_DIR)]:
        path = Path(raw).resolve()
        if path.is_dir():
            found += [file for file in path.rglob("*.py") if is_parity_program(file)]
        elif path.is_file() and is_parity_program(path):
            found.append(path)
        else:
            raise SystemExit(f"tasks.py: error: {raw!r} is not a parity program or a folder of them. "
                             "Expected tests/parity/GROUP/NAME.py or a folder such as tests/parity/math.")
    return sorted(set(found))


def is_parity_program(path: Path) -> bool:
    """A program is a .py file one folder below tests/parity (not the runner's own test_*/_* files)."""
    return (path.suffix == ".py" and path.parent.parent == PARITY_DIR.resolve()
            and not path.name.startswith(("test_", "_")))


def record_parity_program(python: str, program: Path, timeout: float = 300) -> tuple[str, float, str | None]:
    """Run one program in a fresh empty folder; write NAME.out, and NAME.status if it raised."""
    import tempfile

    name = f"{program.parent.name}/{program.stem}"
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="parity-") as scratch:
        try:
            # bytes, decoded here: text=True would turn the "\r" of Keras's redrawn progress bar into "\n"
            done = subprocess.run([python, str(program)], cwd=scratch, capture_output=True,
                                  env=dict(os.environ, **PARITY_ENV), timeout=timeout)
            stdout, code, stderr = _text(done.stdout), done.returncode, _text(done.stderr)
        except subprocess.TimeoutExpired as expired:
            stdout, code, stderr = _text(expired.stdout), -1, f"TimeoutExpired: over {timeout:g} s"
    program.with_suffix(".out").write_text(stdout, newline="")
    status, ended = program.with_suffix(".status"), parity_status(code, stderr)
    if ended is None:
        status.unlink(missing_ok=True)
    else:
        status.write_text(ended + "\n")
    return name, time.monotonic() - start, ended


def parity_status(code: int, stderr: str) -> str | None:
    """None for a clean exit, else `raised CLASS` (the exception's class name) or `exit CODE`."""
    if code == 0:
        return None
    for line in reversed(stderr.strip().splitlines()):
        match = re.match(r"^(?:[A-Za-z_][\w.]*\.)?([A-Za-z_]\w*(?:Error|Exception|Exit|Interrupt|Expired))\b",
                         line)
        if match:
            return f"raised {match.group(1)}"
    return f"exit {code}"


def ensure_tf_venv() -> Path:
    """build/tf-venv's python, creating the venv with tensorflow-cpu the first time."""
    python = venv_bin(TF_VENV, "python")
    if venv_python_works(TF_VENV):
        return python
    print(f"[record-parity] Creating {_short(TF_VENV)} with tensorflow-cpu (minutes, once).", flush=True)
    _quiet([sys.executable, "-m", "venv", "--clear", str(TF_VENV)], "could not create the venv.")
    _quiet([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", "tensorflow-cpu"],
           "pip could not install tensorflow-cpu; pass --python with an environment that has tensorflow.")
    return python


def _text(output: bytes | str | None) -> str:
    return output.decode(errors="replace") if isinstance(output, bytes) else output or ""


def _record_parity_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tasks.py record-parity",
                                     description="Record TensorFlow's output of the parity programs.")
    parser.add_argument("--python", help="a python with tensorflow (default: build/tf-venv, made on demand)")
    parser.add_argument("--jobs", type=_positive(int), default=min(2, os.cpu_count() or 1))
    parser.add_argument("programs", nargs="*", help="programs or group folders (default: all)")
    return parser


def _headless_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tasks.py lab --headless", description="Execute notebooks.")
    parser.add_argument("--headless", action="store_true", help="execute instead of serving")
    parser.add_argument("--jobs", type=_positive(int), default=min(2, os.cpu_count() or 1))
    parser.add_argument("--timeout", type=_positive(float), default=600.0, help="seconds per notebook")
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "executed", help=argparse.SUPPRESS)
    parser.add_argument("paths", nargs="*", help="notebooks or folders (default: solutions/)")
    return parser


def _positive(kind: type):
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            value = 0
        if value <= 0:
            raise argparse.ArgumentTypeError(f"expected a positive number, received {text!r}")
        return value
    return parse


def _report(name: str, seconds: float, error: str | None) -> int:
    """Print one notebook's line (and its error); return 1 if it failed."""
    print(f"{'ok' if error is None else 'FAILED':8} {name}  ({seconds:.1f} s)", flush=True)
    if error is None:
        return 0
    lines = re.sub(r"\x1b\[[0-9;]*m", "", error).splitlines()
    if len(lines) > 60:
        lines = lines[:20] + [f"... ({len(lines) - 60} lines cut) ..."] + lines[-40:]
    print("\n".join(("    " + line).rstrip() for line in lines), flush=True)
    return 1


def _display_name(path: Path) -> Path:
    try:
        return path.relative_to(ROOT)
    except ValueError:
        return Path(path.name)


def _short(path: Path) -> str:
    return str(_display_name(path)) if path.is_relative_to(ROOT) else str(path)


def _fail(message: str, code: int = 2) -> int:
    print(f"tasks.py: error: {message}", file=sys.stderr)
    return code


COMMANDS = {"lab": cmd_lab, "test": cmd_test, "record-parity": cmd_record_parity, "e2e": cmd_e2e,
            "_execute": cmd_execute}

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
