"""`Tensor`: an immutable value (a concrete `jax.Array` or a tracer) with TensorFlow's interface."""

import jax
import numpy as np

from companion._core import _dtypes, _tensor_names
from companion._core._context import state
from companion._core._deferred import Pending
from companion._core._device import device_name_of
from companion._core._operation import producer
from companion._core._shape import TensorShape


class Tensor:
    """An immutable multi-dimensional array, TensorFlow's ``tf.Tensor``.

    A Tensor wraps a ``jax.Array`` (eager) or a JAX tracer (inside `companion.function`);
    string tensors wrap a NumPy array of ``bytes``. Operators (``+``, ``@``, ``==``, …)
    are the companion ops, so they follow TensorFlow's dtype rules and are recorded by
    a `GradientTape`.

    Example:
        >>> import companion as tf
        >>> print(tf.constant([1, 2]) + tf.constant([3, 4]))
        companion.Tensor([4 6], shape=(2,), dtype=int32)
    """

    __slots__ = ("_v", "__weakref__")
    _is_variable = False
    __array_priority__ = 100  # NumPy defers `ndarray + Tensor` to Tensor.__radd__

    def __init__(self, value):
        self._v = value  # an array, a tracer, or a deferred op's `Pending` output

    @property
    def _value(self):
        """The array (a deferred op's output is computed first; see `companion._core._deferred`)."""
        value = self._v
        if value.__class__ is Pending:
            value = self._v = value.force()
        return value

    @_value.setter
    def _value(self, value):
        self._v = value

    # -- what the tensor is ------------------------------------------------------------
    @property
    def shape(self):
        return TensorShape(self._v.shape)

    def get_shape(self):
        return self.shape

    def set_shape(self, shape):
        """Checks that the shape is compatible with ``shape`` (None dims match any size); returns None.

        A companion tensor's shape is always fully known, so this only checks (as TF does for
        eager tensors). In a dataset function after `py_function`, it also gives the element
        spec this static shape, as in TensorFlow.

        Raises:
            ValueError: the shapes are incompatible.

        Example:
            >>> import companion as tf
            >>> tf.zeros([2, 3]).set_shape([None, 3])
        """
        expected = TensorShape(shape)
        if not expected.is_compatible_with(self._v.shape):
            raise ValueError(f"Tensor's shape {tuple(self._v.shape)} is not compatible with supplied "
                             f"shape {expected}. Each known dimension must match (None matches any size).")
        # deferred: the op layer is built on this module (an upward import is a cycle)
        from companion._ops._py_function import _note_shapes

        _note_shapes([self], expected, only_known=True)

    @property
    def dtype(self):
        return _dtypes.as_dtype(self._v.dtype)

    @property
    def ndim(self):
        return self._v.ndim

    @property
    def device(self):
        if state.staging:  # a graph tensor: the device its op was made under ("" for none)
            device = _tensor_names.graph_device(self._v)
            if device is not None:
                return device
        return device_name_of(self._value)

    @property
    def name(self):
        """Its graph name (``mul:0``) while a function traces; an eager tensor has none (TF's
        AttributeError)."""
        name = self._graph_name() if state.staging else None
        if name is None:
            raise AttributeError("Tensor.name is undefined when eager execution is enabled.")
        return name

    @property
    def op(self):
        """The `Operation` that made it, while a function traces (its name and TF's type); an eager
        tensor has none (TF's AttributeError)."""
        name = self._graph_name() if state.staging else None
        if name is None:
            raise AttributeError("Tensor.op is undefined when eager execution is enabled.")
        return producer(name)

    @property
    def graph(self):
        """The graph of the function being traced that holds it (its node view so far, a `FuncGraph`);
        an eager tensor has none (TF's AttributeError)."""
        if not state.staging or self._graph_name() is None:
            raise AttributeError("Tensor.graph is undefined when eager execution is enabled.")
        return self.op.graph

    @property
    def is_traced(self):
        """True while the value is a tracer inside a staged function (no concrete value)."""
        return isinstance(self._v, jax.core.Tracer)

    def numpy(self):
        """The value as a NumPy array (a NumPy scalar for rank 0, ``bytes`` for a string)."""
        if state.graph_code:
            self._refuse_in_graph_code("numpy()")
        array = np.array(self._concrete("numpy()"))
        return array[()] if array.ndim == 0 else array

    def __array__(self, dtype=None, copy=None):
        if state.graph_code:
            self._refuse_in_graph_code("np.asarray()")
        array = np.asarray(self._concrete("np.asarray()"))
        return array if dtype is None else array.astype(dtype)

    def ref(self):
        """A hashable reference to this tensor (tensors themselves are not hashable)."""
        return _Reference(self)

    experimental_ref = ref

    # -- Python protocols ------------------------------------------------------------
    def __len__(self):
        if self._v.ndim == 0:
            raise TypeError(f"len() is not defined for a scalar tensor. Received: {self!s}")
        return self._v.shape[0]

    def __iter__(self):
        if self._v.ndim == 0:
            raise TypeError("Cannot iterate over a scalar tensor. Index it, or call .numpy().")

        if state.staging or self.is_traced or self.dtype == _dtypes.string:
            # deferred: the op layer is built on this module (an upward import is a cycle)
            from companion._ops._array import unstack

            return iter(unstack(self))
        if state.tapes:  # a recording tape must see each row taken (TF records the slices)
            # deferred: the op layer is built on this module (an upward import is a cycle)
            from companion._ops._indexing import iterate_rows

            return iterate_rows(self)
        return _host_rows(self._value)

    # Python conversions follow NumPy's rules for the eager value, as TF's (NumPy 2) do: int(),
    # float() and complex() take rank-0 tensors only, bool() any tensor of at most one element,
    # an index only an integer rank-0 tensor.
    def __bool__(self):
        value = self._concrete("bool()")
        if value.size > 1:
            raise ValueError("The truth value of an array with more than one element is ambiguous. Use "
                             f"a.any() or a.all()\n{_ONE_ELEMENT_HINT} Received shape {self.shape}.")
        return bool(value.size) and bool(np.asarray(value).reshape(())[()])

    def __int__(self):
        return int(self._scalar("int()"))

    def __float__(self):
        return float(self._scalar("float()"))

    def __complex__(self):
        return complex(self._scalar("complex()"))

    def __index__(self):
        value = self._concrete("an index")
        if value.ndim != 0:
            raise TypeError("only integer scalar arrays can be converted to a scalar index\n"
                            f"{_ONE_ELEMENT_HINT} Received shape {self.shape}.")
        if not self.dtype.is_integer:
            raise AttributeError(f"'numpy.{np.dtype(value.dtype).name}' object has no attribute '__index__'"
                                 f"\nOnly integer scalar tensors can be used as an index. Received: {self!s}")
        return int(np.asarray(value)[()])

    def __round__(self, ndigits=None):
        raise AttributeError("EagerTensor object has no attribute 'astype'. \nTF's round() of a tensor "
                             "fails the same way: use companion.round(x), or round(float(x)).")

    def __hash__(self):
        raise TypeError("Tensors are unhashable because == compares element-wise. "
                        "Use tensor.ref() as a dict key or set member instead.")

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return _rebuild, (self.numpy(),)

    # -- display ---------------------------------------------------------------------
    def __repr__(self):
        if self._shows_traced:
            name = self._graph_name()
            if name is not None:
                return f"<companion.Tensor '{name}' shape={self.shape} dtype={self.dtype.name}>"
            return f"<companion.Tensor (traced) shape={self.shape} dtype={self.dtype.name}>"
        return (f"<companion.Tensor: shape={self.shape}, dtype={self.dtype.name}, "
                f"numpy={_numpy_repr(self)}>")

    def __str__(self):
        if self._shows_traced:
            name = self._graph_name()
            if name is not None:  # TF's graph tensor, word for word
                device = _tensor_names.graph_device(self._v)
                device = f", device={device}" if device else ""
                return f'Tensor("{name}", shape={self.shape}, dtype={self.dtype.name}{device})'
            return f"companion.Tensor(traced, shape={self.shape}, dtype={self.dtype.name})"
        text = _numpy_str(self)
        text = "\n" + text if "\n" in text else text
        return f"companion.Tensor({text}, shape={self.shape}, dtype={self.dtype.name})"

    @property
    def _shows_traced(self):
        """Whether it prints as a symbolic tensor: traced, a string tensor inside a trace (its value
        is known to companion, which keys traces by string values, but TF's graph tensor has none),
        or a value computed while a function traces by an op of its graph (TF's is symbolic)."""
        if not state.staging:
            return isinstance(self._value, jax.core.Tracer)
        value = self._v
        return (isinstance(value, jax.core.Tracer) or _tensor_names.graph_name(value) is not None
                or (value.__class__ is np.ndarray and value.dtype == object))

    def _graph_name(self):
        """Its name in the graph of the function being traced (``mul_1:0``), or None."""
        names = _tensor_names.active()
        return None if names is None else names.name_of(self._v)

    def __format__(self, format_spec):
        """Formats the value like NumPy does (TF's eager tensors): ``f"{t:.2f}"``, ``b'text'``."""
        if self._shows_traced:
            return format(str(self), format_spec)
        return format(self.numpy(), format_spec)

    # -- helpers -----------------------------------------------------------------------
    def _refuse_in_graph_code(self, what):
        """In a dataset function run on concrete elements, the user's own ``what`` raises as on
        TF's graph tensor (companion's code may still read values there)."""
        # deferred: the staging layer is built on this module (an upward import is a cycle)
        from companion._staging._errors import called_by_user_code, traced_value_error

        if called_by_user_code():
            raise traced_value_error(what, self)

    def _concrete(self, what):
        if self.is_traced:
            # deferred: the staging layer is built on this module (an upward import is a cycle)
            from companion._staging._errors import traced_value_error

            raise traced_value_error(what, self)
        return self._value

    def _scalar(self, what):
        value = self._concrete(what)
        if value.ndim != 0:
            raise TypeError(f"only 0-dimensional arrays can be converted to Python scalars\n{what} needs a "
                            f"rank-0 tensor. {_ONE_ELEMENT_HINT} Received shape {self.shape}.")
        return np.asarray(value)[()]


EagerTensor = Tensor
_ONE_ELEMENT_HINT = "Reduce it (reduce_all, reduce_any, reduce_sum) or index one element (x[0])."


def _host_rows(value):
    """Rows of a concrete array through host memory: one transfer each, never an XLA compile.

    The rows go back to the device the tensor was placed on (the default one otherwise).
    """
    devices = value.sharding.device_set
    device = next(iter(devices)) if len(devices) == 1 else None
    committed = getattr(value, "committed", False)
    default = device is None or device in jax.device_put(np.int8(0)).devices()
    for row in np.asarray(value):
        if committed or default:
            yield Tensor(jax.device_put(row, device if committed else None, may_alias=False))
        else:  # placed but not committed (tf.device): the row is too
            with jax.default_device(device):
                array = jax.device_put(row, may_alias=False)
            yield Tensor(array)


class _Reference:
    """A hashable stand-in for a tensor or variable, compared by identity (``x.ref()``)."""

    __slots__ = ("_obj",)

    def __init__(self, obj):
        self._obj = obj

    def deref(self):
        return self._obj

    def __hash__(self):
        return id(self._obj)

    def __eq__(self, other):
        return isinstance(other, _Reference) and other._obj is self._obj

    def __repr__(self):
        return f"<Reference to {self._obj!r}>"


def _rebuild(array):
    # deferred: a top-level import is a cycle (companion._core._convert is still loading then)
    from companion._core._convert import constant

    return constant(array)


def _numpy_str(tensor):
    array = tensor.numpy()
    if isinstance(array, np.ndarray):
        return np.array2string(array, separator=" ")
    return str(array)


def _numpy_repr(tensor):
    """The `numpy=` part of a repr: NumPy's repr, on a line of its own when it spans lines (as TF)."""
    array = tensor.numpy()
    if isinstance(array, (bytes, np.ndarray)):
        text = repr(array)
        return "\n" + text if "\n" in text else text
    return repr(array.item())  # TF 2.21: a scalar as its Python value, 0.10000000149011612 for 0.1
