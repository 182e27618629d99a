"""`HostString`: a string tensor inside a `function` whose text depends on values known only at run time.

XLA has no strings, so companion's string tensors live on the host. Inside a traced function a
string op whose inputs are known while tracing runs at once (strings key the trace); when an input
is a traced number (``strings.as_string(x)``) or another HostString, the op cannot run yet. It
returns a HostString instead: the traced arrays it needs (which the compiled program computes and
hands back) and a host function that builds the text from their values once the program has run.
A HostString can be returned from the function (it comes back as an ordinary string tensor), be
printed with `companion.print`, be chosen by an `if` on a tensor, and feed further string ops;
anything that needs its text *inside* the compiled program (numbers computed from it that feed
other ops, a loop variable) raises an error that says so.
"""

import numpy as np

from companion._core import _dtypes, _tensor_names
from companion._core._shape import TensorShape


class HostString:
    """The string tensor ``build(*values of arrays)``, computed on the host after the program ran.

    ``arrays`` are traced ``jax.Array``s; ``build`` maps their concrete NumPy values to an object
    array of ``bytes`` with ``shape``.
    """

    _is_host_value = True

    def __init__(self, arrays, build, shape):
        self._arrays = list(arrays)
        self._build = build
        self._shape = TensorShape(shape)

    @property
    def shape(self):
        return self._shape

    @property
    def dtype(self):
        return _dtypes.string

    @property
    def is_traced(self):
        return True

    @property
    def ndim(self):
        return self._shape.rank

    def get_shape(self):
        return self._shape

    def value_from(self, values):
        """The text for concrete ``values`` of the arrays: an object array of ``bytes``."""
        return np.asarray(self._build(*values), dtype=object).reshape(self._shape.as_list())

    def numpy(self):
        # deferred: the staging layer is built on this module (an upward import is a cycle)
        from companion._staging._errors import traced_value_error

        raise traced_value_error("numpy()", self)

    def __str__(self):
        names = _tensor_names.active()
        if names is not None:  # TF's graph tensor
            return f'Tensor("{names.name_of(self)}", shape={self._shape}, dtype=string)'
        return f"companion.Tensor(traced, shape={self._shape}, dtype=string)"

    def __repr__(self):
        names = _tensor_names.active()
        if names is not None:
            return f"<companion.Tensor '{names.name_of(self)}' shape={self._shape} dtype=string>"
        return f"<companion.Tensor (traced) shape={self._shape} dtype=string>"

    def __format__(self, format_spec):
        return format(str(self), format_spec)

    def __bool__(self):
        raise TypeError("A string tensor whose text is only known when the compiled function runs has no "
                        "Python truth value while tracing. Compare it with companion.equal inside the "
                        "function, or return it and test it eagerly.")

    def __len__(self):
        if self._shape.rank == 0:
            raise TypeError("len() of a scalar string tensor")
        return self._shape[0]


def is_host_value(value):
    return getattr(type(value), "_is_host_value", False)


def choose(options_builders):
    """A ``build`` picking one of ``options_builders`` (each ``(n_arrays, build)``): its arrays are
    the chosen index, then every option's arrays in turn."""
    counts = [n for n, _ in options_builders]

    def build(index_value, *values):
        chosen = int(np.asarray(index_value))
        start = sum(counts[:chosen])
        return options_builders[chosen][1](*values[start:start + counts[chosen]])

    return build
