"""The persistent compilation cache: its switches, reuse across processes, eviction, bad folders."""

import json
import os
import subprocess
import sys
from pathlib import Path

from companion import _compilation_cache

ROOT = Path(__file__).resolve().parents[1]
PROGRAM = """
import json, warnings
from jax._src import monitoring
hits = []
monitoring.register_event_listener(lambda event, **kw: hits.append(event) if "cache_hits" in event else None)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    import jax
    import companion as tf
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    value = (tf.matmul(x, x) + 1.5).numpy().tolist()
print(json.dumps({"dir": jax.config.jax_compilation_cache_dir, "value": value, "hits": len(hits),
                  "warnings": [str(w.message) for w in caught]}))
"""


def _run(env: dict) -> dict:
    done = subprocess.run([sys.executable, "-c", PROGRAM], env={**os.environ, **env}, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_programs_are_kept_and_reused_by_the_next_process(tmp_path):
    env = {"COMPANION_CACHE_DIR": str(tmp_path / "xla"), "COMPANION_CACHE": "1"}
    first = _run(env)
    assert first["dir"] == str(tmp_path / "xla") and any((tmp_path / "xla").iterdir())
    second = _run(env)
    assert second["value"] == first["value"] == [[8.5, 11.5], [16.5, 23.5]]
    assert second["hits"] > first["hits"]


def test_the_cache_can_be_turned_off(tmp_path):
    result = _run({"COMPANION_CACHE": "0", "COMPANION_CACHE_DIR": str(tmp_path / "xla")})
    assert result["dir"] is None and not (tmp_path / "xla").exists()


def test_corrupted_entries_are_compiled_again_with_the_right_result(tmp_path):
    env = {"COMPANION_CACHE_DIR": str(tmp_path / "xla"), "COMPANION_CACHE": "1"}
    _run(env)
    for entry in (tmp_path / "xla").iterdir():
        if entry.is_file():
            entry.write_bytes(b"not a compiled program")
    assert _run(env)["value"] == [[8.5, 11.5], [16.5, 23.5]]


def test_a_folder_that_cannot_be_written_warns_and_compiles_as_usual(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    result = _run({"COMPANION_CACHE_DIR": str(blocker / "xla"), "COMPANION_CACHE": "1"})
    assert result["value"] == [[8.5, 11.5], [16.5, 23.5]] and result["dir"] is None
    assert any("cannot be written" in warning for warning in result["warnings"])


def test_a_full_folder_loses_its_least_recently_used_entries(tmp_path):
    for number in range(10):
        entry = tmp_path / f"entry-{number}"
        entry.write_bytes(b"x" * 1000)
        os.utime(entry, (1_000_000 + number, 1_000_000 + number))
    removed = _compilation_cache.evict(tmp_path, max_bytes=5000)
    left = sorted(entry.name for entry in tmp_path.iterdir())
    assert removed == 6 and left == [f"entry-{n}" for n in range(6, 10)]
    assert _compilation_cache.evict(tmp_path, max_bytes=5000) == 0


def test_the_folder_is_measured_at_most_every_few_minutes(tmp_path):
    """Measuring tens of thousands of entries took a third of every import; kernels starting within
    `EVICT_EVERY` seconds of the last measurement skip it, and the marker is not counted as an entry."""
    assert _compilation_cache.eviction_due(tmp_path, now=10_000.0)
    assert not _compilation_cache.eviction_due(tmp_path, now=10_001.0)
    assert not _compilation_cache.eviction_due(tmp_path, now=10_000.0 + _compilation_cache.EVICT_EVERY - 1)
    assert _compilation_cache.eviction_due(tmp_path, now=10_000.0 + _compilation_cache.EVICT_EVERY)
    (tmp_path / "entry").write_bytes(b"x" * 100)
    assert _compilation_cache.evict(tmp_path, max_bytes=50) == 1
    assert [entry.name for entry in tmp_path.iterdir()] == [".measured"]


def test_a_reader_never_sees_a_half_written_entry(tmp_path):
    """Kernels share the folder; JAX (without a size limit) wrote entries in place, so a concurrent
    reader could load a torn executable (CI saw a segmentation fault). Entries now appear whole."""
    import threading

    from jax._src.lru_cache import LRUCache

    assert _compilation_cache.make_writes_atomic()
    cache = LRUCache(str(tmp_path), max_size=-1)
    value = os.urandom(1 << 20) * 8  # 8 MiB: long enough to write that a reader can catch it midway
    torn, done = [], threading.Event()

    def read():
        while not done.is_set():
            for key in range(20):
                found = cache.get(f"entry{key}")
                if found is not None and len(found) != len(value):
                    torn.append(len(found))

    reader = threading.Thread(target=read)
    reader.start()
    try:
        for key in range(20):
            cache.put(f"entry{key}", value)
    finally:
        done.set()
        reader.join()
    assert not torn, f"read entries of {torn[:5]} bytes, expected {len(value)}"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(f"entry{k}-cache" for k in range(20))
    assert cache.get("entry3") == value
