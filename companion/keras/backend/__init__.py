"""``companion.keras.backend``: TF 2.21's ``tf.keras.backend`` (Keras 3's legacy backend functions, its
settings and dtype helpers) over companion's ops."""

from companion.keras.backend._activations import elu as elu
from companion.keras.backend._activations import hard_sigmoid as hard_sigmoid
from companion.keras.backend._activations import relu as relu
from companion.keras.backend._activations import sigmoid as sigmoid
from companion.keras.backend._activations import softmax as softmax
from companion.keras.backend._activations import softplus as softplus
from companion.keras.backend._activations import softsign as softsign
from companion.keras.backend._activations import tanh as tanh
from companion.keras.backend._arrays import batch_flatten as batch_flatten
from companion.keras.backend._arrays import concatenate as concatenate
from companion.keras.backend._arrays import expand_dims as expand_dims
from companion.keras.backend._arrays import flatten as flatten
from companion.keras.backend._arrays import gather as gather
from companion.keras.backend._arrays import permute_dimensions as permute_dimensions
from companion.keras.backend._arrays import repeat as repeat
from companion.keras.backend._arrays import repeat_elements as repeat_elements
from companion.keras.backend._arrays import reshape as reshape
from companion.keras.backend._arrays import reverse as reverse
from companion.keras.backend._arrays import squeeze as squeeze
from companion.keras.backend._arrays import stack as stack
from companion.keras.backend._arrays import tile as tile
from companion.keras.backend._arrays import transpose as transpose
from companion.keras.backend._compare import equal as equal
from companion.keras.backend._compare import greater as greater
from companion.keras.backend._compare import greater_equal as greater_equal
from companion.keras.backend._compare import less as less
from companion.keras.backend._compare import less_equal as less_equal
from companion.keras.backend._compare import not_equal as not_equal
from companion.keras.backend._config import backend as backend
from companion.keras.backend._config import clear_session as clear_session
from companion.keras.backend._config import epsilon as epsilon
from companion.keras.backend._config import floatx as floatx
from companion.keras.backend._config import image_data_format as image_data_format
from companion.keras.backend._config import set_epsilon as set_epsilon
from companion.keras.backend._config import set_floatx as set_floatx
from companion.keras.backend._config import set_image_data_format as set_image_data_format
from companion.keras.backend._control_flow import foldl as foldl
from companion.keras.backend._control_flow import foldr as foldr
from companion.keras.backend._control_flow import map_fn as map_fn
from companion.keras.backend._control_flow import switch as switch
from companion.keras.backend._conv import conv1d as conv1d
from companion.keras.backend._conv import conv2d as conv2d
from companion.keras.backend._conv import conv2d_transpose as conv2d_transpose
from companion.keras.backend._conv import conv3d as conv3d
from companion.keras.backend._conv import depthwise_conv2d as depthwise_conv2d
from companion.keras.backend._conv import separable_conv2d as separable_conv2d
from companion.keras.backend._creation import arange as arange
from companion.keras.backend._creation import constant as constant
from companion.keras.backend._creation import eye as eye
from companion.keras.backend._creation import ones as ones
from companion.keras.backend._creation import ones_like as ones_like
from companion.keras.backend._creation import zeros as zeros
from companion.keras.backend._creation import zeros_like as zeros_like
from companion.keras.backend._ctc import ctc_batch_cost as ctc_batch_cost
from companion.keras.backend._ctc import ctc_decode as ctc_decode
from companion.keras.backend._ctc import ctc_label_dense_to_sparse as ctc_label_dense_to_sparse
from companion.keras.backend._dtypes import cast as cast
from companion.keras.backend._dtypes import cast_to_floatx as cast_to_floatx
from companion.keras.backend._dtypes import dtype as dtype
from companion.keras.backend._dtypes import is_float_dtype as is_float_dtype
from companion.keras.backend._dtypes import is_int_dtype as is_int_dtype
from companion.keras.backend._dtypes import result_type as result_type
from companion.keras.backend._dtypes import standardize_dtype as standardize_dtype
from companion.keras.backend._gradients import gradients as gradients
from companion.keras.backend._gradients import stop_gradient as stop_gradient
from companion.keras.backend._linalg import batch_dot as batch_dot
from companion.keras.backend._linalg import dot as dot
from companion.keras.backend._losses import binary_crossentropy as binary_crossentropy
from companion.keras.backend._losses import binary_focal_crossentropy as binary_focal_crossentropy
from companion.keras.backend._losses import categorical_crossentropy as categorical_crossentropy
from companion.keras.backend._losses import categorical_focal_crossentropy as categorical_focal_crossentropy
from companion.keras.backend._losses import sparse_categorical_crossentropy as sparse_categorical_crossentropy
from companion.keras.backend._math import abs as abs
from companion.keras.backend._math import clip as clip
from companion.keras.backend._math import cos as cos
from companion.keras.backend._math import exp as exp
from companion.keras.backend._math import log as log
from companion.keras.backend._math import maximum as maximum
from companion.keras.backend._math import minimum as minimum
from companion.keras.backend._math import pow as pow
from companion.keras.backend._math import round as round
from companion.keras.backend._math import sign as sign
from companion.keras.backend._math import sin as sin
from companion.keras.backend._math import sqrt as sqrt
from companion.keras.backend._math import square as square
from companion.keras.backend._naming import get_uid as get_uid
from companion.keras.backend._naming import name_scope as name_scope
from companion.keras.backend._nn import batch_normalization as batch_normalization
from companion.keras.backend._nn import bias_add as bias_add
from companion.keras.backend._nn import dropout as dropout
from companion.keras.backend._nn import in_top_k as in_top_k
from companion.keras.backend._nn import l2_normalize as l2_normalize
from companion.keras.backend._nn import one_hot as one_hot
from companion.keras.backend._padding import spatial_2d_padding as spatial_2d_padding
from companion.keras.backend._padding import spatial_3d_padding as spatial_3d_padding
from companion.keras.backend._padding import temporal_padding as temporal_padding
from companion.keras.backend._pooling import pool2d as pool2d
from companion.keras.backend._pooling import pool3d as pool3d
from companion.keras.backend._random import random_bernoulli as random_bernoulli
from companion.keras.backend._random import random_normal as random_normal
from companion.keras.backend._random import random_normal_variable as random_normal_variable
from companion.keras.backend._random import random_uniform as random_uniform
from companion.keras.backend._random import random_uniform_variable as random_uniform_variable
from companion.keras.backend._random import truncated_normal as truncated_normal
from companion.keras.backend._reductions import all as all
from companion.keras.backend._reductions import any as any
from companion.keras.backend._reductions import argmax as argmax
from companion.keras.backend._reductions import argmin as argmin
from companion.keras.backend._reductions import cumprod as cumprod
from companion.keras.backend._reductions import cumsum as cumsum
from companion.keras.backend._reductions import max as max
from companion.keras.backend._reductions import mean as mean
from companion.keras.backend._reductions import min as min
from companion.keras.backend._reductions import prod as prod
from companion.keras.backend._reductions import std as std
from companion.keras.backend._reductions import sum as sum
from companion.keras.backend._reductions import var as var
from companion.keras.backend._resize import resize_images as resize_images
from companion.keras.backend._resize import resize_volumes as resize_volumes
from companion.keras.backend._rnn import rnn as rnn
from companion.keras.backend._shape import count_params as count_params
from companion.keras.backend._shape import int_shape as int_shape
from companion.keras.backend._shape import ndim as ndim
from companion.keras.backend._shape import shape as shape
from companion.keras.backend._tensor_kinds import is_keras_tensor as is_keras_tensor
from companion.keras.backend._tensor_kinds import is_sparse as is_sparse
from companion.keras.backend._tensor_kinds import to_dense as to_dense
from companion.keras.backend._variables import batch_get_value as batch_get_value
from companion.keras.backend._variables import batch_set_value as batch_set_value
from companion.keras.backend._variables import eval as eval
from companion.keras.backend._variables import get_value as get_value
from companion.keras.backend._variables import moving_average_update as moving_average_update
from companion.keras.backend._variables import set_value as set_value
from companion.keras.backend._variables import update as update
from companion.keras.backend._variables import update_add as update_add
from companion.keras.backend._variables import update_sub as update_sub
from companion.keras.backend._variables import variable as variable

__all__ = ["abs", "all", "any", "arange", "argmax", "argmin", "backend", "batch_dot", "batch_flatten",
           "batch_get_value", "batch_normalization", "batch_set_value", "bias_add", "binary_crossentropy",
           "binary_focal_crossentropy", "cast", "cast_to_floatx", "categorical_crossentropy",
           "categorical_focal_crossentropy", "clear_session", "clip", "concatenate", "constant", "conv1d",
           "conv2d", "conv2d_transpose", "conv3d", "cos", "count_params", "ctc_batch_cost", "ctc_decode",
           "ctc_label_dense_to_sparse", "cumprod", "cumsum", "depthwise_conv2d", "dot", "dropout", "dtype",
           "elu", "epsilon", "equal", "eval", "exp", "expand_dims", "eye", "flatten", "floatx", "foldl",
           "foldr", "gather", "get_uid", "get_value", "gradients", "greater", "greater_equal",
           "hard_sigmoid", "image_data_format", "in_top_k", "int_shape", "is_float_dtype", "is_int_dtype",
           "is_keras_tensor", "is_sparse", "l2_normalize", "less", "less_equal", "log", "map_fn", "max",
           "maximum", "mean", "min", "minimum", "moving_average_update", "name_scope", "ndim", "not_equal",
           "one_hot", "ones", "ones_like", "permute_dimensions", "pool2d", "pool3d", "pow", "prod",
           "random_bernoulli", "random_normal", "random_normal_variable", "random_uniform",
           "random_uniform_variable", "relu", "repeat", "repeat_elements", "reshape", "resize_images",
           "resize_volumes", "result_type", "reverse", "rnn", "round", "separable_conv2d", "set_epsilon",
           "set_floatx", "set_image_data_format", "set_value", "shape", "sigmoid", "sign", "sin",
           "softmax", "softplus", "softsign", "sparse_categorical_crossentropy", "spatial_2d_padding",
           "spatial_3d_padding", "sqrt", "square", "squeeze", "stack", "standardize_dtype", "std",
           "stop_gradient", "sum", "switch", "tanh", "temporal_padding", "tile", "to_dense", "transpose",
           "truncated_normal", "update", "update_add", "update_sub", "var", "variable", "zeros",
           "zeros_like"]
