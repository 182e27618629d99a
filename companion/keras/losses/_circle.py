"""Circle loss: pulls same-label embeddings together and pushes other labels apart (cosine space)."""

import jax
import jax.numpy as jnp

from companion._core._convert import as_input
from companion._core._op import op
from companion._ops._math import cast, greater
from companion.keras.layers._keras_mask import set_keras_mask
from companion.keras.losses._loss import LossFunctionWrapper
from companion.keras.losses._loss_inputs import float_tensor
from companion.keras.losses._reduction import Reduction


@op("keras_circle", static=("gamma", "margin", "remove_diagonal"))
def _circle(labels, embeddings, ref_labels, ref_embeddings, gamma, margin, remove_diagonal):
    distances = jnp.maximum(1 - embeddings @ ref_embeddings.T, 0.0)  # cosine distances of unit vectors
    positive = labels.reshape(-1, 1) == ref_labels.reshape(1, -1)
    negative = ~positive
    if remove_diagonal:  # an example is not its own positive
        positive = positive & ~jnp.eye(labels.size, ref_labels.size, dtype=bool)
    pos_weights = jnp.maximum((margin + distances) * positive, 0.0)
    neg_weights = jnp.maximum((1 + margin - distances) * negative, 0.0)
    pos_terms = -gamma * pos_weights * (margin - distances)
    neg_terms = gamma * neg_weights * ((1 - margin) - distances)
    pos_loss = jax.nn.logsumexp(jnp.where(positive, pos_terms, -jnp.inf), axis=1)
    neg_loss = jax.nn.logsumexp(jnp.where(negative, neg_terms, -jnp.inf), axis=1)
    return jax.nn.softplus(pos_loss + neg_loss)


def circle(y_true, y_pred, ref_labels=None, ref_embeddings=None, remove_diagonal=True, gamma=80, margin=0.4):
    """The Circle loss of each embedding (a row of ``y_pred``, expected L2-normalized) against the
    reference embeddings (``y_pred`` itself by default) with integer labels ``y_true``.

    Same-label pairs are positives (an example is not its own positive with ``remove_diagonal``),
    the others negatives; each is weighted by how far it is from its optimum (``margin`` /
    ``1 + margin``) and scaled by ``gamma``. An example without positives (or negatives) gets 0,
    and as in Keras 3 the result carries the mask ``loss > 0``, so `Circle` averages over the
    examples that have a loss.

    Example:
        >>> import companion as tf
        >>> embeddings = tf.constant([[1.0, 0.0], [0.6, 0.8], [0.0, 1.0]])
        >>> losses = tf.keras.losses.circle(tf.constant([0, 0, 1]), embeddings, gamma=2.0)
        >>> [round(float(value), 4) for value in losses]
        [0.5459, 1.2842, 0.0]
    """
    y_pred = float_tensor(y_pred)
    labels = cast(as_input(y_true), "int32")
    ref_embeddings = y_pred if ref_embeddings is None else float_tensor(ref_embeddings)
    ref_labels = labels if ref_labels is None else cast(as_input(ref_labels), "int32")
    losses = _circle(labels, y_pred, ref_labels, ref_embeddings, gamma=float(gamma), margin=float(margin),
                     remove_diagonal=bool(remove_diagonal))
    set_keras_mask(losses, greater(losses, 0.0))
    return losses


class Circle(LossFunctionWrapper):
    """`circle` as a loss, TensorFlow's ``tf.keras.losses.Circle``: with the default reduction, the
    mean over the examples whose loss is positive."""

    def __init__(self, gamma=80.0, margin=0.4, remove_diagonal=True, reduction=Reduction.SUM_OVER_BATCH_SIZE,
                 name="circle"):
        super().__init__(circle, reduction=reduction, name=name, gamma=gamma, margin=margin,
                         remove_diagonal=remove_diagonal)
        self.gamma, self.margin, self.remove_diagonal = gamma, margin, remove_diagonal
