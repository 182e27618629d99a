"""``companion.keras.layers``: the Keras `Layer` base class and the layers built on it."""

from companion.keras.layers._activation import Activation
from companion.keras.layers._dense import Dense
from companion.keras.layers._dropout import Dropout
from companion.keras.layers._embedding import Embedding
from companion.keras.layers._flatten import Flatten
from companion.keras.layers._input_spec import InputSpec
from companion.keras.layers._lambda import Lambda
from companion.keras.layers._layer import Layer
from companion.keras.layers._merging import Add, Concatenate, add, concatenate
from companion.keras.layers._rescaling import Rescaling
from companion.keras.layers._reshape import Reshape

__all__ = [
    "Activation", "Add", "Concatenate", "Dense", "Dropout", "Embedding", "Flatten", "InputSpec",
    "Lambda", "Layer", "Rescaling", "Reshape", "add", "concatenate",
]
