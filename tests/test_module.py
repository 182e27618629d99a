"""tf.Module: names, name scopes, and the Variables and submodules found in attributes."""

import re

import numpy as np
import pytest

import companion as tf


class Dense(tf.Module):
    def __init__(self, units, name=None):
        super().__init__(name=name)
        self.w = tf.Variable(tf.ones((2, units)), name="w")
        self.b = tf.Variable(tf.zeros(units), trainable=False, name="b")

    @tf.Module.with_name_scope
    def __call__(self, x):
        self.seen_scope = tf.get_current_name_scope()
        return tf.matmul(x, self.w) + self.b


class Net(tf.Module):
    def __init__(self):
        super().__init__()
        self.blocks = {"second": Dense(2, name="second"), "first": Dense(2, name="first")}
        self.extra = [tf.Variable(3.0, name="scale"), None, (tf.constant(1.0),)]
        self.alias = self.blocks["first"]  # found twice, listed once


def test_names_and_name_scopes():
    assert tf.Module().name == "module" and Net().name == "net"
    assert Dense(1, name="d").name == "d"
    with tf.name_scope("outer"):
        inner = Dense(1, name="d")
    assert inner.name_scope.name == "outer/d/"
    inner(tf.ones((1, 2)))
    assert inner.seen_scope == "outer/d"
    with pytest.raises(ValueError, match="not a valid module name"):
        tf.Module(name="bad name")


def test_variables_and_submodules_in_tf_order():
    net = Net()
    first, second = net.blocks["first"], net.blocks["second"]
    # TF's order: the module's own attributes (sorted by name, dicts by key), then submodules
    assert net.submodules == (first, second)
    assert [id(v) for v in net.variables] == [id(v) for v in (net.extra[0], first.b, first.w,
                                                                second.b, second.w)]
    assert [id(v) for v in net.trainable_variables] == [id(v) for v in (net.extra[0], first.w, second.w)]
    assert [id(v) for v in net.non_trainable_variables] == [id(first.b), id(second.b)]
    assert first.submodules == ()


def test_module_trains_with_a_tape():
    layer = Dense(1)
    x = tf.constant([[1.0, 2.0]])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(layer(x))
    grads = tape.gradient(y, layer.trainable_variables)
    np.testing.assert_array_equal(grads[0].numpy(), [[1.0], [2.0]])


def test_keras_layers_are_modules():
    layer = tf.keras.layers.Dense(3)
    layer.build((None, 2))
    assert isinstance(layer, tf.Module) and isinstance(tf.keras.Sequential(), tf.Module)
    assert len(layer.trainable_variables) == 2
    assert layer.name_scope.name == f"{layer.name}/"


def test_module_prints_as_python_does_and_names_are_checked():
    class Dense(tf.Module):
        pass

    assert re.fullmatch(r"<.*\.Dense object at 0x[0-9a-f]+>", repr(Dense()))
    with pytest.raises(ValueError) as info:
        tf.Module(name="bad name")
    assert str(info.value).split("\n")[0] == (  # TF 2.21's first line
        "'bad name' is not a valid module name. Module names must be valid Python identifiers (e.g. a "
        "valid class name).")


def test_a_bare_module_is_checkpointed_by_its_attributes(tmp_path):
    # TF 2.21 lists m/_p and m/v (a private attribute is tracked too)
    m = tf.Module()
    m.v = tf.Variable(1.0)
    m._p = tf.Variable(2.0)
    path = tf.train.Checkpoint(m=m).write(str(tmp_path / "x"))
    assert [name for name, _ in tf.train.list_variables(path)] == [
        "_CHECKPOINTABLE_OBJECT_GRAPH", "m/_p/.ATTRIBUTES/VARIABLE_VALUE", "m/v/.ATTRIBUTES/VARIABLE_VALUE"]
    fresh = tf.Module()
    fresh.v, fresh._p = tf.Variable(0.0), tf.Variable(0.0)
    tf.train.Checkpoint(m=fresh).restore(path)
    assert (float(fresh.v.numpy()), float(fresh._p.numpy())) == (1.0, 2.0)


def test_flatten_with_paths_and_attribute_errors_as_in_tf():
    # TF 2.21's paths and order: own attributes sorted, then submodules; with_path lists every occurrence
    class Leaf(tf.Module):
        def __init__(self, k, name=None):
            super().__init__(name=name)
            self.k = tf.Variable(float(k), name="k")

    class Holder(tf.Module):
        def __init__(self):
            super().__init__()
            self.tup = (tf.Variable(1.0, name="t0"), Leaf(1))
            self.lst = [Leaf(2), [tf.Variable(2.0, name="nested")]]
            self.dct = {"z": tf.Variable(3.0, name="z"), "a": Leaf(3)}
            self.same = self.tup[0]

    h = Holder()
    found = h._flatten(predicate=lambda x: isinstance(x, tf.Variable), with_path=True)
    assert [(path, v.name) for path, v in found] == [
        (("dct", "z"), "z:0"), (("lst", 1, 0), "nested:0"), (("same",), "t0:0"), (("tup", 0), "t0:0"),
        (("dct", "a", "k"), "k:0"), (("lst", 0, "k"), "k:0"), (("tup", 1, "k"), "k:0")]
    assert [v.name for v in h.variables] == ["z:0", "nested:0", "t0:0", "k:0", "k:0", "k:0"]
    assert list(h._flatten(recursive=False, predicate=lambda x: isinstance(x, tf.Module))) == [
        h.dct["a"], h.lst[0], h.tup[1]]
    h.bad = {"z": tf.Variable(1.0), 1: tf.Variable(2.0)}
    with pytest.raises(ValueError, match=r"^Error processing property 'bad' of DictWrapper\(\{'z'") as info:
        h.variables  # noqa: B018
    assert isinstance(info.value.__cause__, TypeError)
