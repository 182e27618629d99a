"""ReduceOp values and from_variable_aggregation."""
import tensorflow as tf

print(tf.distribute.ReduceOp.SUM, tf.distribute.ReduceOp.MEAN)
print(tf.distribute.ReduceOp.SUM.value, tf.distribute.ReduceOp.MEAN.value)
print(tf.distribute.ReduceOp.from_variable_aggregation(tf.VariableAggregation.SUM))
print(tf.distribute.ReduceOp.from_variable_aggregation(tf.VariableAggregation.MEAN))
try:
    tf.distribute.ReduceOp.from_variable_aggregation(tf.VariableAggregation.NONE)
except Exception as e:
    print(type(e).__name__)
