"""First calls, cold: wall time, XLA compilations, tracing vs compiling; companion beside Keras 3 on JAX.

Run: .venv/bin/python benchmarks/first_call.py [--repeats 3] [--keras-python /work/kerasjax/bin/python]
     [--tf-python /work/tfenv/bin/python]

Every measurement runs in a fresh process with the persistent compilation cache off
(``COMPANION_CACHE=0``), as a learner's first run after installing. Measured:
- ``fit epoch 1`` / ``fit epoch 2``: the MLP 784-128-10 with dropout (Adam, batch 64, 16,384
  samples, ``fit(verbose=0)``, accuracy metric), one epoch per ``fit`` call; epoch 2 must not
  compile anything;
- ``eager tape step``: the first custom training step of the same model without ``function``
  (GradientTape, ``apply_gradients``), after the model is built;
- ``function step``: the first call of that step in ``@function`` (trace, compile, run);
- ``jax.jit step (hand-written)``: the floor for both, in a fresh process of its own: the first
  call of the same step written in JAX and optax (dropout, Adam) under ``jax.jit``;
- ``Conv2D fit under MirroredStrategy``: epochs 1 and 2 of a small Conv2D model on 4 forced CPU
  devices (course Week-4 lab 1 shape, 8 batches of 64 an epoch; ``--no-conv`` skips it).
With ``--keras-python`` (a Python with ``keras`` and ``jax`` installed), the same fit workloads
run on Keras 3 with ``KERAS_BACKEND=jax`` in that interpreter, side by side. Keras has no
eager tape, so those rows are companion's only. With ``--tf-python`` (a Python with TensorFlow 2),
TensorFlow runs companion's own programs (MLP, eager and ``function`` steps) and the Conv2D model
under ``MirroredStrategy`` over 4 logical CPUs: wall time only (no JAX events there).

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
_acc = {}
try:  # JAX's events (TensorFlow's side has no JAX: wall time only)
    from jax._src import monitoring
except ImportError:
    pass
else:
    _acc.update(compiles=0, trace=0.0, compile=0.0)
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

JAX_STEP = """
import jax, jax.numpy as jnp, optax
def jax_step_program():
    init = jax.nn.initializers.glorot_uniform()
    k1, k2 = jax.random.split(jax.random.key(0))
    params = {"w1": init(k1, (784, 128)), "b1": jnp.zeros(128),
              "w2": init(k2, (128, 10)), "b2": jnp.zeros(10)}
    opt = optax.adam(1e-3)
    def loss(p, xb, yb, key):
        h = jax.nn.relu(xb @ p["w1"] + p["b1"])
        h = jnp.where(jax.random.bernoulli(key, 0.8, h.shape), h / 0.8, 0.0)
        return optax.softmax_cross_entropy_with_integer_labels(h @ p["w2"] + p["b2"], yb).mean()
    @jax.jit
    def step(p, s, key, xb, yb):
        key, sub = jax.random.split(key)
        value, grads = jax.value_and_grad(loss)(p, xb, yb, sub)
        updates, s = opt.update(grads, s, p)
        return optax.apply_updates(p, updates), s, key, value
    return step, params, opt.init(params)
step, params, opt_state = jax_step_program()
xb, yb = jnp.asarray(x[:64]), jnp.asarray(y[:64])
with measure("jax.jit step (hand-written)"):
    float(step(params, opt_state, jax.random.key(1), xb, yb)[3])
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
    programs = [(PRELUDE + COMPANION_MLP + FIT + STEPS + END, {}), (PRELUDE + JAX_STEP + END, {})]
    if conv:
        strategy = CONV.replace("STRATEGY", "tf.distribute.MirroredStrategy()")
        programs.append((PRELUDE + COMPANION_MLP + strategy + END, {"XLA_FLAGS": FORCE_4_CPUS}))
    return programs


# TensorFlow runs companion's own programs (`import companion as tf` is the point): the MLP, the
# eager and `function` steps, and the Conv2D model under MirroredStrategy over 4 logical CPUs.
TF_CPUS = """
cpus = tf.config.list_physical_devices("CPU")
tf.config.set_logical_device_configuration(cpus[0], [tf.config.LogicalDeviceConfiguration()] * 4)
"""


def tf_program(conv: bool) -> list[tuple[str, dict]]:
    mlp = COMPANION_MLP.replace("import companion as tf", "import tensorflow as tf")
    quiet = {"TF_CPP_MIN_LOG_LEVEL": "3"}
    programs = [(PRELUDE + mlp + FIT + STEPS + END, quiet)]
    if conv:
        strategy = CONV.replace("STRATEGY", 'tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(4)])')
        programs.append((PRELUDE + mlp + TF_CPUS + strategy + END, quiet))
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
    parser.add_argument("--tf-python", help="a Python with tensorflow installed (TF 2, tf.keras)")
    parser.add_argument("--no-conv", action="store_true", help="skip the Conv2D MirroredStrategy rows")
    options = parser.parse_args()
    sides = {"companion": (sys.executable, companion_program(not options.no_conv))}
    if options.keras_python:
        sides["Keras 3 on JAX"] = (options.keras_python, keras_program(not options.no_conv))
    if options.tf_python:
        sides["TensorFlow"] = (options.tf_python, tf_program(not options.no_conv))
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
            if "compiles" not in med:  # no JAX in that process: wall time only
                cells.append(f" | {med['wall']:6.3f}s {'—':>7s} {'—':>7s} {'—':>7s}")
                continue
            cells.append(f" | {med['wall']:6.3f}s {med['compiles']:7.0f} {med['trace']:6.2f}s "
                         f"{med['compile']:6.2f}s")
        print(f"{name:30s}" + "".join(cells))


if __name__ == "__main__":
    main()
