"""Keras 3's orders: ``weights`` layer by layer, a functional model's ``layers`` by graph depth.

Expected values were printed by TF 2.21 + Keras 3.15 (/work/tfenv) running the same code.
"""

import os

import numpy as np

import companion as tf

L = tf.keras.layers


def _paths(weights):
    return [w.path for w in weights]


def _names(model):
    return [layer.name for layer in model.layers]


def _seq():
    return tf.keras.Sequential([tf.keras.Input((3,)), L.Dense(2, name="d1"), L.BatchNormalization(name="bn"),
                                L.Dense(1, name="d2")], name="sequential")


def test_sequential_weights_are_listed_layer_by_layer():
    # TF 2.21: moving statistics stay with their BatchNormalization, between d1 and d2
    seq = _seq()
    assert _paths(seq.weights) == [
        "sequential/d1/kernel", "sequential/d1/bias", "sequential/bn/gamma", "sequential/bn/beta",
        "sequential/bn/moving_mean", "sequential/bn/moving_variance", "sequential/d2/kernel",
        "sequential/d2/bias"]
    assert [w.shape for w in seq.get_weights()] == [(3, 2), (2,), (2,), (2,), (2,), (2,), (2, 1), (1,)]
    assert _paths(seq.trainable_weights) == [
        "sequential/d1/kernel", "sequential/d1/bias", "sequential/bn/gamma", "sequential/bn/beta",
        "sequential/d2/kernel", "sequential/d2/bias"]
    assert _paths(seq.non_trainable_weights) == ["sequential/bn/moving_mean", "sequential/bn/moving_variance"]


def test_subclassed_model_and_nested_layer_weights_follow_their_layers():
    class Blk(L.Layer):
        def __init__(self, **kw):
            super().__init__(**kw)
            self.d1 = L.Dense(2, name="d1")
            self.bn = L.BatchNormalization(name="bn")

        def call(self, x):
            return self.bn(self.d1(x))

    inp = tf.keras.Input((3,))
    f = tf.keras.Model(inp, L.Dense(1, name="o")(Blk(name="blk2")(inp)))
    # TF 2.21: ['blk2/d1/kernel', 'blk2/d1/bias', 'blk2/bn/gamma', 'blk2/bn/beta', 'blk2/bn/moving_mean', ...]
    assert _paths(f.weights) == ["blk2/d1/kernel", "blk2/d1/bias", "blk2/bn/gamma", "blk2/bn/beta",
                                 "blk2/bn/moving_mean", "blk2/bn/moving_variance", "o/kernel", "o/bias"]


def test_own_weights_trainable_first_then_non_trainable_then_sublayers():
    class C(L.Layer):
        def build(self, shape):
            self.t = self.add_weight(name="t", shape=(), trainable=False)
            self.k = self.add_weight(name="k", shape=(2,))
            self.inner = L.Dense(2, name="ind")
            self.inner.build((None, 2))
            self.k2 = self.add_weight(name="k2", shape=(1,))

        def call(self, x):
            return x

    c = C(name="c10")
    c(np.ones((1, 2), "float32"))
    # TF 2.21: ['c10/k', 'c10/k2', 'c10/t', 'c10/ind/kernel', 'c10/ind/bias']
    assert _paths(c.weights) == ["c10/k", "c10/k2", "c10/t", "c10/ind/kernel", "c10/ind/bias"]


def test_frozen_layers_keep_the_weights_order():
    x = tf.keras.Input((3,), name="x9")
    m = tf.keras.Model(x, L.Dense(1, name="e2")(L.BatchNormalization(name="bn9")(L.Dense(2, name="e1")(x))))
    everything = ["e1/kernel", "e1/bias", "bn9/gamma", "bn9/beta", "bn9/moving_mean", "bn9/moving_variance",
                  "e2/kernel", "e2/bias"]
    assert _paths(m.weights) == everything
    m.get_layer("e1").trainable = False
    # TF 2.21 after freezing e1:
    assert _paths(m.weights) == everything
    assert _paths(m.trainable_weights) == ["bn9/gamma", "bn9/beta", "e2/kernel", "e2/bias"]
    assert _paths(m.non_trainable_weights) == ["e1/kernel", "e1/bias", "bn9/moving_mean",
                                               "bn9/moving_variance"]
    m.trainable = False
    assert _paths(m.non_trainable_weights) == everything


def test_get_set_and_saved_weights_round_trip_in_the_new_order(tmp_path):
    seq = _seq()
    seq(np.ones((4, 3), "float32"), training=True)  # moves the BatchNormalization statistics
    values = [np.arange(w.size, dtype="float32").reshape(w.shape) + i
              for i, w in enumerate(seq.get_weights())]
    seq.set_weights(values)
    assert all(np.array_equal(a, b) for a, b in zip(seq.get_weights(), values))
    path = os.path.join(tmp_path, "m.weights.h5")
    seq.save_weights(path)
    other = _seq()
    other.load_weights(path)
    assert all(np.array_equal(a, b) for a, b in zip(other.get_weights(), values))
    other.compile(optimizer="adam", loss="mse")
    other.fit(np.ones((4, 3), "float32"), np.ones((4, 1), "float32"), verbose=0)
    assert len(other.optimizer.variables) > 1


def test_functional_layers_follow_keras_graph_depth_order():
    # Each expectation is what TF 2.21 printed for the same graph.
    a, b = tf.keras.Input((2,), name="wide"), tf.keras.Input((3,), name="deep")
    h2 = L.Dense(4, name="h2")(L.Dense(4, name="h1")(b))
    m = tf.keras.Model([a, b], L.Dense(1, name="out")(L.concatenate([a, h2], name="cat")))
    assert _names(m) == ["deep", "h1", "wide", "h2", "cat", "out"]
    assert _paths(m.weights) == ["h1/kernel", "h1/bias", "h2/kernel", "h2/bias", "out/kernel", "out/bias"]

    x = tf.keras.Input((3,), name="x2")
    q = L.Dense(2, name="r1")(x)
    p = L.Dense(2, name="s2")(L.Dense(2, name="s1")(x))
    assert _names(tf.keras.Model(x, L.Add(name="add")([p, q]))) == ["x2", "s1", "s2", "r1", "add"]

    x = tf.keras.Input((3,), name="x3")
    p = L.Dense(2, name="p2")(L.Dense(2, name="p1")(x))
    q = L.Dense(2, name="q1")(x)
    assert _names(tf.keras.Model(x, [p, q])) == ["x3", "p1", "p2", "q1"]
    assert _names(tf.keras.Model(x, [q, p])) == ["x3", "p1", "q1", "p2"]
    assert _names(tf.keras.Model(x, {"b": p, "a": q})) == ["x3", "p1", "q1", "p2"]  # keys sorted


def test_functional_layers_with_shared_nested_and_unused_inputs():
    x1, x2 = tf.keras.Input((3,), name="i1"), tf.keras.Input((3,), name="i2")
    shared = L.Dense(2, name="shared")
    u = shared(x1)
    v = shared(L.Dense(3, name="pre")(x2))
    m = tf.keras.Model([x1, x2], L.Add(name="add4")([u, v]))
    assert _names(m) == ["i2", "i1", "pre", "shared", "add4"]  # a shared layer takes its deepest call
    assert _paths(m.weights) == ["pre/kernel", "pre/bias", "shared/kernel", "shared/bias"]

    ix = tf.keras.Input((3,), name="inner_in")
    inner = tf.keras.Model(ix, L.Dense(2, name="inner_d")(ix), name="inner")
    ox = tf.keras.Input((3,), name="outer_in")
    y1 = L.Dense(3, name="pre5")(ox)
    m = tf.keras.Model(ox, L.Add(name="add5")([inner(y1), L.Dense(2, name="side")(ox)]))
    assert _names(m) == ["outer_in", "pre5", "inner", "side", "add5"]
    assert _paths(m.weights) == ["pre5/kernel", "pre5/bias", "inner_d/kernel", "inner_d/bias", "side/kernel",
                                 "side/bias"]

    i1, i2, i3 = (tf.keras.Input((3,), name=n) for n in ("u1", "u2", "u3"))
    m = tf.keras.Model([i1, i2, i3], L.Dense(1, name="d6")(L.Add(name="add6")([i3, i1])))
    assert _names(m) == ["u3", "u1", "add6", "u2", "d6"]  # the unused input has depth 0

    d = {"zz": tf.keras.Input((2,), name="zz"), "aa": tf.keras.Input((2,), name="aa")}
    cat = L.concatenate([d["zz"], L.Dense(2, name="pa")(d["aa"])], name="c7")
    assert _names(tf.keras.Model(d, L.Dense(1, name="d7")(cat))) == ["aa", "zz", "pa", "c7", "d7"]

    x = tf.keras.Input((3,), name="x8")
    a1, b1 = L.Dense(3, name="a1")(x), L.Dense(3, name="b1")(x)
    c = L.Add(name="c8")([b1, L.Dense(3, name="a2")(a1)])
    assert _names(tf.keras.Model(x, L.Add(name="c9")([c, a1]))) == ["x8", "a1", "b1", "a2", "c8", "c9"]


def test_functional_model_rebuilt_from_config_keeps_the_order():
    a, b = tf.keras.Input((2,), name="wide"), tf.keras.Input((3,), name="deep")
    h2 = L.Dense(4, name="h2")(L.Dense(4, name="h1")(b))
    m = tf.keras.Model([a, b], L.Dense(1, name="out")(L.concatenate([a, h2], name="cat")))
    assert [e["name"] for e in m.get_config()["layers"]] == ["deep", "h1", "wide", "h2", "cat", "out"]
    again = tf.keras.Model.from_config(m.get_config())
    assert _names(again) == _names(m)
    again.set_weights(m.get_weights())
    x = [np.ones((2, 2), "float32"), np.ones((2, 3), "float32")]
    np.testing.assert_allclose(again(x).numpy(), m(x).numpy())
