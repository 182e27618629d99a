"""while_loop with nested loop variables and maximum_iterations."""
import tensorflow as tf


def cond(state):
    return state["i"] < 100

def body(state):
    return [{"i": state["i"] + 1, "acc": (state["acc"][0] * 2, state["acc"][1] + 1.0)}]

state = {"i": tf.constant(0), "acc": (tf.constant(1), tf.constant(0.0))}
print(tf.while_loop(cond, body, [state], maximum_iterations=5))
print(tf.while_loop(lambda i: i < 10, lambda i: (i + 1,), [tf.constant(0)], parallel_iterations=1))
try:
    tf.while_loop(lambda i: i < 10, lambda i: i + 1, [tf.constant(0)])
except Exception as e:
    print("body returned a bare tensor for a list of loop variables:", type(e).__name__)
