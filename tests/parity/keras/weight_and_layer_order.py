"""Keras 3's orders: weights layer by layer (moving statistics beside their layer), and a functional
model's layers by graph depth (wide & deep, branches, shared layers, nested models, unused inputs)."""
import numpy as np
import tensorflow as tf

L = tf.keras.layers


def names(model):
    return [layer.name for layer in model.layers]


def paths(weights):
    return [w.path for w in weights]


seq = tf.keras.Sequential([tf.keras.Input((3,)), L.Dense(2, name="d1"), L.BatchNormalization(name="bn"),
                           L.Dense(1, name="d2")], name="seq")
print(paths(seq.weights))
print([w.shape for w in seq.get_weights()])
print(paths(seq.trainable_weights), paths(seq.non_trainable_weights))


class Sub(tf.keras.Model):
    def __init__(self):
        super().__init__(name="sub")
        self.d1 = L.Dense(2, name="d1")
        self.bn = L.BatchNormalization(name="bn")
        self.d2 = L.Dense(1, name="d2")

    def call(self, x):
        return self.d2(self.bn(self.d1(x)))


sub = Sub()
sub(np.ones((1, 3), "float32"))
print(paths(sub.weights))


class Linear(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.total = self.add_weight(shape=(), initializer="zeros", trainable=False, name="total")
        self.w = self.add_weight(shape=(input_shape[-1], 2), initializer="ones", name="w")
        self.b = self.add_weight(shape=(2,), initializer="zeros", name="bias")

    def call(self, inputs):
        return tf.matmul(inputs, self.w) + self.b


class Block(tf.keras.layers.Layer):
    def __init__(self):
        super().__init__(name="block")
        self.first = Linear(name="first")
        self.second = Linear(name="second")

    def call(self, x):
        return self.second(self.first(x))


block = Block()
block(np.ones((1, 3), "float32"))
print(paths(block.weights))
print(paths(block.trainable_weights), paths(block.non_trainable_weights))

a, b = tf.keras.Input((2,), name="wide"), tf.keras.Input((3,), name="deep")
h2 = L.Dense(4, name="h2")(L.Dense(4, name="h1")(b))
model = tf.keras.Model([a, b], L.Dense(1, name="out")(L.concatenate([a, h2], name="cat")))
print(names(model), paths(model.weights))
print([entry["name"] for entry in model.get_config()["layers"]])

x = tf.keras.Input((3,), name="x")
q = L.Dense(2, name="r1")(x)
p = L.Dense(2, name="s2")(L.Dense(2, name="s1")(x))
print(names(tf.keras.Model(x, L.Add(name="add")([p, q]))))
print(names(tf.keras.Model(x, [p, q])), names(tf.keras.Model(x, [q, p])))
print(names(tf.keras.Model(x, {"b": p, "a": q})))

x1, x2 = tf.keras.Input((3,), name="i1"), tf.keras.Input((3,), name="i2")
shared = L.Dense(2, name="shared")
u = shared(x1)
v = shared(L.Dense(3, name="pre")(x2))
print(names(tf.keras.Model([x1, x2], L.Add(name="add2")([u, v]))))

ix = tf.keras.Input((3,), name="inner_in")
inner = tf.keras.Model(ix, L.Dense(2, name="inner_d")(ix), name="inner")
ox = tf.keras.Input((3,), name="outer_in")
inner_out = inner(L.Dense(3, name="pre3")(ox))
nested = tf.keras.Model(ox, L.Add(name="add3")([inner_out, L.Dense(2, name="side")(ox)]))
print(names(nested), paths(nested.weights))

i1, i2, i3 = (tf.keras.Input((3,), name=n) for n in ("u1", "u2", "u3"))
print(names(tf.keras.Model([i1, i2, i3], L.Dense(1, name="d6")(L.Add(name="add6")([i3, i1])))))

enc_in, dec_in = tf.keras.Input((None,), name="enc_in"), tf.keras.Input((None,), name="dec_in")
_, h, c = L.LSTM(3, return_state=True, name="encoder")(L.Embedding(20, 4, name="enc_emb")(enc_in))
dec = L.LSTM(3, name="decoder")(L.Embedding(20, 4, name="dec_emb")(dec_in), initial_state=[h, c])
print(names(tf.keras.Model([enc_in, dec_in], L.Dense(5, name="logits")(dec))))
