"""`keras.Variable` and the weights Keras makes: Keras 3.15's constructor, names, aggregation and
synchronization strings, and `add_weight`'s positional form, against what Keras 3.15 gives."""

import numpy as np
import pytest

import companion as tf
from companion import keras


def test_a_variable_from_a_value_or_an_initializer():
    v = keras.Variable(1.0, name="v")
    assert repr(v) == "<Variable path=v, shape=(), dtype=float32, value=1.0>"
    assert (v.name, v.path, v.trainable) == ("v", "v", True)
    w = keras.Variable("zeros", shape=(2, 3), name="w")
    assert repr(w) == "<Variable path=w, shape=(2, 3), dtype=float32, value=[[0. 0. 0.]\n [0. 0. 0.]]>"
    u = keras.Variable(keras.initializers.Constant(2.0), shape=(2,), dtype="float64", name="u")
    assert repr(u) == "<Variable path=u, shape=(2,), dtype=float64, value=[2. 2.]>"
    assert keras.Variable(np.array([1, 2]), name="x").dtype == tf.int64
    assert keras.Variable(2, name="cnt").dtype == tf.int32
    assert not keras.Variable([1.5, 2.5], trainable=False, name="f").trainable
    assert isinstance(v, keras.Variable) and isinstance(v, tf.Variable)


def test_aggregation_and_synchronization_are_keras_strings():
    assert (keras.Variable(1.0, name="a").aggregation, keras.Variable(1.0, name="b").synchronization) \
        == ("none", "auto")
    v = keras.Variable(1.0, aggregation="mean", synchronization="on_read", trainable=False, name="m")
    assert (v.aggregation, v.synchronization) == ("mean", "on_read")
    assert v._aggregation == tf.VariableAggregation.MEAN  # what replicas combine by
    metric = keras.metrics.SparseCategoricalAccuracy()
    assert [(w.path, w.aggregation, w.synchronization, w.trainable) for w in metric.variables] == [
        ("sparse_categorical_accuracy/total", "sum", "on_read", False),
        ("sparse_categorical_accuracy/count", "sum", "on_read", False)]
    optimizer = keras.optimizers.Adam(0.1, name="adam")
    dense = keras.layers.Dense(2, name="dense")
    dense.build((None, 3))
    optimizer.build(dense.trainable_variables)
    assert [(w.path, w.aggregation) for w in optimizer.variables[:3]] == [
        ("adam/iteration", "only_first_replica"), ("adam/learning_rate", "only_first_replica"),
        ("adam/dense_kernel_momentum", "none")]
    assert (dense.kernel.aggregation, dense.kernel.synchronization) == ("none", "auto")


@pytest.mark.parametrize("kwargs, message", [
    (dict(aggregation="bogus"), "Invalid value for argument `aggregation`. Expected one of `None`, `'none'`, "
                                "`'mean'`, `'sum'`, `'only_first_replica'`. Received: aggregation=bogus"),
    (dict(synchronization="bogus"), "Invalid value for argument `synchronization`. Expected one of `None`, "
                                    "`'none'`, `'on_read'`, `'on_write'`, `'auto'`. Received: "
                                    "synchronization=bogus"),
    (dict(name="a/b"), "Argument `name` must be a string and cannot contain character `/`. Received: "
                       "name=a/b"),
])
def test_bad_arguments_raise_kerass_errors(kwargs, message):
    with pytest.raises(ValueError) as caught:
        keras.Variable(1.0, **kwargs)
    assert str(caught.value) == message


def test_an_initializer_needs_a_shape():
    with pytest.raises(ValueError, match="When creating a Variable from an initializer, the `shape` argument "
                                         "should be specified. Received: initializer=.* and shape=None"):
        keras.Variable("zeros")


def test_keras_weights_keep_their_class_and_strings_under_a_strategy():
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        dense = keras.layers.Dense(2, kernel_initializer="ones", name="dense")
        dense.build((None, 3))
        optimizer = keras.optimizers.Adam(0.01, name="adam")
    assert repr(dense.kernel) == ("<Variable path=dense/kernel, shape=(3, 2), dtype=float32, "
                                  "value=[[1. 1.]\n [1. 1.]\n [1. 1.]]>")
    assert isinstance(dense.kernel, keras.Variable) and dense.kernel.path == "dense/kernel"
    assert dense.kernel.synchronization == "auto"  # Keras reports what it was given
    assert repr(optimizer.iterations) == "<Variable path=adam/iteration, shape=(), dtype=int64, value=0>"
    assert strategy.extended.variable_created_in_scope(dense.kernel)


class _Scale(keras.layers.Layer):
    def build(self, input_shape):
        self.w = self.add_weight((input_shape[-1],), "ones", name="w")


def test_add_weight_takes_shape_initializer_dtype_positionally():
    layer = _Scale()
    layer.build((None, 3))
    np.testing.assert_array_equal(layer.w.numpy(), [1.0, 1.0, 1.0])
    mean = layer.add_weight(shape=(), aggregation="mean", name="m")
    assert mean.aggregation == "mean"


@pytest.mark.parametrize("args, kwargs, error, message", [
    (("kernel",), {"shape": (2,)}, ValueError,
     "`name` must be passed as a keyword argument. Received: add_weight('kernel', ...). Use: "
     "add_weight(shape=..., name='kernel')."),
    (((2,), "ones", "float32", 1), {}, TypeError, "add_weight() takes at most 3 positional arguments but 4 "
                                                  "were given."),
    (((2,),), {"shape": (2,)}, ValueError, "`shape` was passed both positionally and as a keyword argument."),
])
def test_add_weight_rejects_keras_2_positional_names(args, kwargs, error, message):
    with pytest.raises(error) as caught:
        keras.layers.Layer().add_weight(*args, **kwargs)
    assert str(caught.value) == message
