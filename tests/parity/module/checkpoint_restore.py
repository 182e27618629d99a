"""Checkpointing a Module and restoring it into modules built the same way and differently."""
import os
import tempfile

import tensorflow as tf


class Dense(tf.Module):
    def __init__(self, in_features, out_features, name=None):
        super().__init__(name=name)
        self.w = tf.Variable(tf.fill([in_features, out_features], 0.5), name="w")
        self.b = tf.Variable(tf.zeros([out_features]), name="b")

    def __call__(self, x):
        return tf.nn.relu(tf.matmul(x, self.w) + self.b)


class TwoLayers(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.dense_1 = Dense(3, 3)
        self.dense_2 = Dense(3, 2)

    def __call__(self, x):
        return self.dense_2(self.dense_1(x))


class OneLayer(tf.Module):
    def __init__(self):
        super().__init__()
        self.dense_1 = Dense(3, 3)


def first_line(fn):
    try:
        fn()
        print("ok")
    except AssertionError as e:
        print("AssertionError:", str(e).split("\n")[0][:90])


folder = tempfile.mkdtemp()
model = TwoLayers(name="the_model")
model.dense_2.b.assign([1.0, -1.0])
written = tf.train.Checkpoint(model=model).write(os.path.join(folder, "written"))
print(os.path.basename(written))
for name, shape in tf.train.list_variables(written):
    print(name, shape)
saved = tf.train.Checkpoint(model=model).save(os.path.join(folder, "saved"))
print(os.path.basename(saved), [name for name, _ in tf.train.list_variables(saved)][-1])

same = TwoLayers()
status = tf.train.Checkpoint(model=same).restore(saved)
first_line(status.assert_consumed)
print(same(tf.constant([[1.0, 2.0, 3.0]])))

checkpoint = tf.train.Checkpoint(model=TwoLayers())
status = checkpoint.restore(written)
first_line(status.assert_consumed)
first_line(status.assert_nontrivial_match)
print(checkpoint.save_counter.numpy())

status = tf.train.Checkpoint(model=OneLayer()).restore(saved)
first_line(status.assert_existing_objects_matched)
first_line(status.assert_consumed)
status.expect_partial()

bigger = TwoLayers()
bigger.extra = tf.Variable(1.0, name="extra")
status = tf.train.Checkpoint(model=bigger).restore(saved)
first_line(status.assert_consumed)

bare = tf.Module()
bare.v = tf.Variable(3.0)
bare._hidden = tf.Variable(4.0)
path = tf.train.Checkpoint(m=bare).write(os.path.join(folder, "bare"))
print([name for name, _ in tf.train.list_variables(path)])
print(repr(model).startswith("<__main__.TwoLayers object at 0x"))
