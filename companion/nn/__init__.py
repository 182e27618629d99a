"""`companion.nn`: TensorFlow's ``tf.nn``: activations, losses, normalization, convolution, pooling."""

from companion._ops._math import sigmoid, softplus, softsign, tanh
from companion._ops._nn_activations import (
    elu,
    gelu,
    leaky_relu,
    log_softmax,
    relu,
    relu6,
    selu,
    silu,
    softmax,
    swish,
)
from companion._ops._nn_conv import (
    conv1d,
    conv1d_transpose,
    conv2d,
    conv2d_transpose,
    conv3d,
    conv3d_transpose,
    convolution,
    depthwise_conv2d,
    separable_conv2d,
)
from companion._ops._nn_dropout import dropout
from companion._ops._nn_embedding import embedding_lookup
from companion._ops._nn_losses import (
    compute_average_loss,
    l2_loss,
    scale_regularization_loss,
    sigmoid_cross_entropy_with_logits,
    softmax_cross_entropy_with_logits,
    sparse_softmax_cross_entropy_with_logits,
    weighted_cross_entropy_with_logits,
)
from companion._ops._nn_normalization import batch_normalization, bias_add, l2_normalize, moments
from companion._ops._nn_pooling import (
    avg_pool,
    avg_pool1d,
    avg_pool2d,
    avg_pool3d,
    max_pool,
    max_pool1d,
    max_pool2d,
    max_pool3d,
)

__all__ = [
    "avg_pool", "avg_pool1d", "avg_pool2d", "avg_pool3d", "batch_normalization", "bias_add",
    "compute_average_loss", "conv1d", "conv1d_transpose", "conv2d", "conv2d_transpose", "conv3d",
    "conv3d_transpose", "convolution", "depthwise_conv2d", "separable_conv2d", "dropout", "elu",
    "embedding_lookup", "gelu", "l2_loss", "l2_normalize", "leaky_relu", "log_softmax", "max_pool",
    "max_pool1d", "max_pool2d", "max_pool3d", "moments", "relu", "relu6", "scale_regularization_loss",
    "selu", "sigmoid", "sigmoid_cross_entropy_with_logits", "silu", "softmax",
    "softmax_cross_entropy_with_logits", "softplus", "softsign",
    "sparse_softmax_cross_entropy_with_logits", "swish", "tanh", "weighted_cross_entropy_with_logits",
]
