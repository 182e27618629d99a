"""%-formatting and Python conversions of tensors and Variables, as in a training loop's log lines."""
import tensorflow as tf


def attempt(label, fn, *args):
    try:
        print(label, fn(*args))
    except Exception as e:  # noqa: BLE001
        print(label, type(e).__name__)


loss = tf.constant(0.123456)
step = tf.constant(7)
w = tf.Variable(2.5)
print("Epoch %2d: loss=%2.5f w=%1.2f" % (step, loss, w))
print("loss %s | %r | %d | %.3e | %5.1f%%" % (loss, step, loss, loss, loss * 100))
print("{:.4f} {:d} {:>6} {:.2f}".format(loss, step, step, w.numpy()))
print(f"{loss:.3f} {w.numpy():.2f}")
attempt("format(variable)", format, w, ".1f")
for value in (tf.constant([3]), tf.constant([[1.5]]), tf.constant([]), tf.constant([1, 2])):
    shape = tuple(value.shape)
    attempt(f"float {shape}", lambda value: float(value), value)
    attempt(f"int {shape}", lambda value: int(value), value)
    attempt(f"bool {shape}", lambda value: bool(value), value)
    attempt(f"index {shape}", lambda value: [0, 1, 2, 3][value], value)
    attempt(f"%f {shape}", lambda value: "%f" % value, value)
    attempt(f"%d {shape}", lambda value: "%d" % value, value)
for value in (tf.constant(2.5), tf.constant(True), tf.constant(2, tf.int64)):
    attempt(f"hex {value.dtype.name}", lambda value: hex(value), value)
    attempt(f"round {value.dtype.name}", lambda value: round(value), value)
v = tf.Variable(2)
attempt("range(variable)", lambda: list(range(v)))
attempt("list[variable]", lambda: [1, 2, 3][v])
attempt("slice by variable", lambda: tf.constant([1, 2, 3, 4])[:v])
attempt("int(variable)", lambda: int(v))
attempt("float(variable [2])", lambda: float(tf.Variable([2.0])))
