"""The sandbox around a child process: Linux namespaces and an allow-listed root, else a plain child.

Modes (chosen once per process by `sandbox_mode`, or forced with $COMPANION_GRADER_SANDBOX):

- ``root`` (the grader runs as root): new mount, network, PID, IPC and UTS namespaces; the child
  runs in a fresh tmpfs root (chroot) holding only an allow-list, bound read-only: /usr and its
  /bin, /lib links, a few /etc files, the Python installation, the venv and the repository's
  `companion` and `graders` packages (hidden specs covered). It gets a private /dev (null, zero,
  full, random, urandom, tty), /proc of its own PID namespace, and private tmpfs /tmp, /dev/shm
  and work folder; then it drops to uid/gid 65534 (nobody) with no capabilities and
  no_new_privs. The host's other files (the repository's .git and solutions, caches, reports,
  other submissions), its Unix sockets and SysV IPC objects do not exist for the child.
- ``userns`` (not root, unprivileged user namespaces allowed): the same root in a new user
  namespace where the grader's user is mapped to root; the child keeps that user id but loses every
  capability, so it cannot undo the mounts, and can read only what the grader's user can read.
- ``none`` (no `unshare`, or namespaces refused): a plain child in its own session with the same
  resource limits and a private working directory. NOT enforced then: hidden files are readable by
  absolute path, the network is open, files outside the work dir can be written, a double-forked
  daemon can outlive the grading, and the child can signal the grader's own processes.
"""

from __future__ import annotations

import functools
import os
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from graders._errors import SandboxError

MODES = ("root", "userns", "none")
NOBODY = 65534
DEVICES = ("null", "zero", "full", "random", "urandom", "tty")
STDIO = ("stdin", "stdout", "stderr")
_NAMESPACES = ["--mount", "--net", "--pid", "--ipc", "--uts", "--fork", "--kill-child", "--mount-proc"]


@dataclass(frozen=True)
class Layout:
    """Paths of one child's sandbox: its work dir, a root-only staging dir, and what to hide or expose."""

    work: Path
    stage: Path
    hidden: tuple[Path, ...]
    needed: tuple[Path, ...]


@functools.cache
def sandbox_mode() -> str:
    """The strongest mode that works here, or the one named by $COMPANION_GRADER_SANDBOX."""
    forced = os.environ.get("COMPANION_GRADER_SANDBOX", "auto")
    if forced not in (*MODES, "auto"):
        raise SandboxError(f"COMPANION_GRADER_SANDBOX must be one of auto, {', '.join(MODES)}. "
                           f"Received: {forced!r}")
    if forced != "auto":
        return forced
    if not (shutil.which("unshare") and shutil.which("mount") and shutil.which("setpriv")):
        return "none"
    if os.geteuid() == 0 and _probe(_NAMESPACES):
        return "root"
    return "userns" if _probe(["--user", "--map-root-user", *_NAMESPACES]) else "none"


def _probe(flags: list[str]) -> bool:
    try:
        return subprocess.run(["unshare", *flags, "true"], capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def child_command(mode: str, layout: Layout, python_argv: list[str], drop: bool = True) -> list[str]:
    """The argv that starts `python_argv` inside the sandbox of `mode`.

    `drop=False` keeps the privileges it has inside its namespaces: only for the warm pool's zygote,
    which runs no submission code and drops them in each child it forks (see `_zygote`).
    """
    if mode == "none":
        return python_argv
    drop_argv = ["setpriv", "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs"]
    flags = _NAMESPACES
    if mode == "root":
        drop_argv[1:1] = [f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
    else:
        flags = ["--user", "--map-root-user", *_NAMESPACES]
    new_root = layout.stage / "root"
    inside = f"cd {_q(layout.work)} && exec {_join([*(drop_argv if drop else []), *python_argv])}"
    chroot = shutil.which("chroot") or shutil.which("chroot", path="/usr/sbin:/sbin") or "chroot"
    enter = f"{_q(chroot)} {_q(new_root)} /bin/sh -c {_q(inside)}"  # not exec: python must not be PID 1
    steps = ["set -e", *mount_steps(layout, new_root), enter]
    return ["unshare", *flags, "sh", "-c", "\n".join(steps)]


def mount_steps(layout: Layout, new_root: Path) -> list[str]:
    """Shell lines that build the child's file system from an allow-list, in a fresh tmpfs root.

    Only these exist in the child's root: the system's /usr (and the /bin, /lib, ... links into it),
    a few files of /etc, the Python installation and the venv, the repository's `companion` and
    `graders` packages (its hidden specs covered), a private /dev and /proc, and empty tmpfs /tmp
    and work folders. Everything else of the host (the repository's .git and solutions, caches,
    reports, sockets, other users' files) simply is not there. All but /tmp, /dev/shm and the
    work folder is read-only.
    """
    root = _q(new_root)
    steps = [f"mkdir -p {root} && mount -t tmpfs -o size=16m,mode=755 tmpfs {root}",
             f"mkdir -p {root}/tmp && mount -t tmpfs -o size=64m,mode=1777 tmpfs {root}/tmp"]  # before binds
    for link in SYSTEM_LINKS:
        if os.path.islink(link):
            steps.append(f"ln -s {_q(os.readlink(link))} {_q(str(new_root) + link)}")
    for path in allowed_paths(layout.needed):
        target = _q(f"{new_root}{path}")
        if path.is_dir():
            steps.append(f"mkdir -p {target} && mount --rbind {_q(path)} {target}")
        else:
            steps.append(f"mkdir -p {_q(f'{new_root}{path.parent}')} && touch {target} && "
                         f"mount --bind {_q(path)} {target}")
    steps += _device_steps(new_root)
    steps += [f"mkdir -p {root}/proc && mount -t proc proc {root}/proc",
              f"mkdir -p {_q(f'{new_root}{layout.work}')} && "
              f"mount -t tmpfs -o size=512m,mode=1777 tmpfs {_q(f'{new_root}{layout.work}')}"]
    steps += [_hide_step(new_root, path) for path in layout.hidden]
    steps.append(_read_only_step(new_root, layout.work))
    return steps


SYSTEM_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
ETC_FILES = ("/etc/passwd", "/etc/group", "/etc/nsswitch.conf", "/etc/ld.so.cache", "/etc/localtime",
             "/etc/mime.types")
ETC_DIRS = ("/etc/fonts", "/etc/alternatives")


def allowed_paths(needed: tuple[Path, ...]) -> list[Path]:
    """What is bound into the child's root: system folders, a few /etc files, and `needed`."""
    system = [Path(link) for link in SYSTEM_LINKS if os.path.isdir(link) and not os.path.islink(link)]
    etc = [Path(f) for f in ETC_FILES if os.path.isfile(f)] + [Path(d) for d in ETC_DIRS if os.path.isdir(d)]
    paths = [Path("/usr"), *system, *needed, *etc]
    real = sorted({Path(os.path.realpath(path)) for path in paths})
    return [path for path in real if not any(other in path.parents for other in real)]


def _device_steps(new_root: Path) -> list[str]:
    """A private /dev with only harmless devices, so no disk or terminal of the host can be opened."""
    dev = _q(f"{new_root}/dev")
    steps = [f"mkdir -p {dev} && mount -t tmpfs -o size=64m,mode=755 tmpfs {dev}"]
    steps += [f"touch {dev}/{name} && mount --bind /dev/{name} {dev}/{name}" for name in DEVICES]
    steps += [f"mkdir {dev}/shm && mount -t tmpfs -o size=64m,mode=1777 tmpfs {dev}/shm",
              f"ln -s /proc/self/fd {dev}/fd"]
    steps += [f"ln -s /proc/self/fd/{fd} {dev}/{name}" for fd, name in enumerate(STDIO)]
    return steps


def _hide_step(new_root: Path, path: Path) -> str:
    """Cover a hidden path that lies inside an allowed folder (e.g. graders/_hidden)."""
    target = _q(f"{new_root}{path}")
    if path.is_dir():
        return f"[ ! -d {target} ] || mount -t tmpfs -o size=4k,mode=000 tmpfs {target}"
    return f"[ ! -f {target} ] || mount --bind /dev/null {target}"


def _read_only_step(new_root: Path, work: Path) -> str:
    """Remount every mount of the new root read-only except /proc, /tmp, /dev/shm and the work dir."""
    keep = "|".join(f"{new_root}{part}" for part in ("/proc", "/proc/*", "/tmp", "/dev/shm", work))
    return ("for m in $(awk '{print $5}' /proc/self/mountinfo); do case \"$m\" in "
            f"{keep}) ;; {new_root}*) mount -o remount,bind,ro \"$m\" 2>/dev/null || true;; esac; done")


def needed_paths(root: Path) -> tuple[Path, ...]:
    """What the child must reach: the repository's packages, the venv and the Python installation."""
    paths = {root / "companion", root / "graders", Path(sys.prefix), Path(sys.base_prefix),
             Path(sys.executable).parent}
    real = sorted({Path(os.path.realpath(path)) for path in paths})
    return tuple(path for path in real if not any(other in path.parents for other in real))


def describe(mode: str) -> str:
    """One line for the CLI and results.json saying what the sandbox enforces."""
    return {
        "root": "namespaces (mount, network, PID, IPC, UTS); an allow-listed read-only root; runs as nobody",
        "userns": "user namespace (mount, network, PID, IPC, UTS); an allow-listed read-only root; no "
                  "privileges",
        "none": "NO SANDBOX (unshare unavailable): only resource limits and a private work dir are enforced; "
                "hidden files are readable and the network is open",
    }[mode]


def _q(path) -> str:
    return shlex.quote(str(path))


def _join(argv: list[str]) -> str:
    return " ".join(shlex.quote(str(arg)) for arg in argv)
