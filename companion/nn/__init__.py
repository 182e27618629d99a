"""`companion.nn`: TensorFlow's ``tf.nn``: activations, losses, normalization, convolution, pooling."""

from companion._ops._counting import in_top_k
from companion._ops._math import sigmoid, softplus, softsign, tanh
from companion._ops._nn_activations import (
    crelu,
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
    atrous_conv2d,
    atrous_conv2d_transpose,
    conv1d,
    conv1d_transpose,
    conv2d,
    conv2d_transpose,
    conv3d,
    conv3d_transpose,
    conv_transpose,
    convolution,
    depthwise_conv2d,
    separable_conv2d,
)
from companion._ops._nn_ctc import ctc_greedy_decoder, ctc_loss
from companion._ops._nn_dropout import dropout
from companion._ops._nn_embedding import (
    embedding_lookup,
    embedding_lookup_sparse,
    safe_embedding_lookup_sparse,
)
from companion._ops._nn_losses import (
    compute_average_loss,
    l2_loss,
    log_poisson_loss,
    scale_regularization_loss,
    sigmoid_cross_entropy_with_logits,
    softmax_cross_entropy_with_logits,
    sparse_softmax_cross_entropy_with_logits,
    weighted_cross_entropy_with_logits,
)
from companion._ops._nn_normalization import (
    batch_norm_with_global_normalization,
    batch_normalization,
    bias_add,
    l2_normalize,
    local_response_normalization,
    lrn,
    moments,
    normalize_moments,
    sufficient_statistics,
    weighted_moments,
)
from companion._ops._nn_pool_argmax import max_pool_with_argmax
from companion._ops._nn_pooling import (
    avg_pool,
    avg_pool1d,
    avg_pool2d,
    avg_pool3d,
    max_pool,
    max_pool1d,
    max_pool2d,
    max_pool3d,
    pool,
)
from companion._ops._sequence_checks import zero_fraction
from companion._ops._sort import approx_max_k, approx_min_k, top_k
from companion._ops._space_depth import depth_to_space, space_to_depth

__all__ = [
    "atrous_conv2d", "atrous_conv2d_transpose", "batch_norm_with_global_normalization", "conv_transpose",
    "crelu", "ctc_greedy_decoder", "ctc_loss", "depth_to_space", "embedding_lookup_sparse", "in_top_k",
    "local_response_normalization",
    "log_poisson_loss", "lrn", "normalize_moments", "pool", "safe_embedding_lookup_sparse", "space_to_depth",
    "sufficient_statistics", "top_k", "approx_max_k", "approx_min_k", "weighted_moments", "zero_fraction",
    "avg_pool", "avg_pool1d", "avg_pool2d", "avg_pool3d", "batch_normalization", "bias_add",
    "compute_average_loss", "conv1d", "conv1d_transpose", "conv2d", "conv2d_transpose", "conv3d",
    "conv3d_transpose", "convolution", "depthwise_conv2d", "separable_conv2d", "dropout", "elu",
    "embedding_lookup", "gelu", "l2_loss", "l2_normalize", "leaky_relu", "log_softmax", "max_pool",
    "max_pool1d", "max_pool2d", "max_pool3d", "max_pool_with_argmax", "moments", "relu", "relu6",
    "scale_regularization_loss",
    "selu", "sigmoid", "sigmoid_cross_entropy_with_logits", "silu", "softmax",
    "softmax_cross_entropy_with_logits", "softplus", "softsign",
    "sparse_softmax_cross_entropy_with_logits", "swish", "tanh", "weighted_cross_entropy_with_logits",
]
