"""Graph names of Keras losses inside a tf.function: each per-example loss is named as TF's graph
names the last op Keras applies (categorical_crossentropy/softmax_cross_entropy_with_logits/Reshape_2,
.../Neg, .../Sum_1), and the ops after it count on from the ones the loss made."""
import tensorflow as tf

y = tf.constant([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]])
p = tf.constant([[0.1, 0.7, 0.3], [0.5, 0.2, 0.1]])
L = tf.keras.losses
classes = {
    "cce": L.CategoricalCrossentropy(),
    "cce logits": L.CategoricalCrossentropy(from_logits=True),
    "cce smoothing": L.CategoricalCrossentropy(label_smoothing=0.1),
    "cce logits smoothing": L.CategoricalCrossentropy(from_logits=True, label_smoothing=0.1),
    "cce logits axis 0": L.CategoricalCrossentropy(from_logits=True, axis=0),
    "focal": L.CategoricalFocalCrossentropy(),
    "focal logits smoothing": L.CategoricalFocalCrossentropy(from_logits=True, label_smoothing=0.1),
    "binary focal": L.BinaryFocalCrossentropy(),
    "binary focal logits balanced": L.BinaryFocalCrossentropy(from_logits=True, apply_class_balancing=True),
    "binary focal smoothing": L.BinaryFocalCrossentropy(label_smoothing=0.1),
    "bce smoothing": L.BinaryCrossentropy(label_smoothing=0.1),
    "bce logits": L.BinaryCrossentropy(from_logits=True),
    "mse": L.MeanSquaredError(), "mae": L.MeanAbsoluteError(), "mape": L.MeanAbsolutePercentageError(),
    "msle": L.MeanSquaredLogarithmicError(), "log cosh": L.LogCosh(), "poisson": L.Poisson(),
    "kld": L.KLDivergence(), "hinge": L.Hinge(), "squared hinge": L.SquaredHinge(),
    "categorical hinge": L.CategoricalHinge(), "cosine": L.CosineSimilarity(), "huber": L.Huber(),
    "dice": L.Dice(), "tversky": L.Tversky(),
}


@tf.function
def per_example(y, p):
    for name, loss in classes.items():
        loss.reduction = None
        print(name, loss(y, p).name)
    return y


per_example(y, p)
mse = L.MeanSquaredError()
mse.reduction = "sum"
print(float(mse(y, p)), L.MeanSquaredError(reduction=None)(y, p).shape)


@tf.function
def functions(y, p):
    # the function forms at the top of the graph: later ops count on from the loss's
    a = L.categorical_crossentropy(y, p)
    b = L.categorical_crossentropy(y, p, from_logits=True)
    c = L.categorical_focal_crossentropy(y, p)
    print(a.name, b.name, c.name, tf.reduce_sum(a).name, (a * 2.0).name, (a / 2.0).name, tf.math.log(a).name)
    d = tf.nn.softmax_cross_entropy_with_logits(y, p)
    e = tf.nn.softmax_cross_entropy_with_logits(y, p, name="named")
    f = tf.nn.softmax_cross_entropy_with_logits(y, p, axis=0)
    print(d.name, e.name, f.name)
    g = L.MeanSquaredError(reduction=None)(y, p)
    h = L.huber(y, p)
    print(g.name, h.name, (g - h).name, tf.square(g).name, tf.abs(h).name)
    reduced = L.CategoricalCrossentropy(from_logits=True)
    print(reduced(y, p).name, reduced(y, p).name, L.CategoricalCrossentropy()(y, p).name)
    return a


functions(y, p)
print([round(float(v), 4) for v in functions(y, p)])
