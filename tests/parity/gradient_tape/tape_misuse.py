"""Tapes used outside their block, stop_recording when not recording, gradient inside a persistent tape."""
import tensorflow as tf


def attempt(label, fn):
    try:
        print(label, fn())
    except Exception as e:  # noqa: BLE001
        print(label, type(e).__name__)


v = tf.Variable(2.0)
attempt("watch before with", lambda: tf.GradientTape().watch([v, tf.constant(1.0)]))
attempt("watch a float", lambda: tf.GradientTape().watch(1.0))
attempt("watch None", lambda: tf.GradientTape().watch(None))
attempt("gradient before with", lambda: tf.GradientTape(persistent=True).gradient(v, v))
with tf.GradientTape() as tape:
    y = v * 2
    with tape.stop_recording():
        attempt("nested stop_recording", lambda: tape.stop_recording().__enter__())
print(tape.gradient(y, v))
attempt("stop_recording after", lambda: tape.stop_recording().__enter__())
attempt("watch after", lambda: tape.watch(v))
with tf.GradientTape(persistent=True) as tape:
    y = v * v
    print("inside", tape.gradient(y, v))
print("outside", tape.gradient(y, v))
