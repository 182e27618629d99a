"""First calls, cold: wall time, XLA compilations, tracing vs compiling; companion beside Keras 3 on JAX.

Run: .venv/bin/python benchmarks/first_call.py [--repeats 3] [--keras-python /work/kerasjax/bin/python]

Every measurement runs in a fresh process with the persistent compilation cache off
(``COMPANION_CACHE=0``), as a learner's first run after installing. Measured:
- ``fit epoch 1`` / ``fit epoch 2``: the MLP 784-128-10 with dropout (Adam, batch 64, 16,384
  samples, ``fit(verbose=0)``, accuracy metric), one epoch per ``fit`` call; epoch 2 must not
  compile anything;
- ``eager tape step``: the first custom training step of the same model without ``function``
  (GradientTape, ``apply_gradients``), after the model is built;
- ``function step``: the first call of that step in ``@function`` (trace, compile, run);
- ``Conv2D fit under MirroredStrategy``: epochs 1 and 2 of a small Conv2D model on 4 forced CPU
  devices (course Week-4 lab 1 shape, 8 batches of 64 an epoch; ``--no-conv`` skips it).
With ``--keras-python`` (a Python with ``keras`` and ``jax`` installed), the same fit workloads
run on Keras 3 with ``KERAS_BACKEND=jax`` in that interpreter, side by side. Keras has no
eager tape, so those rows are companion's only.

Counts come from JAX's monitoring events: ``compiles`` is the number of XLA backend compiles,
``trace`` the seconds spent tracing Python to jaxprs (JAX's own event; companion's staging also
traces through ``make_jaxpr``, counted in the same event) plus lowering to MLIR, ``compile`` the
seconds XLA spent compiling. Figures are medians over ``--repeats`` fresh processes.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PRELUDE = """
import json, os, sys, time
from jax._src import monitoring
_acc = {"compiles": 0, "trace": 0.0, "compile": 0.0}
def _on_duration(event, duration, **kwargs):
    if event.endswith("backend_compile_duration"):
        _acc["compiles"] += 1
        _acc["compile"] += duration
    elif event.endswith("jaxpr_trace_duration") or event.endswith("jaxpr_to_mlir_module_duration"):
        _acc["trace"] += duration
monitoring.register_event_duration_secs_listener(_on_duration)
_results = {}
class measure:
    def __init__(self, name):
        self.name = name
    def __enter__(self):
        self.before = dict(_acc)
        self.start = time.perf_counter()
    def __exit__(self, *exc):
        wall = time.perf_counter() - self.start
        row = {key: _acc[key] - self.before[key] for key in _acc}
        _results[self.name] = {"wall": wall, **row}
import numpy as np
rng = np.random.default_rng(0)
x = rng.normal(size=(16384, 784)).astype("float32")
y = rng.integers(0, 10, size=16384)
"""

COMPANION_MLP = """
import companion as tf
keras = tf.keras
def mlp():
    layers = keras.layers
    return keras.Sequential([layers.Input(shape=(784,)), layers.Dense(128, activation="relu"),
                             layers.Dropout(0.2), layers.Dense(10)])
"""

KERAS_MLP = """
import keras
def mlp():
    layers = keras.layers
    return keras.Sequential([layers.Input(shape=(784,)), layers.Dense(128, activation="relu"),
                             layers.Dropout(0.2), layers.Dense(10)])
"""

FIT = """
with measure("model build + compile"):
    model = mlp()
    model.compile(optimizer="adam", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
with measure("fit epoch 1"):
    model.fit(x, y, batch_size=64, epochs=1, verbose=0)
with measure("fit epoch 2"):
    model.fit(x, y, batch_size=64, epochs=1, verbose=0)
"""

STEPS = """
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
xb, yb = tf.constant(x[:64]), tf.constant(y[:64])
def make_step():
    model, optimizer = mlp(), keras.optimizers.Adam()
    def step(xb, yb):
        with tf.GradientTape() as tape:
            loss = loss_fn(yb, model(xb, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss
    return step
eager_step = make_step()
with measure("eager tape step"):
    float(eager_step(xb, yb))
with measure("eager tape step 2"):
    float(eager_step(xb, yb))
function_step = tf.function(make_step())
with measure("function step"):
    float(function_step(xb, yb))
"""

CONV = """
images = rng.random((512, 28, 28, 1), dtype=np.float32)
labels = rng.integers(0, 10, size=512)
strategy = STRATEGY
with strategy.scope():
    layers = keras.layers
    conv = keras.Sequential([layers.Input(shape=(28, 28, 1)), layers.Conv2D(32, 3, activation="relu"),
                             layers.MaxPooling2D(), layers.Flatten(), layers.Dense(64, activation="relu"),
                             layers.Dense(10)])
    conv.compile(optimizer="adam", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                 metrics=["accuracy"])
with measure("Conv2D strategy fit epoch 1"):
    conv.fit(images, labels, batch_size=64, epochs=1, verbose=0)
with measure("Conv2D strategy fit epoch 2"):
    conv.fit(images, labels, batch_size=64, epochs=1, verbose=0)
"""

END = "\nprint(json.dumps(_results))\n"

FORCE_4_CPUS = "--xla_force_host_platform_device_count=4"


def companion_program(conv: bool) -> list[tuple[str, dict]]:
    programs = [(PRELUDE + COMPANION_MLP + FIT + STEPS + END, {})]
    if conv:
        strategy = CONV.replace("STRATEGY", "tf.distribute.MirroredStrategy()")
        programs.append((PRELUDE + COMPANION_MLP + strategy + END, {"XLA_FLAGS": FORCE_4_CPUS}))
    return programs


def keras_program(conv: bool) -> list[tuple[str, dict]]:
    programs = [(PRELUDE + KERAS_MLP + FIT + END, {"KERAS_BACKEND": "jax"})]
    if conv:
        # Keras 3's JAX counterpart of MirroredStrategy: data parallel over the local devices.
        strategy = CONV.replace("STRATEGY", "_DataParallelScope()")
        scope = ("import contextlib\nclass _DataParallelScope:\n    def scope(self):\n"
                 "        keras.distribution.set_distribution(keras.distribution.DataParallel())\n"
                 "        return contextlib.nullcontext()\n")
        programs.append((PRELUDE + KERAS_MLP + scope + strategy + END,
                         {"KERAS_BACKEND": "jax", "XLA_FLAGS": FORCE_4_CPUS}))
    return programs


def run(python: str, programs: list[tuple[str, dict]]) -> dict:
    results = {}
    for code, extra in programs:
        env = {**os.environ, "COMPANION_CACHE": "0", **extra}
        done = subprocess.run([python, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"{python} failed:\n{done.stderr[-3000:]}")
        results.update(json.loads(done.stdout.strip().splitlines()[-1]))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--keras-python", help="a Python with keras and jax installed (Keras 3 on JAX)")
    parser.add_argument("--no-conv", action="store_true", help="skip the Conv2D MirroredStrategy rows")
    options = parser.parse_args()
    sides = {"companion": (sys.executable, companion_program(not options.no_conv))}
    if options.keras_python:
        sides["Keras 3 on JAX"] = (options.keras_python, keras_program(not options.no_conv))
    runs = {side: [] for side in sides}
    for _ in range(options.repeats):  # interleaved, so machine load hits both sides alike
        for side, (python, programs) in sides.items():
            result = run(python, programs)
            build, fit = result["model build + compile"], result["fit epoch 1"]
            result["build + fit epoch 1"] = {key: build[key] + fit[key] for key in fit}
            runs[side].append(result)
    report(runs, options.repeats)


def report(runs: dict, repeats: int) -> None:
    names = list(dict.fromkeys(name for side in runs.values() for result in side for name in result))
    print(f"cold first calls (COMPANION_CACHE=0), medians of {repeats} fresh processes per side")
    header = "".join(f" | {side:>32s}" for side in runs)
    print(f"{'workload':30s}{header}")
    print(f"{'':30s}" + " | {:>7s} {:>7s} {:>7s} {:>7s}".format("wall", "compiles", "trace", "compile")
          * len(runs))
    for name in names:
        cells = []
        for results in runs.values():
            rows = [r[name] for r in results if name in r]
            if not rows:
                cells.append(f" | {'—':>32s}")
                continue
            med = {key: statistics.median(r[key] for r in rows) for key in rows[0]}
            cells.append(f" | {med['wall']:6.3f}s {med['compiles']:7.0f} {med['trace']:6.2f}s "
                         f"{med['compile']:6.2f}s")
        print(f"{name:30s}" + "".join(cells))


if __name__ == "__main__":
    main()
