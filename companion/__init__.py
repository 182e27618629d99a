"""companion: TensorFlow 2's custom- and distributed-training API on a JAX/XLA core.

``import companion as tf`` gives tensors, Variables, ``GradientTape`` and the ops of the
course with TensorFlow's names, dtype rules and reprs.
"""

import importlib as _importlib
import os as _os
import re as _re

import jax as _jax

from companion import _cpu_compile_flags, _host_devices  # nothing of companion's before them

_cpu_compile_flags.prefer_fast_compiles()
_host_devices.serial_cpu_kernels(_host_devices.forced_count())
_jax.config.update("jax_enable_x64", True)  # int64/float64/uint32 exist, as in TensorFlow
# Full float32 matrix products on GPUs too (no TF32): answers match a CPU's (config.experimental).
_jax.config.update("jax_default_matmul_precision", "highest")

from companion import _compilation_cache, _compiled_programs  # noqa: E402

_compilation_cache.enable()
_compiled_programs.watch()  # long-lived processes keep under the OS's cap on memory mappings

# ruff: noqa: E402, F401, F403, I001 - the order above matters: x64 before any array exists
from companion import _missing
from companion._core import _operators
from companion._core._convert import convert_to_tensor
from companion._core._convert import is_tensor_like as is_tensor
from companion._staging._graph import Graph, constant, executing_eagerly
from companion._core._device import device
from companion._core._dtypes import (
    DType, as_dtype, bfloat16, bool, complex64, complex128, double, float16, float32, float64,
    half, int8, int16, int32, int64, string, uint8, uint16, uint32, uint64)
from companion._core._errors import InvalidArgumentError
from companion._staging._function import ConcreteFunction, Function, function
from companion._tape._gradient_tape import GradientTape, UnconnectedGradients
from companion._ops import _array, _creation, _layout, _linalg, _math, _reduce, _scatter, _sort, _strings
from companion._core import _scopes
from companion._ops._array import *
from companion._ops._creation import *
from companion._ops._linalg import *
from companion._ops._math import *
from companion._ops._reduce import *
from companion._ops._sort import *
from companion._ops._clip import clip_by_global_norm, clip_by_norm
from companion._ops._conversions import bitcast, complex, saturate_cast
from companion._ops._counting import histogram_fixed_width, histogram_fixed_width_bins
from companion._ops._lists import identity_n, parallel_stack, shape_n
from companion._ops._partition import dynamic_partition, dynamic_stitch
from companion._ops._math import divide as realdiv
from companion._ops._math import truncatediv, truncatemod
from companion._ops._layout import *
from companion._ops._safe_math import stop_gradient
from companion._ops._scatter import *
from companion._core._scopes import *
from companion._staging._control_flow import case, cond, switch_case, while_loop
from companion._staging._tensor_array import TensorArray
from companion._core._indexed_slices import IndexedSlices
from companion._staging._map_fn import map_fn, vectorized_map
from companion._staging._scan import foldl, foldr, scan
from companion._tape._custom_gradient import custom_gradient
from companion._module import Module
from companion._ops._debugging import Assert, assert_equal, assert_greater, assert_less, assert_rank
from companion._staging._introspection import inside_function, is_symbolic_tensor, tuple
from companion._tape._gradient_helpers import AggregationMethod, grad_pass_through, gradients, hessians
from companion._tape._gradient_helpers import recompute_grad
from companion._logger import get_logger
from companion._ops._print import print
from companion._core._shape import TensorShape
from companion._core._tensor_spec import TensorSpec
from companion._core._operation import Operation
from companion._core._tensor import EagerTensor, Tensor
from companion._core._variable import Variable
from companion._core._variable_aggregation import VariableAggregation, VariableSynchronization
from companion._ops._py_function import numpy_function, py_function
from companion import autograph, bitwise, config, debugging, dtypes, errors, linalg, math, nest, nn, random

_operators.install(Tensor)
_operators.install(Variable)
_strings.install()

from companion.version import VERSION as __version__
newaxis = None  # tf.newaxis: x[:, tf.newaxis] inserts an axis, as NumPy's np.newaxis

__all__ = sorted({
    *_array.__all__, *_creation.__all__, *_linalg.__all__, *_math.__all__, *_reduce.__all__,
    *_sort.__all__, *_layout.__all__, *_scatter.__all__, *_scopes.__all__,
    "clip_by_global_norm", "clip_by_norm", "stop_gradient", "truncatediv", "truncatemod",
    "bitcast", "complex", "saturate_cast", "histogram_fixed_width", "histogram_fixed_width_bins",
    "identity_n", "parallel_stack", "shape_n", "dynamic_partition", "dynamic_stitch", "realdiv", "bitwise",
    "Assert", "inside_function", "is_symbolic_tensor", "tuple", "AggregationMethod", "grad_pass_through",
    "gradients", "hessians", "recompute_grad", "as_string",
    "case", "cond", "switch_case", "while_loop",
    "TensorArray", "IndexedSlices", "map_fn", "vectorized_map", "foldl", "foldr", "scan", "custom_gradient",
    "Module", "nest", "assert_equal", "assert_greater", "assert_less", "assert_rank", "debugging",
    "get_logger",
    "ConcreteFunction", "DType", "EagerTensor", "Function", "GradientTape", "Graph", "Operation",
    "TensorSpec",
    "compat", "function",
    "print", "autograph", "InvalidArgumentError", "Tensor", "TensorShape",
    "UnconnectedGradients", "Variable", "VariableAggregation", "VariableSynchronization", "as_dtype",
    "constant", "convert_to_tensor", "device",
    "executing_eagerly", "is_tensor", "newaxis",
    "bfloat16", "bool", "complex64", "complex128", "double", "float16", "float32", "float64", "half",
    "int8", "int16", "int32", "int64", "string", "uint8", "uint16", "uint32", "uint64",
    "config", "data", "datasets", "distribute", "dtypes", "errors", "experimental", "image", "io", "linalg",
    "math", "OptionalSpec",
    "nn", "random", "saved_model", "strings", "summary", "test", "tpu", "ragged", "RaggedTensor",
    "keras", "train", "numpy_function", "py_function", "autodiff", "version",
    "initializers", "losses", "metrics", "optimizers", "sparse", "SparseTensor", "signal", "lookup",
    "constant_initializer", "ones_initializer", "random_normal_initializer",
    "random_uniform_initializer", "zeros_initializer",
})

# imported on first use: keeps import fast
_LAZY = ("autodiff", "compat", "data", "datasets", "distribute", "experimental", "image", "io", "keras",
         "lookup", "ragged", "saved_model", "signal", "sparse", "strings", "summary", "test", "tpu", "train")
# TensorFlow's top-level initializers (tf.initializers v2) are Keras's classes with the same defaults.
_INITIALIZERS = {"constant_initializer": "Constant", "ones_initializer": "Ones",
                 "random_normal_initializer": "RandomNormal",
                 "random_uniform_initializer": "RandomUniform", "zeros_initializer": "Zeros"}


_KERAS_MODULES = ("initializers", "losses", "metrics", "optimizers")


def __getattr__(name):
    if name in _LAZY:
        module = _importlib.import_module(f"companion.{name}")
        globals()[name] = module
        return module
    if name == "OptionalSpec":  # tf.OptionalSpec, with tf.experimental.Optional in companion.data
        # deferred: companion.data is a lazy package, kept off `import companion`
        from companion.data._optional import OptionalSpec

        globals()[name] = OptionalSpec
        return OptionalSpec
    if name == "SparseTensor":  # tf.SparseTensor, with tf.sparse in companion.sparse
        # deferred: companion.sparse is a lazy package, kept off `import companion`
        from companion.sparse import SparseTensor

        globals()[name] = SparseTensor
        return SparseTensor
    if name in ("RaggedTensor", "RaggedTensorSpec"):  # tf.RaggedTensor(Spec), in companion.ragged
        ragged = _importlib.import_module("companion.ragged")
        globals()[name] = getattr(ragged, name)
        return globals()[name]
    if name == "as_string":  # tf.as_string: companion.strings' host op (a lazy package)
        strings = _importlib.import_module("companion.strings")
        globals()[name] = strings.as_string
        return strings.as_string
    if name in _KERAS_MODULES:  # tf.losses, tf.optimizers, ...: TF 2 exposes Keras's modules there
        module = _importlib.import_module(f"companion.keras.{name}")
        globals()[name] = module
        return module
    if name in _INITIALIZERS:
        initializers = _importlib.import_module("companion.keras.initializers")
        globals()[name] = getattr(initializers, _INITIALIZERS[name])
        return globals()[name]
    raise _missing.missing_attribute("companion", name, __dir__())


def __dir__():
    lazy_names = {"OptionalSpec", "RaggedTensor", "RaggedTensorSpec", "SparseTensor", "as_string"}
    return sorted(set(globals()) | set(_LAZY) | set(_INITIALIZERS) | set(_KERAS_MODULES) | lazy_names)
