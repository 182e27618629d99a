"""The lecture's Keras model: companion's train steps vs hand-written JAX + optax, side by side.

Run: .venv/bin/python benchmarks/keras_step.py [--repeats 7] [--steps 200]

The model is the lecture's (Flatten → Dense 128 relu → Dropout 0.2 → Dense 10) on batches of
64 28×28 images, trained with Adam (Keras defaults) on sparse categorical cross-entropy
from logits. Measured, interleaved in one process so machine noise hits all sides alike:
- ``jax``: one ``jax.jit`` step (forward with dropout, ``jax.value_and_grad``, ``optax.adam``)
  on batches already on the device: the floor;
- ``jax, shuffled batches``: the same step fed like ``fit`` feeds its step: a fresh
  permutation per epoch, each batch's rows gathered inside the jitted step;
- ``function``: a custom step in ``@companion.function`` (GradientTape, apply_gradients);
- ``fit``: the second epoch of a two-epoch ``model.fit`` over ``--steps`` batches
  (shuffling and batching the arrays, callbacks, logs), per step;
- ``eager``: the same custom step without ``function`` (its ops deferred and, once the step
  repeats, run as one program: ``companion._core._deferred``);
- ``eager, not deferred``: the same with deferred execution off (one dispatch per op).
Each figure is the median over ``--repeats`` rounds; the ratios are of those medians. The eager
step and the ``jax`` floor also report the process's CPU time per step (all threads): on a loaded
machine wall time also counts waiting for a core, CPU time only the work done.
"""

import argparse
import statistics
import time

import jax
import jax.numpy as jnp
import numpy as np
import optax

import companion as tf
from companion._core import _deferred

BATCH, CLASSES, RATE = 64, 10, 0.2


def make_data(steps, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.random((steps * BATCH, 28, 28), dtype=np.float32)
    y = rng.integers(0, CLASSES, size=steps * BATCH).astype(np.int64)
    return x, y


def lecture_model():
    model = tf.keras.Sequential([
        tf.keras.layers.Flatten(input_shape=(28, 28)),
        tf.keras.layers.Dense(128, activation="relu"),
        tf.keras.layers.Dropout(RATE),
        tf.keras.layers.Dense(CLASSES)])
    return model


def companion_steps(x, y):
    """The custom step, compiled by `function` and eager, each with its own model."""
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    batches = [(tf.constant(x[i:i + BATCH]), tf.constant(y[i:i + BATCH]))
               for i in range(0, len(x), BATCH)]

    def make(compiled):
        model, optimizer = lecture_model(), tf.keras.optimizers.Adam()

        def step(xb, yb):
            with tf.GradientTape() as tape:
                loss = loss_fn(yb, model(xb, training=True))
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
            return loss

        step = tf.function(step) if compiled else step

        def epoch():
            for xb, yb in batches:
                loss = step(xb, yb)
            return loss._value

        return epoch

    not_deferred = make(False)

    def undeferred_epoch():  # each eager op dispatched at once (deferred execution off)
        _deferred.set_enabled(False)
        try:
            return not_deferred()
        finally:
            _deferred.set_enabled(True)

    return make(True), make(False), undeferred_epoch


class EpochTimer(tf.keras.callbacks.Callback):
    """Wall time of each epoch, from its first batch to its logs (which wait for the device)."""

    def on_train_begin(self, logs=None):
        self.times = []

    def on_epoch_begin(self, epoch, logs=None):
        self._start = time.perf_counter()

    def on_epoch_end(self, epoch, logs=None):
        self.times.append(time.perf_counter() - self._start)


def companion_fit(x, y):
    """``fit`` for two epochs per round; the second epoch's time is the steady state."""
    model = lecture_model()
    model.compile(optimizer="adam",
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    timer = EpochTimer()

    def seconds(steps):
        model.fit(x, y, batch_size=BATCH, epochs=2, verbose=0, callbacks=[timer])
        return timer.times[-1] / steps

    return seconds


def jax_step(x, y):
    """The same math by hand: params in a pytree, dropout from a carried key, optax Adam."""
    rng = np.random.default_rng(1)
    params = {"w1": jnp.asarray(rng.normal(size=(784, 128)).astype(np.float32) * 0.05),
              "b1": jnp.zeros(128, jnp.float32),
              "w2": jnp.asarray(rng.normal(size=(128, CLASSES)).astype(np.float32) * 0.05),
              "b2": jnp.zeros(CLASSES, jnp.float32)}
    optimizer = optax.adam(1e-3, b1=0.9, b2=0.999, eps=1e-7)
    state = {"params": params, "opt": optimizer.init(params), "key": jax.random.key(0)}
    batches = [(jnp.asarray(x[i:i + BATCH]), jnp.asarray(y[i:i + BATCH]))
               for i in range(0, len(x), BATCH)]

    def loss_fn(p, xb, yb, key):
        hidden = jax.nn.relu(xb.reshape(xb.shape[0], -1) @ p["w1"] + p["b1"])
        keep = jax.random.bernoulli(key, 1 - RATE, hidden.shape)
        hidden = jnp.where(keep, hidden / (1 - RATE), 0)
        logits = hidden @ p["w2"] + p["b2"]
        return optax.softmax_cross_entropy_with_integer_labels(logits, yb).mean()

    @jax.jit
    def update(p, opt_state, key, xb, yb):
        key, sub = jax.random.split(key)
        loss, grads = jax.value_and_grad(loss_fn)(p, xb, yb, sub)
        updates, opt_state = optimizer.update(grads, opt_state, p)
        return optax.apply_updates(p, updates), opt_state, key, loss

    def epoch():
        for xb, yb in batches:
            state["params"], state["opt"], state["key"], loss = update(
                state["params"], state["opt"], state["key"], xb, yb)
        return loss

    x_all, y_all, order_rng = jnp.asarray(x), jnp.asarray(y), np.random.default_rng(2)

    @jax.jit
    def update_rows(p, opt_state, key, order, start):
        rows = jax.lax.dynamic_slice(order, (start,), (BATCH,))
        return update(p, opt_state, key, x_all[rows], y_all[rows])

    def shuffled_epoch():
        """What fit does: a fresh permutation per epoch, batches gathered by the step."""
        order = jnp.asarray(order_rng.permutation(len(x)))
        for start in range(0, len(x), BATCH):
            state["params"], state["opt"], state["key"], loss = update_rows(
                state["params"], state["opt"], state["key"], order, start)
        return loss

    return epoch, shuffled_epoch


def seconds_per_step(epoch, steps, cpu=None):
    """Wall seconds per step; with a list ``cpu``, appends the CPU seconds per step to it."""
    jax.block_until_ready(epoch())
    start, start_cpu = time.perf_counter(), time.process_time()
    jax.block_until_ready(epoch())
    if cpu is not None:
        cpu.append((time.process_time() - start_cpu) / steps)
    return (time.perf_counter() - start) / steps


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--steps", type=int, default=200)
    args = parser.parse_args()
    x, y = make_data(args.steps)
    function_epoch, eager_epoch, undeferred_epoch = companion_steps(x, y)
    fit_seconds = companion_fit(x, y)
    jax_epoch, jax_shuffled_epoch = jax_step(x, y)
    sides = {"jax.jit + optax": jax_epoch, "jax, shuffled batches": jax_shuffled_epoch,
             "companion function": function_epoch, "companion fit": None,
             "companion eager": eager_epoch, "eager, not deferred": undeferred_epoch}
    rows = {name: [] for name in sides}
    cpu = {"jax.jit + optax, CPU": [], "companion eager, CPU": [], "eager, not deferred, CPU": []}
    fit_seconds(args.steps)  # compiles
    for _ in range(args.repeats):
        for name, epoch in sides.items():
            seconds = fit_seconds(args.steps) if epoch is None else seconds_per_step(
                epoch, args.steps, cpu.get(f"{name}, CPU"))
            rows[name].append(seconds)
    rows.update(cpu)
    report(rows, args)


def report(rows, args):
    med = {name: statistics.median(values) for name, values in rows.items()}
    print(f"device: {jax.devices()[0].platform}, {args.repeats} rounds x {args.steps} steps of "
          f"batch {BATCH}, medians")
    for name, value in med.items():
        print(f"  {name:<26} {value * 1e6:10.1f} us/step")
    base, shuffled = med["jax.jit + optax"], med["jax, shuffled batches"]
    print("ratios (target):")
    for name, reference, against, target in (
            ("companion function", base, "jax.jit + optax", 1.2),
            ("companion fit", shuffled, "jax, shuffled batches", 1.2),
            ("companion fit", base, "jax.jit + optax", None),
            ("companion eager", base, "jax.jit + optax", 1.5),
            ("companion eager, CPU", med["jax.jit + optax, CPU"], "jax.jit + optax, CPU", 1.5),
            ("eager, not deferred", base, "jax.jit + optax", None),
            ("eager, not deferred, CPU", med["jax.jit + optax, CPU"], "jax.jit + optax, CPU", None)):
        goal = f"(target <= {target})" if target else ""
        print(f"  {name:<24} / {against:<22} {med[name] / reference:.2f}x  {goal}")

if __name__ == "__main__":
    main()
