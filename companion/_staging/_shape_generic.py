"""Shape-generic concrete functions: one traced signature with ``None`` dimensions.

An ``input_signature`` such as ``[TensorSpec([None], float32)]``, a
``get_concrete_function(TensorSpec([None, 2]))`` or a signature relaxed by
``reduce_retracing=True`` accepts every size along its ``None`` dimensions. TensorFlow traces
such a signature once, into a graph whose shapes are partly unknown. JAX compiles for concrete
shapes, so companion keeps TensorFlow's *visible* behaviour and compiles per shape behind it:

- The Python function is traced once, when the signature is first needed (the first call, or
  ``get_concrete_function``): that is the one trace TF's counter counts, and its inputs report
  the signature's shape (``x.shape`` is ``(None,)``), as in TF.
- Each further concrete shape is staged again from the Python function, silently: its printed
  output is discarded and it is not counted, and the compiled program is kept per shape. The
  user sees one `ShapeGenericFunction` with one signature (``inputs``, ``outputs``,
  ``structured_input_signature``, ``pretty_printed_concrete_signatures`` all show ``None``).

Why not JAX's symbolic shapes (``jax.export`` shape polymorphism)? They trace truly once, but
many ops then see a symbolic dimension where they compute with an int (``tf.shape``,
``tf.size``, slicing, Keras layers building their weights, ``tf.where`` broadcasting): measured
on companion's ops, about half of a common set failed, and a failed symbolic trace cannot be
retried without running the Python function's side effects twice. Staging per shape runs every
op as it runs today. The cost: Python side effects other than printing (appending to a list,
counting in a global) repeat for each new shape, where TF runs them once.
"""

import numpy as np

from companion._core._shape import TensorShape
from companion._core._tensor import Tensor
from companion._core._tensor_spec import TensorSpec
from companion._staging._concrete_surface import StagedAgain


class ShapeGenericFunction(StagedAgain):
    """A `ConcreteFunction` whose signature has ``None`` dimensions; compiled per concrete shape.

    Behaves as one concrete function: calling it with tensors of any compatible shape runs
    the program staged for that shape (staging it silently on first use, see the module
    docstring). ``inputs``/``outputs`` show ``None`` where the size may vary.
    """

    def __init__(self, name, inputs, first, restage):
        self.name = name
        self._input_specs = list(inputs)
        self._first = first
        self._restage = restage  # flat tensors -> ConcreteFunction staged for their shapes, quietly
        self._by_shape = {_shape_key(first._input_specs): first}
        self._outputs = None

    # -- what a ConcreteFunction shows: the first shape's (`StagedAgain`), None dims in outputs --
    @property
    def _output_specs(self):
        """Output specs; a dimension that follows an input's ``None`` dimension is ``None``."""
        if self._outputs is None:
            self._outputs = self._generalized_outputs()
        return self._outputs

    # -- calling ------------------------------------------------------------------------------
    def specialization(self, flat_args):
        """The ConcreteFunction staged for these arguments' shapes (staged now if new)."""
        key = tuple(_shape_of(a) for a in flat_args)
        concrete = self._by_shape.get(key)
        if concrete is None:
            concrete = self._restage(flat_args)
            self._by_shape[key] = concrete
        return concrete

    def call(self, flat_args, variables=None, datasets=None):
        return self.specialization(flat_args).call(flat_args, variables, datasets)

    def _generalized_outputs(self):
        """Stages a second shape (other sizes in the ``None`` dims) and compares the outputs."""
        first = self._first
        try:
            specs = self._input_specs
            other = next((c for c in self._by_shape.values() if c is not first and all(
                _varies(spec, real, mine) for spec, real, mine in zip(specs, c._input_specs,
                                                                      first._input_specs))), None)
            if other is None:
                other = self.specialization([_other_size(spec, real) for spec, real
                                             in zip(self._input_specs, first._input_specs)])
        except Exception:  # noqa: BLE001 - only the shown signature depends on it
            return first._output_specs
        return [TensorSpec(_common_shape(a.shape, b.shape), a.dtype)
                for a, b in zip(first._output_specs, other._output_specs)]


def placeholder(spec):
    """A concrete array standing for ``spec`` when no call gave a shape: size 1 in ``None`` dims
    (zeros; empty strings for a string spec)."""
    dims = spec.shape._dims
    shape = [] if dims is None else [1 if d is None else d for d in dims]
    if spec.dtype.name == "string":
        return np.full(shape, b"", dtype=object)
    return np.zeros(shape, spec.dtype._np)


def _other_size(spec, real):
    dims = spec.shape._dims
    if dims is None:  # an unknown rank: one more dimension (an output whose rank follows is unknown)
        shape = (*real.shape, 1)
    else:
        shape = [r + 1 if d is None else r for d, r in zip(dims, real.shape)]
    if real.dtype.name == "string":
        return Tensor(np.full(tuple(shape), b"", dtype=object))
    # a bare array, a traced input; a Tensor holding a NumPy array is a host (string) value, passed by
    # value (`is_traced_leaf`): an output that is the input would be a constant, not a program output
    return np.zeros(tuple(shape), real.dtype._np)


def _varies(spec, real, first):
    """Whether ``real`` fits ``spec`` and differs from ``first`` where ``spec`` leaves the size
    (its rank, for an unknown rank) open, so the outputs of both show what depends on it."""
    if not spec.is_compatible_with(real):
        return False
    dims = spec.shape._dims
    if dims is None:
        return len(real.shape) != len(first.shape)
    return all(d is not None or a != b for d, a, b in zip(dims, real.shape, first.shape))


def _common_shape(a, b):
    return TensorShape(a).most_specific_compatible_shape(b)


def _shape_of(x):
    value = x._value if isinstance(x, Tensor) else x
    return (tuple(np.shape(value)), np.result_type(value) if not hasattr(value, "dtype") else value.dtype)


def _shape_key(specs):
    return tuple((tuple(s.shape), s.dtype._np) for s in specs)
