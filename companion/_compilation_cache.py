"""A persistent cache of compiled XLA programs, on by default, so a restarted kernel skips compiling.

Every op, tape replay and `function` compiles on its first use; a course notebook pays that again
after every kernel restart. JAX can keep compiled programs on disk: this turns that on for every
program (no minimum compile time), in `$COMPANION_CACHE_DIR`, else `$XDG_CACHE_HOME/companion/xla`,
else `~/.cache/companion/xla`. `COMPANION_CACHE=0` turns it off. The folder is kept under
`$COMPANION_CACHE_MAX_MB` (default 1024) by removing the least recently used entries when
companion is imported, at most every `EVICT_EVERY` seconds (reading the sizes of tens of
thousands of entries took a third of a second of every import; a marker file's time says when the
folder was last measured). Several kernels (and test workers, and grading children) share the folder:
JAX's cache without its own size limit writes an entry in place, so another process could read a
half-written entry (JAX then warns and compiles again); companion makes each write a rename of a finished
temporary file (`make_writes_atomic`), so a reader sees a whole entry or none. An unreadable entry
is recompiled (JAX warns), and a folder that cannot be written is skipped with a warning.
"""

import os
import threading
import time
import warnings
from pathlib import Path

import jax

DEFAULT_MAX_MB = 1024
EVICT_EVERY = 600  # seconds between two measurements of the folder (kernels restart far more often)
_MARKER = ".measured"


def cache_dir() -> Path:
    """Where compiled programs are kept (the folder need not exist yet)."""
    explicit = os.environ.get("COMPANION_CACHE_DIR")
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "companion" / "xla"


def enable() -> Path | None:
    """Turn the cache on unless COMPANION_CACHE=0; the folder used, or None."""
    if os.environ.get("COMPANION_CACHE", "1").strip().lower() in ("0", "false", "no", "off"):
        return None
    folder = cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".probe-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as error:
        warnings.warn(f"companion: the compilation cache folder {folder} cannot be written ({error}); "
                      "programs will be compiled in every session. Set COMPANION_CACHE_DIR to a writable "
                      "folder, or COMPANION_CACHE=0 to silence this.", RuntimeWarning, stacklevel=3)
        return None
    if eviction_due(folder):
        evict(folder, _max_bytes())
    make_writes_atomic()
    jax.config.update("jax_compilation_cache_dir", str(folder))
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)
    jax.config.update("jax_persistent_cache_min_entry_size_bytes", 0)
    return folder


def make_writes_atomic() -> bool:
    """Makes JAX's on-disk cache write each entry to a temporary file and rename it into place.

    Without a size limit JAX's ``LRUCache.put`` writes the entry's bytes in place and takes no lock,
    so a process reading the same key meanwhile gets a torn entry (its checksum fails: a warning
    and a compile). JAX's own size limit would add a lock but scans the whole
    folder on every write. Returns False, changing nothing, where JAX's cache class is not the one
    this was written for (its reads and writes are then JAX's).
    """
    try:
        # deferred: JAX's private module, only touched when caching is on
        from jax._src import lru_cache
    except ImportError:
        return False
    cls = getattr(lru_cache, "LRUCache", None)
    suffix = getattr(lru_cache, "_CACHE_SUFFIX", None)
    original = getattr(cls, "put", None)
    if original is None or not isinstance(suffix, str):
        return False
    if getattr(original, "_companion_atomic", False):
        return True

    def put(self, key, value):
        if getattr(self, "eviction_enabled", True) or not isinstance(self.path, Path) or not key:
            return original(self, key, value)
        path = self.path / f"{key}{suffix}"
        if path.exists():
            return None
        temporary = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        try:
            temporary.write_bytes(value)
            os.replace(temporary, path)
        finally:
            if temporary.exists():
                temporary.unlink()
        return None

    put._companion_atomic = True
    cls.put = put
    return True


def eviction_due(folder: Path, now: float | None = None) -> bool:
    """Whether the folder was last measured `EVICT_EVERY` seconds ago or more (or never); when it
    is, the marker is touched at once, so kernels starting together measure it once."""
    marker = folder / _MARKER
    now = time.time() if now is None else now
    try:
        if now - marker.stat().st_mtime < EVICT_EVERY:
            return False
    except OSError:
        pass
    try:
        marker.touch()
        os.utime(marker, (now, now))
    except OSError:
        pass  # a folder whose marker cannot be written is measured every time
    return True


def evict(folder: Path, max_bytes: int) -> int:
    """Delete the least recently used entries until the folder holds at most 80% of `max_bytes`."""
    entries = []
    with os.scandir(folder) as found:
        for entry in found:
            if entry.name == _MARKER:
                continue
            try:
                if not entry.is_file(follow_symlinks=False):
                    continue
                stat = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            entries.append((max(stat.st_atime, stat.st_mtime), stat.st_size, entry.path))
    total = sum(size for _, size, _ in entries)
    removed = 0
    if total <= max_bytes:
        return removed
    for _, size, path in sorted(entries):  # oldest use first
        if total <= int(max_bytes * 0.8):
            break
        try:
            os.unlink(path)
        except OSError:
            continue
        total -= size
        removed += 1
    return removed


def _max_bytes() -> int:
    try:
        megabytes = float(os.environ.get("COMPANION_CACHE_MAX_MB", DEFAULT_MAX_MB))
    except ValueError:
        megabytes = DEFAULT_MAX_MB
    return int(max(megabytes, 1) * 2**20)
