"""Inside a tf.function the Keras losses' tensors carry the names TF 2.21's graph gives them: the last
op Keras applies for the per-example losses, after the ones before it (which later ops count on from)."""

import pytest

import companion as tf

L = tf.keras.losses
Y = tf.constant([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]])
P = tf.constant([[0.1, 0.7, 0.3], [0.5, 0.2, 0.1]])


def _names(fn):
    seen = []

    @tf.function
    def traced(y, p):
        seen.extend(t.name for t in fn(y, p))
        return y

    traced(Y, P)
    return seen


@pytest.mark.parametrize("loss, expected", [
    (L.CategoricalCrossentropy(from_logits=True, reduction=None),
     "categorical_crossentropy/softmax_cross_entropy_with_logits/Reshape_2:0"),
    (L.CategoricalCrossentropy(from_logits=True, label_smoothing=0.1, axis=0, reduction=None),
     "categorical_crossentropy/softmax_cross_entropy_with_logits/Reshape_2:0"),
    (L.CategoricalCrossentropy(reduction=None), "categorical_crossentropy/Neg:0"),
    (L.CategoricalFocalCrossentropy(from_logits=True, reduction=None),
     "categorical_focal_crossentropy/Sum_1:0"),
    (L.BinaryFocalCrossentropy(reduction=None), "binary_focal_crossentropy/Mean:0"),
    (L.KLDivergence(reduction=None), "kl_divergence/Sum:0"),
    (L.CategoricalHinge(reduction=None), "categorical_hinge/Maximum:0"),
    (L.CosineSimilarity(reduction=None), "cosine_similarity/Neg:0"),
    (L.MeanAbsolutePercentageError(reduction=None), "mean_absolute_percentage_error/mul:0"),
    (L.Huber(reduction=None), "huber_loss/Mean:0"),
    (L.Tversky(reduction=None), "tversky/sub_2:0"),
])
def test_per_example_losses_are_named_as_tf(loss, expected):
    assert _names(lambda y, p: [loss(y, p)]) == [expected]


def test_later_ops_count_on_from_the_losses_ops():
    def program(y, p):
        a = L.categorical_crossentropy(y, p)
        b = L.categorical_crossentropy(y, p, from_logits=True)
        c = L.categorical_focal_crossentropy(y, p)
        return [a, b, c, tf.reduce_sum(a), a * 2.0, a / 2.0, tf.math.log(a)]

    assert _names(program) == ["Neg:0", "softmax_cross_entropy_with_logits/Reshape_2:0", "Sum_3:0", "Sum_4:0",
                               "mul_4:0", "truediv_2:0", "Log_2:0"]


def test_nn_softmax_cross_entropy_scope():
    def program(y, p):
        return [tf.nn.softmax_cross_entropy_with_logits(y, p),
                tf.nn.softmax_cross_entropy_with_logits(y, p, name="named"),
                tf.nn.softmax_cross_entropy_with_logits(y, p, axis=0)]

    assert _names(program) == ["softmax_cross_entropy_with_logits/Reshape_2:0", "named/Reshape_2:0",
                               "softmax_cross_entropy_with_logits_1/Reshape_2:0"]


def test_reduction_set_after_construction_is_used():
    mse = L.MeanSquaredError()
    mse.reduction = None
    assert mse(Y, P).shape == (2,)
    mse.reduction = "sum"
    assert float(mse(Y, P)) == pytest.approx(0.16333333)
    mse.reduction = "bogus"
    with pytest.raises(ValueError):
        mse(Y, P)
