"""``companion.keras.layers``: the Keras `Layer` base class and the layers built on it."""

from companion.keras._functional._input_layer import Input, InputLayer  # noqa: E402, I001
from companion.keras.layers._activation import Activation
from companion.keras.layers._adaptive_pooling import (
    AdaptiveAveragePooling1D,
    AdaptiveAveragePooling2D,
    AdaptiveAveragePooling3D,
    AdaptiveMaxPooling1D,
    AdaptiveMaxPooling2D,
    AdaptiveMaxPooling3D,
)
from companion.keras.layers._activation_layers import ELU, LeakyReLU, PReLU, ReLU, Softmax, ThresholdedReLU
from companion.keras.layers._auto_contrast import AutoContrast
from companion.keras.layers._batch_normalization import BatchNormalization
from companion.keras.layers._bidirectional import Bidirectional
from companion.keras.layers._category_encoding import CategoryEncoding
from companion.keras.layers._conv import Conv1D, Conv2D, Conv3D
from companion.keras.layers._conv_lstm import ConvLSTM1D, ConvLSTM2D, ConvLSTM3D
from companion.keras.layers._conv_transpose import Conv1DTranspose, Conv2DTranspose, Conv3DTranspose
from companion.keras.layers._dense import Dense
from companion.keras.layers._depthwise_conv import (
    DepthwiseConv1D,
    DepthwiseConv2D,
    SeparableConv1D,
    SeparableConv2D,
    SeparableConvolution1D,
    SeparableConvolution2D,
)
from companion.keras.layers._discretization import Discretization
from companion.keras.layers._dot import Dot, dot
from companion.keras.layers._dot_attention import AdditiveAttention, Attention
from companion.keras.layers._dropout import Dropout
from companion.keras.layers._einsum_dense import EinsumDense
from companion.keras.layers._embedding import Embedding
from companion.keras.layers._equalization import Equalization
from companion.keras.layers._feature_normalization import Normalization
from companion.keras.layers._flatten import Flatten
from companion.keras.layers._global_pooling_1d import (
    GlobalAveragePooling1D,
    GlobalAvgPool1D,
    GlobalMaxPool1D,
    GlobalMaxPooling1D,
)
from companion.keras.layers._hashed_crossing import HashedCrossing
from companion.keras.layers._hashing import Hashing
from companion.keras.layers._image_augmentation import (
    CenterCrop,
    RandomBrightness,
    RandomContrast,
    RandomCrop,
    RandomFlip,
    RandomRotation,
    RandomTranslation,
    RandomZoom,
    Resizing,
)
from companion.keras.layers._group_normalization import GroupNormalization
from companion.keras.layers._index_lookup import IntegerLookup, StringLookup
from companion.keras.layers._input_spec import InputSpec
from companion.keras.layers._lambda import Lambda
from companion.keras.layers._layer import Layer
from companion.keras.layers._layer_normalization import LayerNormalization
from companion.keras.layers._masking import Masking
from companion.keras.layers._pipeline import Pipeline
from companion.keras.layers._multi_head_attention import MultiHeadAttention
from companion.keras.layers._noise import GaussianDropout, GaussianNoise, Identity
from companion.keras.layers._merging import (
    Add,
    Average,
    Concatenate,
    Maximum,
    Minimum,
    Multiply,
    Subtract,
    add,
    average,
    concatenate,
    maximum,
    minimum,
    multiply,
    subtract,
)
from companion.keras.layers._pooling import (
    AveragePooling1D,
    AveragePooling2D,
    AvgPool1D,
    AvgPool2D,
    GlobalAveragePooling2D,
    GlobalAvgPool2D,
    GlobalMaxPool2D,
    GlobalMaxPooling2D,
    MaxPool1D,
    MaxPool2D,
    MaxPooling1D,
    MaxPooling2D,
    AveragePooling3D,
    AvgPool3D,
    GlobalAveragePooling3D,
    GlobalAvgPool3D,
    GlobalMaxPool3D,
    GlobalMaxPooling3D,
    MaxPool3D,
    MaxPooling3D,
)
from companion.keras.layers._regularization_layers import ActivityRegularization, AlphaDropout
from companion.keras.layers._unit_normalization import UnitNormalization
from companion.keras.layers._recurrent import GRU, LSTM, SimpleRNN
from companion.keras.layers._rnn_cells import RNN, GRUCell, LSTMCell, SimpleRNNCell, StackedRNNCells
from companion.keras.layers._rescaling import Rescaling
from companion.keras.layers._rms_normalization import RMSNormalization
from companion.keras.layers._reshape import Reshape
from companion.keras.layers._solarization import Solarization
from companion.keras.layers._serialization import deserialize, serialize
from companion.keras.layers._spatial_dropout import SpatialDropout1D, SpatialDropout2D, SpatialDropout3D
from companion.keras.layers._spatial_reshaping import (
    Cropping1D,
    Cropping2D,
    Cropping3D,
    Permute,
    RepeatVector,
    UpSampling1D,
    UpSampling2D,
    UpSampling3D,
    ZeroPadding1D,
    ZeroPadding2D,
    ZeroPadding3D,
)
from companion.keras.layers._text_vectorization import TextVectorization
from companion.keras.layers._time_distributed import TimeDistributed
from companion.keras.layers._wrapper import Wrapper

Convolution1D, Convolution2D, Convolution3D = Conv1D, Conv2D, Conv3D
Convolution1DTranspose, Convolution2DTranspose, Convolution3DTranspose = (Conv1DTranspose, Conv2DTranspose,
                                                                          Conv3DTranspose)

__all__ = [
    "Activation", "ActivityRegularization", "AdaptiveAveragePooling1D", "AdaptiveAveragePooling2D",
    "AdaptiveAveragePooling3D", "AdaptiveMaxPooling1D", "AdaptiveMaxPooling2D", "AdaptiveMaxPooling3D", "Add",
    "AdditiveAttention", "AlphaDropout", "Attention", "AutoContrast", "Average", "AveragePooling1D",
    "AveragePooling2D", "AveragePooling3D", "AvgPool1D", "AvgPool2D", "AvgPool3D", "BatchNormalization",
    "Bidirectional", "CategoryEncoding", "CenterCrop", "Concatenate", "Conv1D", "Conv1DTranspose", "Conv2D",
    "Conv2DTranspose", "Conv3D", "Conv3DTranspose", "ConvLSTM1D", "ConvLSTM2D", "ConvLSTM3D", "Convolution1D",
    "Convolution1DTranspose", "Convolution2D", "Convolution2DTranspose", "Convolution3D",
    "Convolution3DTranspose", "Cropping1D", "Cropping2D", "Cropping3D", "Dense", "DepthwiseConv1D",
    "DepthwiseConv2D", "Discretization", "Dot", "Dropout", "ELU", "EinsumDense", "Embedding", "Equalization",
    "Flatten", "GRU", "GRUCell", "GaussianDropout", "GaussianNoise", "GlobalAveragePooling1D",
    "GlobalAveragePooling2D", "GlobalAveragePooling3D", "GlobalAvgPool1D", "GlobalAvgPool2D",
    "GlobalAvgPool3D", "GlobalMaxPool1D", "GlobalMaxPool2D", "GlobalMaxPool3D", "GlobalMaxPooling1D",
    "GlobalMaxPooling2D", "GlobalMaxPooling3D", "GroupNormalization", "HashedCrossing", "Hashing", "Identity",
    "Input", "InputLayer", "InputSpec", "IntegerLookup", "LSTM", "LSTMCell", "Lambda", "Layer",
    "LayerNormalization", "LeakyReLU", "Masking", "MaxPool1D", "MaxPool2D", "MaxPool3D", "MaxPooling1D",
    "MaxPooling2D", "MaxPooling3D", "Maximum", "Minimum", "MultiHeadAttention", "Multiply", "Normalization",
    "PReLU", "Permute", "Pipeline", "RMSNormalization", "RNN", "RandomBrightness", "RandomContrast",
    "RandomCrop", "RandomFlip", "RandomRotation", "RandomTranslation", "RandomZoom", "ReLU", "RepeatVector",
    "Rescaling", "Reshape", "Resizing", "SeparableConv1D", "SeparableConv2D", "SeparableConvolution1D",
    "SeparableConvolution2D", "SimpleRNN", "SimpleRNNCell", "Softmax", "Solarization", "SpatialDropout1D",
    "SpatialDropout2D", "SpatialDropout3D", "StackedRNNCells", "StringLookup", "Subtract",
    "TextVectorization", "ThresholdedReLU", "TimeDistributed", "UnitNormalization", "UpSampling1D",
    "UpSampling2D", "UpSampling3D", "Wrapper", "ZeroPadding1D", "ZeroPadding2D", "ZeroPadding3D", "add",
    "average", "concatenate", "deserialize", "dot", "maximum", "minimum", "multiply", "serialize", "subtract",
]
