"""Aggregation, synchronization and other properties of a Variable."""
import tensorflow as tf

v = tf.Variable(1.0)
print(v.aggregation)
print(v.synchronization)
w = tf.Variable(1.0, aggregation=tf.VariableAggregation.MEAN)
print(w.aggregation)
print(tf.VariableAggregation.SUM, tf.VariableSynchronization.ON_READ)
print(v.constraint)
