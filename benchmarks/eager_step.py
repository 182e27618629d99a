"""Eager companion vs hand-written JAX: training step, forward pass and import time, side by side.

Run: .venv/bin/python benchmarks/eager_step.py [--repeats 7] [--steps 200]

Measures, interleaved in one process so machine noise hits both sides alike:
- an eager training step of an MLP 784-128-10 on a batch of 64 (forward, GradientTape,
  SGD through ``assign_sub``) against ``jax.jit(jax.value_and_grad(...))`` of the same math;
- the eager forward pass against the same forward in plain (un-jitted) JAX;
- ``import companion`` against ``import jax`` in fresh interpreters.
Each figure is the median over ``--repeats`` rounds; the ratios are of those medians. Beside wall
time, the steps report the process's CPU time per step (all threads, XLA's included): on a loaded
machine wall time also counts waiting for a core, CPU time only the work done.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time

import jax
import jax.numpy as jnp
import numpy as np

import companion as tf
from companion._core import _deferred

BATCH, IN, HIDDEN, OUT, LR = 64, 784, 128, 10, 0.01


def make_data(seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(BATCH, IN)).astype(np.float32)
    y = rng.integers(0, OUT, size=BATCH).astype(np.int32)
    shapes = [(IN, HIDDEN), (HIDDEN,), (HIDDEN, OUT), (OUT,)]
    params = [(rng.normal(size=s) * 0.05).astype(np.float32) for s in shapes]
    return x, y, params


def companion_step_fn(x, y, params):
    x, y = tf.constant(x), tf.constant(y)
    variables = [tf.Variable(p) for p in params]
    w1, b1, w2, b2 = variables

    def forward():
        hidden = tf.nn.relu(x @ w1 + b1)
        logits = hidden @ w2 + b2
        return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, logits))

    def step():
        with tf.GradientTape() as tape:
            loss = forward()
        grads = tape.gradient(loss, variables)
        for v, g in zip(variables, grads):
            v.assign_sub(LR * g)
        return loss._value

    return step, lambda: forward()._value


def jax_step_fn(x, y, params):
    x, y = jnp.asarray(x), jnp.asarray(y)
    state = {"params": [jnp.asarray(p) for p in params]}

    def loss_fn(p, x, y):
        hidden = jax.nn.relu(x @ p[0] + p[1])
        logits = hidden @ p[2] + p[3]
        log_probs = jax.nn.log_softmax(logits)
        return -jnp.mean(jnp.take_along_axis(log_probs, y[:, None], axis=1))

    @jax.jit
    def update(p, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(p, x, y)
        return [a - LR * g for a, g in zip(p, grads)], loss

    def step():
        state["params"], loss = update(state["params"], x, y)
        return loss

    return step, lambda: loss_fn(state["params"], x, y)


def undeferred(fn):
    """``fn`` run with deferred execution off (each eager op dispatched at once, as before it)."""
    def run():
        _deferred.set_enabled(False)
        try:
            return fn()
        finally:
            _deferred.set_enabled(True)
    return run


def per_call_seconds(fn, calls, cpu=None):
    """Wall seconds per call; with a list ``cpu``, appends the CPU seconds per call to it."""
    fn().block_until_ready()
    start, start_cpu = time.perf_counter(), time.process_time()
    for _ in range(calls):
        out = fn()
    out.block_until_ready()
    if cpu is not None:
        cpu.append((time.process_time() - start_cpu) / calls)
    return (time.perf_counter() - start) / calls


def import_seconds(module):
    """One fresh interpreter's ``import module``, with Python's bytecode cache on as a user has it (a
    shell that sets PYTHONDONTWRITEBYTECODE would otherwise make companion's source, installed in
    place, compile on every import while jax's wheel ships compiled files)."""
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    return float(result.stdout)


def check_same_math(x, y, params):
    ours, _ = companion_step_fn(x, y, params)
    theirs, _ = jax_step_fn(x, y, params)
    for _ in range(3):
        a, b = float(ours()), float(theirs())
        if abs(a - b) > 1e-4 * max(1.0, abs(b)):
            raise SystemExit(f"The two steps disagree (loss {a} vs {b}): the comparison is not fair.")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--imports", type=int, default=5)
    args = parser.parse_args()
    x, y, params = make_data()
    check_same_math(x, y, params)
    ours_step, ours_fwd = companion_step_fn(x, y, params)
    jax_step, jax_fwd = jax_step_fn(x, y, params)
    plain_step, _ = companion_step_fn(x, y, params)
    rows = {"companion eager step": [], "jax.jit step": [], "not deferred": [], "companion eager forward": [],
            "jax eager forward": [], "import companion": [], "import jax": [],
            "companion eager step, CPU": [], "jax.jit step, CPU": [], "not deferred, CPU": []}
    for _ in range(args.repeats):
        rows["companion eager step"].append(
            per_call_seconds(ours_step, args.steps, rows["companion eager step, CPU"]))
        rows["jax.jit step"].append(per_call_seconds(jax_step, args.steps, rows["jax.jit step, CPU"]))
        rows["not deferred"].append(per_call_seconds(undeferred(plain_step), args.steps,
                                                     rows["not deferred, CPU"]))
        rows["companion eager forward"].append(per_call_seconds(ours_fwd, args.steps))
        rows["jax eager forward"].append(per_call_seconds(jax_fwd, args.steps))
    import_seconds("companion")  # writes the bytecode cache once, as a user's first import does
    for _ in range(args.imports):
        rows["import companion"].append(import_seconds("companion"))
        rows["import jax"].append(import_seconds("jax"))
    report(rows, args)


def report(rows, args):
    med = {name: statistics.median(values) for name, values in rows.items()}
    print(f"device: {jax.devices()[0].platform}, {args.repeats} rounds x {args.steps} calls, medians")
    for name, value in med.items():
        unit, scale = ("ms", 1e3) if name.startswith("import") else ("us", 1e6)
        print(f"  {name:<26} {value * scale:10.1f} {unit}")
    print("ratios (target):")
    for label, ours, theirs, target in [
            ("eager step / jit step", "companion eager step", "jax.jit step", 1.5),
            ("the same in CPU time", "companion eager step, CPU", "jax.jit step, CPU", 1.5),
            ("not deferred / jit step", "not deferred", "jax.jit step", None),
            ("the same in CPU time", "not deferred, CPU", "jax.jit step, CPU", None),
            ("eager forward / jax eager", "companion eager forward", "jax eager forward", 1.5),
            ("import companion / jax", "import companion", "import jax", 1.5)]:
        goal = f"  (target <= {target})" if target else ""
        print(f"  {label:<27} {med[ours] / med[theirs]:.2f}x{goal}")


if __name__ == "__main__":
    main()
