"""``companion.dtypes``: the DType class, the dtype constants and `as_dtype` (TensorFlow's ``tf.dtypes``)."""

from companion._core._dtypes import (
    DType,
    as_dtype,
    bfloat16,
    bool,
    complex64,
    complex128,
    double,
    float16,
    float32,
    float64,
    half,
    int8,
    int16,
    int32,
    int64,
    string,
    uint8,
    uint16,
    uint32,
    uint64,
)
from companion._ops._conversions import complex, saturate_cast  # noqa: A004
from companion._ops._math import cast

__all__ = [
    "DType", "as_dtype", "bfloat16", "bool", "cast", "complex", "complex64", "complex128", "double",
    "float16",
    "float32", "float64", "half", "int8", "int16", "int32", "int64", "string", "uint8", "uint16",
    "saturate_cast", "uint32", "uint64",
]
