"""assert_same_structure raises ValueError or TypeError."""
import tensorflow as tf

tf.nest.assert_same_structure((1, [2]), (3, [4]))
print("same")
try:
    tf.nest.assert_same_structure((1, 2), (1, 2, 3))
except Exception as e:
    print(type(e).__name__)
try:
    tf.nest.assert_same_structure((1, 2), [1, 2])
except Exception as e:
    print(type(e).__name__)
tf.nest.assert_same_structure((1, 2), [1, 2], check_types=False)
print("same without types")
