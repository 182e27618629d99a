"""companion.function vs hand-written jax.jit: training step, call overhead, eager vs graph, compile time.

Run: .venv/bin/python benchmarks/function_step.py [--repeats 7]

Side by side in one process, medians over ``--repeats`` interleaved rounds:
- a ``@function`` SGD training step of the MLP 784-128-10 (batch 64) of
  ``eager_step.py`` against ``jax.jit(jax.value_and_grad(...))`` of the same math;
- calling a trivial ``@function`` (add two small tensors) against calling ``jax.jit(add)``;
- the lecture's eager-vs-graph comparison: Flatten -> Dense 128 relu -> Dropout 0.2 ->
  Dense 10 on a 60x28x28 batch, called eagerly and through ``function``;
- the trace + XLA compile time of FizzBuzz over ``range(n)`` for n = 16 and n = 10,000:
  the bound is a traced tensor, so the program is the same whatever n.
"""

import argparse
import statistics
import time

import jax
import jax.numpy as jnp
import numpy as np
from eager_step import LR, jax_step_fn, make_data, per_call_seconds

import companion as tf


def function_step_fn(x, y, params):
    x, y = tf.constant(x), tf.constant(y)
    variables = [tf.Variable(p) for p in params]
    w1, b1, w2, b2 = variables

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            logits = tf.nn.relu(x @ w1 + b1) @ w2 + b2
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, logits))
        for v, g in zip(variables, tape.gradient(loss, variables)):
            v.assign_sub(LR * g)
        return loss

    return lambda: step()._value


def trivial_calls():
    @tf.function
    def add(a, b):
        return a + b

    jitted = jax.jit(lambda a, b: a + b)
    a, b = tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])
    return (lambda: add(a, b)._value), (lambda: jitted(a._value, b._value))


class LectureModel:
    """Flatten -> Dense(128, relu) -> Dropout(0.2) -> Dense(10), written with companion ops."""

    def __init__(self):
        rng = np.random.default_rng(0)
        self.w1 = tf.Variable(rng.normal(size=(784, 128)).astype(np.float32) * 0.05)
        self.b1 = tf.Variable(np.zeros(128, np.float32))
        self.w2 = tf.Variable(rng.normal(size=(128, 10)).astype(np.float32) * 0.05)
        self.b2 = tf.Variable(np.zeros(10, np.float32))

    def __call__(self, images):
        flat = tf.reshape(images, [tf.shape(images)[0], -1])
        hidden = tf.nn.dropout(tf.nn.relu(flat @ self.w1 + self.b1), rate=0.2)
        return hidden @ self.w2 + self.b2


def eager_and_graph():
    model = LectureModel()
    images = tf.constant(np.random.default_rng(1).random((60, 28, 28), dtype=np.float32))
    staged = tf.function(model)
    return (lambda: model(images)._value), (lambda: staged(images)._value)


def fizzbuzz_compile_seconds(n):
    @tf.function
    def fizzbuzz(max_num):
        counter = 0
        for num in range(max_num):
            if num % 3 == 0 and num % 5 == 0:
                tf.print("FizzBuzz", output_stream="file:///dev/null")
            elif num % 3 == 0:
                tf.print("Fizz", output_stream="file:///dev/null")
            elif num % 5 == 0:
                tf.print("Buzz", output_stream="file:///dev/null")
            else:
                tf.print(num, output_stream="file:///dev/null")
            counter += 1
        return counter

    bound = tf.constant(n)
    start = time.perf_counter()
    concrete = fizzbuzz.get_concrete_function(bound)  # trace
    concrete._op._eager.lower(bound._value).compile()  # XLA compile
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--steps", type=int, default=200)
    args = parser.parse_args()
    x, y, params = make_data()
    ours_step, (jax_step, _) = function_step_fn(x, y, params), jax_step_fn(x, y, params)
    ours_add, jax_add = trivial_calls()
    eager_model, graph_model = eager_and_graph()
    rows = {name: [] for name in ["function step", "jax.jit step", "function add", "jax.jit add",
                                  "eager model", "function model", "fizzbuzz 16", "fizzbuzz 10000"]}
    for _ in range(args.repeats):
        rows["function step"].append(per_call_seconds(ours_step, args.steps))
        rows["jax.jit step"].append(per_call_seconds(jax_step, args.steps))
        rows["function add"].append(per_call_seconds(ours_add, 20 * args.steps))
        rows["jax.jit add"].append(per_call_seconds(jax_add, 20 * args.steps))
        rows["eager model"].append(per_call_seconds(eager_model, args.steps // 2))
        rows["function model"].append(per_call_seconds(graph_model, args.steps // 2))
    for _ in range(min(args.repeats, 3)):
        rows["fizzbuzz 16"].append(fizzbuzz_compile_seconds(16))
        rows["fizzbuzz 10000"].append(fizzbuzz_compile_seconds(10_000))
    report({name: statistics.median(values) for name, values in rows.items()}, args)


def report(med, args):
    print(f"device: {jax.devices()[0].platform}, medians of {args.repeats} rounds")
    for name, value in med.items():
        unit, scale = ("ms", 1e3) if name.startswith("fizzbuzz") else ("us", 1e6)
        print(f"  {name:<16} {value * scale:10.1f} {unit}")
    print("ratios (target):")
    for label, ours, theirs, target in [
            ("function step / jit step", "function step", "jax.jit step", "<= 1.15"),
            ("function add / jit add", "function add", "jax.jit add", "<= 2"),
            ("eager / function model", "eager model", "function model", "> 1"),
            ("fizzbuzz 10000 / 16 compile", "fizzbuzz 10000", "fizzbuzz 16", "~ 1")]:
        print(f"  {label:<28} {med[ours] / med[theirs]:.2f}x  (target {target})")


if __name__ == "__main__":
    jnp.zeros(1)
    main()
