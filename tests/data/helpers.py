"""Shared checks for companion.data tests: a dataset's elements as plain Python values, on every path."""

import numpy as np

import companion as tf
import companion.data  # noqa: F401 - registers tf.data until companion/__init__ imports it
from companion.data import Options


def plain(value):
    """NumPy/Tensor values (nested in tuples/dicts) as Python ints, floats, bytes and lists."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return tuple(plain(v) for v in value)
    if isinstance(value, tf.Tensor):
        value = value.numpy()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    return value


def unfused(dataset):
    """The same pipeline with companion's fusions (index gathers, vectorised maps) turned off."""
    options = Options()
    options.experimental_optimization.apply_default_optimizations = False
    return dataset.with_options(options)


def values(dataset):
    """The elements of ``dataset`` as plain values, checked to agree across iteration paths.

    Compares ``as_numpy_iterator`` with iterating Tensors, with fusions on and off.
    """
    got = [plain(e) for e in dataset.as_numpy_iterator()]
    assert [plain(e) for e in dataset] == got, "Tensor iteration differs from as_numpy_iterator"
    assert [plain(e) for e in unfused(dataset).as_numpy_iterator()] == got, "fused and unfused paths differ"
    return got


def spec_shapes(dataset):
    """The element spec as nested ``(shape list, dtype name)`` pairs."""
    def leaf(spec):
        return (spec.shape.as_list(), spec.dtype.name)
    spec = dataset.element_spec
    if isinstance(spec, dict):
        return {k: leaf(v) for k, v in spec.items()}
    if isinstance(spec, tuple):
        return tuple(leaf(s) for s in spec)
    return leaf(spec)
