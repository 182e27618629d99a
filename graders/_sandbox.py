"""The sandbox around a child process: Linux namespaces and mounts when available, else a plain child.

Modes (chosen once per process by `sandbox_mode`, or forced with $COMPANION_GRADER_SANDBOX):

- ``root`` (the grader runs as root): new mount, network and PID namespaces; every mount read-only;
  a private /dev (null, zero, full, random, urandom, tty) and private tmpfs work dir and /dev/shm;
  hidden paths covered by empty, unreadable tmpfs mounts (files by /dev/null); then the child drops
  to uid/gid 65534 (nobody) with no capabilities and no_new_privs. Directories that nobody cannot
  enter but the child needs (e.g. a Python under /root) are veiled: an empty tmpfs covers them and
  only the needed folders are bound back in.
- ``userns`` (not root, unprivileged user namespaces allowed): the same layers in a new user
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
_NAMESPACES = ["--mount", "--net", "--pid", "--fork", "--kill-child", "--mount-proc"]


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


def child_command(mode: str, layout: Layout, python_argv: list[str]) -> list[str]:
    """The argv that starts `python_argv` inside the sandbox of `mode`."""
    if mode == "none":
        return python_argv
    drop = ["setpriv", "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs"]
    flags = _NAMESPACES
    if mode == "root":
        drop[1:1] = [f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
    else:
        flags = ["--user", "--map-root-user", *_NAMESPACES]
    steps = ["set -e", *mount_steps(mode, layout), f"cd {_q(layout.work)}", _join([*drop, *python_argv])]
    script = "\n".join(steps)
    return ["unshare", *flags, "sh", "-c", script]


def mount_steps(mode: str, layout: Layout) -> list[str]:
    """Shell lines that build the child's view of the file system, strongest layers last."""
    steps = _veil_steps(layout) if mode == "root" else []
    steps += _device_steps(layout.stage / "dev")
    steps.append(f"mount -t tmpfs -o size=512m,mode=1777 tmpfs {_q(layout.work)}")
    steps += [_hide_step(path) for path in layout.hidden if path.exists()]
    steps.append(_read_only_step(layout.work))
    return steps


def _veil_steps(layout: Layout) -> list[str]:
    """Cover each folder nobody cannot enter with an empty tmpfs, binding back only what is needed."""
    steps = []
    for number, (veil, needed) in enumerate(_veils(layout.needed).items()):
        staged = [layout.stage / f"veil{number}-{index}" for index in range(len(needed))]
        pairs = list(zip(staged, needed))
        steps += [f"mkdir -p {_q(spot)} && mount --rbind {_q(path)} {_q(spot)}" for spot, path in pairs]
        steps.append(f"mount -t tmpfs -o size=1m,mode=755 tmpfs {_q(veil)}")
        steps += [f"mkdir -p {_q(path)} && mount --rbind {_q(spot)} {_q(path)}" for spot, path in pairs]
    return steps


def _veils(needed: tuple[Path, ...]) -> dict[Path, list[Path]]:
    """For each needed path behind a folder others cannot enter: that top-most folder -> paths."""
    veils: dict[Path, list[Path]] = {}
    for path in needed:
        blocked = next((p for p in reversed(path.parents) if not _others_can_enter(p)), None)
        if blocked is not None:
            veils.setdefault(blocked, []).append(path)
    return veils


def _others_can_enter(folder: Path) -> bool:
    try:
        return bool(folder.stat().st_mode & 0o001)
    except OSError:
        return False


def _device_steps(stage: Path) -> list[str]:
    """A private /dev with only harmless devices, so no disk or terminal of the host can be opened."""
    steps = [f"mkdir -p {_q(stage)} && mount --rbind /dev {_q(stage)}",
             "mount -t tmpfs -o size=64m,mode=755 tmpfs /dev"]
    steps += [f"touch /dev/{name} && mount --bind {_q(stage / name)} /dev/{name}" for name in DEVICES]
    steps += ["mkdir /dev/shm && mount -t tmpfs -o size=64m,mode=1777 tmpfs /dev/shm",
              "ln -s /proc/self/fd /dev/fd"]
    steps += [f"ln -s /proc/self/fd/{fd} /dev/{name}" for fd, name in enumerate(STDIO)]
    steps.append(f"umount -l {_q(stage)}")
    return steps


def _hide_step(path: Path) -> str:
    if path.is_dir():
        return f"[ ! -d {_q(path)} ] || mount -t tmpfs -o size=4k,mode=000 tmpfs {_q(path)}"
    return f"[ ! -f {_q(path)} ] || mount --bind /dev/null {_q(path)}"


def _read_only_step(work: Path) -> str:
    """Remount every mount read-only except /proc, the work dir and /dev/shm (all private tmpfs)."""
    keep = f"/proc|/proc/*|{work}|/dev/shm"
    return ("for m in $(awk '{print $5}' /proc/self/mountinfo); do case \"$m\" in "
            f"{keep}) ;; *) mount -o remount,bind,ro \"$m\" 2>/dev/null || true;; esac; done")


def needed_paths(root: Path) -> tuple[Path, ...]:
    """What the child must reach: the repository, the venv and the Python installation."""
    paths = {root, Path(sys.prefix), Path(sys.base_prefix), Path(sys.executable).parent}
    real = sorted({Path(os.path.realpath(path)) for path in paths})
    return tuple(path for path in real if not any(other in path.parents for other in real))


def describe(mode: str) -> str:
    """One line for the CLI and results.json saying what the sandbox enforces."""
    return {
        "root": "namespaces (mount, network, PID); read-only files; hidden paths covered; runs as nobody",
        "userns": "user namespace (mount, net, PID); read-only files; hidden paths covered; no privileges",
        "none": "NO SANDBOX (unshare unavailable): only resource limits and a private work dir are enforced; "
                "hidden files are readable and the network is open",
    }[mode]


def _q(path) -> str:
    return shlex.quote(str(path))


def _join(argv: list[str]) -> str:
    return " ".join(shlex.quote(str(arg)) for arg in argv)
