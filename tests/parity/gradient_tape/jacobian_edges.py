"""jacobian/batch_jacobian edge cases: unconnected and integer sources, shape checks, policies."""
import tensorflow as tf


def attempt(label, fn):
    try:
        print(label, fn())
    except Exception as e:  # noqa: BLE001
        print(label, type(e).__name__)


x = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    y = tf.tanh(x[:, :2] / 10)
    yi = tf.cast(y * 10, tf.int32)
attempt("bj", lambda: tape.batch_jacobian(y, x).shape)
attempt("bj unconnected", lambda: tape.batch_jacobian(y, tf.constant([[1.0], [2.0]])))
attempt("bj no pfor", lambda: tape.batch_jacobian(y, x[:, :1] * 0, experimental_use_pfor=False))
attempt("bj int target", lambda: tape.batch_jacobian(yi, x))
attempt("bj int source", lambda: tape.batch_jacobian(y, tf.constant([[1], [2]])))
attempt("bj scalar source", lambda: tape.batch_jacobian(y, tf.constant(2.0)))
attempt("bj rank 1 target", lambda: tape.batch_jacobian(y[:, 0], x))
attempt("bj scalar target", lambda: tape.batch_jacobian(tf.reduce_sum(y), x))
attempt("bj batch mismatch", lambda: tape.batch_jacobian(y, tf.constant([[1.0], [2.0], [3.0]])))
attempt("bj list target", lambda: tape.batch_jacobian([y], x))
attempt("j dict target", lambda: tape.jacobian({"a": y}, x))
attempt("j None target", lambda: tape.jacobian(None, x))
attempt("j int target", lambda: tape.jacobian(yi, x))
attempt("j int target zero", lambda: tape.jacobian(yi, x, unconnected_gradients="zero").shape)
attempt("j int source zero", lambda: tape.jacobian(y, tf.constant([1, 2]), unconnected_gradients="zero"))
attempt("g int source zero", lambda: tape.gradient(y, tf.constant([1, 2]), unconnected_gradients="zero"))
attempt("g bad policy", lambda: tape.gradient(y, x, unconnected_gradients="bad"))
a = tf.Variable([1.0, 2.0])
b = tf.Variable(3.0)
with tf.GradientTape(persistent=True) as tape:
    z = a * b
print(tape.jacobian(z, {"a": a, "b": b}))
print(tape.jacobian(z, [a, b], experimental_use_pfor=False))
print(tape.jacobian(z, tf.constant([1.0, 2.0]), unconnected_gradients=tf.UnconnectedGradients.ZERO))
