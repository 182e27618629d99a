"""The input-pipeline lecture's experiment on companion.data: naive vs prefetch vs interleave vs map vs cache.

Run: .venv/bin/python benchmarks/input_pipeline.py [--repeats 5] [--plot timeline.png]

An artificial source stands in for files: opening costs 30 ms, reading each element 15 ms
(``time.sleep``, which releases the GIL like real I/O); "training" on an element costs 10 ms.
Each pipeline yields 20 elements. Figures are medians over ``--repeats`` runs (after one
warm-up run). Targets:
- prefetch within 15% of the ideal overlap: open + N * max(read, train) + min(read, train);
- parallel map (4 calls) of a 20 ms Python function at least 1.6x faster than serial map;
- an in-memory pipeline (from_tensor_slices -> shuffle -> batch 64 over 60,000 x 784 float32)
  at least 50% of the speed of NumPy producing the same shuffled batches by fancy indexing.
``--plot`` saves a timeline (which thread did what, when) of one run of each pipeline.
"""

import argparse
import statistics
import threading
import time

import jax
import numpy as np

import companion as tf
import companion.data  # noqa: F401 - tf.data until companion/__init__ imports it
from companion._ops._py_function import py_function

OPEN_S, READ_S, TRAIN_S, MAP_S, ELEMENTS = 0.030, 0.015, 0.010, 0.020, 20
AUTOTUNE = tf.data.AUTOTUNE


class Timeline:
    """Records (kind, thread, start, end) of every open/read/map/train step of a run."""

    def __init__(self):
        self.events, self.origin, self._lock = [], time.perf_counter(), threading.Lock()

    def step(self, kind, seconds):
        start = time.perf_counter()
        time.sleep(seconds)
        with self._lock:
            self.events.append((kind, threading.current_thread().name, start - self.origin,
                                time.perf_counter() - self.origin))


TIMELINE = Timeline()


def artificial(count=ELEMENTS):
    """A source that pays OPEN_S once and READ_S per element (a stand-in for a file)."""
    def generate():
        TIMELINE.step("open", OPEN_S)
        for i in range(count):
            TIMELINE.step("read", READ_S)
            yield i
    return tf.data.Dataset.from_generator(generate, output_signature=tf.TensorSpec([], tf.int64))


def _slow_map(x):
    return py_function(lambda v: (TIMELINE.step("map", MAP_S), v)[1], [x], tf.int64)


def pipelines():
    """The lecture's pipelines, by name."""
    half = ELEMENTS // 2
    fast = tf.data.Dataset.range(ELEMENTS)
    return {
        "naive": artificial(),
        "prefetch": artificial().prefetch(AUTOTUNE),
        "sequential interleave": tf.data.Dataset.range(2).interleave(lambda _: artificial(half),
                                                                     cycle_length=2),
        "parallel interleave": tf.data.Dataset.range(2).interleave(
            lambda _: artificial(half), cycle_length=2, num_parallel_calls=AUTOTUNE),
        "serial map (20 ms)": fast.map(_slow_map),
        "parallel map (20 ms, 4 calls)": fast.map(_slow_map, num_parallel_calls=4),
        "map + cache (epoch 2)": artificial().map(_slow_map).cache(),
    }


def run_epoch(dataset):
    """Iterates once, training TRAIN_S per element; returns seconds and the timeline's events."""
    global TIMELINE
    TIMELINE = Timeline()
    start = time.perf_counter()
    for _ in dataset:
        TIMELINE.step("train", TRAIN_S)
    return time.perf_counter() - start, TIMELINE.events


def time_pipelines(repeats):
    """Median seconds per pipeline and one timeline each."""
    results = {}
    for name, dataset in pipelines().items():
        run_epoch(dataset)  # warm-up (and fills the cache of the cache pipeline)
        runs = [run_epoch(dataset) for _ in range(repeats)]
        results[name] = (statistics.median(t for t, _ in runs), runs[len(runs) // 2][1])
    return results


def in_memory(repeats, batch=64):
    """Seconds per epoch: companion's fused pipeline (Tensors, NumPy) vs NumPy fancy indexing."""
    rng = np.random.default_rng(0)
    x = rng.random((60000, 784), dtype=np.float32)
    y = rng.integers(0, 10, 60000)
    ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(60000).batch(batch)

    def numpy_epoch():
        order = rng.permutation(len(x))
        for i in range(0, len(x), batch):
            idx = order[i:i + batch]
            x[idx], y[idx]

    def numpy_views():
        for i in range(0, len(x), batch):
            x[i:i + batch], y[i:i + batch]

    def epoch(iterate):
        start, last = time.perf_counter(), None
        for element in iterate():
            last = element  # JAX computes asynchronously: wait for the last batch before stopping
        jax.block_until_ready(jax.tree_util.tree_map(lambda t: getattr(t, "_value", t), last))
        return time.perf_counter() - start

    sides = {"numpy fancy-index batches": lambda: numpy_epoch() or (),
             "numpy contiguous views": lambda: numpy_views() or (),
             "companion (Tensors)": lambda: ds, "companion (as_numpy_iterator)": ds.as_numpy_iterator}
    times = {name: [] for name in sides}
    for iterate in sides.values():
        epoch(iterate)  # warm-up: compiles the gather
    for _ in range(repeats):
        for name, iterate in sides.items():
            times[name].append(epoch(iterate))
    return {name: statistics.median(ts) for name, ts in times.items()}


def report(results, memory):
    n = ELEMENTS
    ideal = OPEN_S + n * max(READ_S, TRAIN_S) + min(READ_S, TRAIN_S)
    print(f"{'pipeline':32s} {'median':>9s}")
    for name, (seconds, _) in results.items():
        print(f"{name:32s} {seconds * 1e3:7.0f} ms")
    prefetch = results["prefetch"][0]
    speedup = results["serial map (20 ms)"][0] / results["parallel map (20 ms, 4 calls)"][0]
    print(f"\nprefetch vs ideal overlap ({ideal * 1e3:.0f} ms): {prefetch / ideal - 1:+.1%} "
          "(target: within 15%)")
    print(f"parallel map speed-up over serial map: {speedup:.2f}x (target >= 1.6x)")
    base = memory["numpy fancy-index batches"]
    print("\nin-memory epoch, 60,000 x 784 float32, shuffle + batch 64:")
    for name, seconds in memory.items():
        print(f"  {name:32s} {seconds * 1e3:7.1f} ms   speed {base / seconds:5.0%} of numpy fancy-indexing")
    print("  (target: companion >= 50%)")


def plot(results, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    colors = {"open": "tab:red", "read": "tab:blue", "map": "tab:orange", "train": "tab:green"}
    fig, axes = plt.subplots(len(results), 1, figsize=(11, 1.6 * len(results)), sharex=True)
    for ax, (name, (seconds, events)) in zip(axes, results.items()):
        threads = sorted({thread for _, thread, _, _ in events}, key=lambda t: (t != "MainThread", t))
        for kind, thread, start, end in events:
            row = threads.index(thread)
            ax.broken_barh([(start * 1e3, (end - start) * 1e3)], (row - 0.4, 0.8), color=colors[kind])
        labels = [t.replace("companion.data.", "")[:18] for t in threads]
        ax.set_yticks(range(len(threads)), labels, fontsize=6)
        ax.set_title(f"{name}: {seconds * 1e3:.0f} ms", fontsize=9, loc="left")
    axes[-1].set_xlabel("time (ms)")
    handles = [plt.Rectangle((0, 0), 1, 1, color=c) for c in colors.values()]
    fig.legend(handles, list(colors), loc="upper right", ncol=4, fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    print(f"timeline saved to {path}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--plot", help="save a timeline plot (PNG) to this path")
    parser.add_argument("--skip-memory", action="store_true", help="skip the in-memory comparison")
    args = parser.parse_args()
    results = time_pipelines(args.repeats)
    memory = {} if args.skip_memory else in_memory(args.repeats)
    report(results, memory or {"numpy fancy-index batches": 1.0})
    if args.plot:
        plot(results, args.plot)


if __name__ == "__main__":
    main()
