"""float() and int() of a non-scalar tensor raise TypeError."""
import tensorflow as tf

for convert in (float, int):
    try:
        convert(tf.constant([1.0, 2.0]))
    except Exception as e:
        print(convert.__name__, type(e).__name__)
try:
    bool(tf.constant([True, False]))
except Exception as e:
    print("bool", type(e).__name__, isinstance(e, ValueError))
