"""NumPy twins of the ops that make sense on string tensors (compare, ``+``, reshape, index, join)."""

import numpy as np

from companion._ops import _array, _creation, _indexing, _math, _select


def _unstack(x, axis):
    return tuple(np.take(x, i, axis=axis) for i in range(x.shape[axis]))


def _getitem(x, *index_arrays, spec):
    return x[_indexing.build_index(spec, [np.asarray(a) for a in index_arrays])]


_TWINS = {
    _math.add.op: np.add,  # ``+`` joins strings element-wise, as TF's
    _math.equal.op: np.equal,
    _math.not_equal.op: np.not_equal,
    _array._reshape: lambda x, shape: np.reshape(x, shape),
    _array._squeeze: lambda x, axis: np.squeeze(x, axis),
    _array._expand_dims: lambda x, axis: np.expand_dims(x, axis),
    _array._transpose: lambda x, perm, conjugate: np.transpose(x, perm),
    _array._concat: lambda *xs, axis: np.concatenate(xs, axis=axis),
    _array._stack: lambda *xs, axis: np.stack(xs, axis=axis),
    _array._tile: lambda x, multiples: np.tile(x, multiples),
    _array._reverse: lambda x, axis: np.flip(x, axis),
    _array._unstack: _unstack,
    _select._gather: lambda x, i, axis, batch_dims: np.take(x, np.asarray(i), axis=axis),
    _indexing._getitem: _getitem,
    _creation._identity: lambda x: x,
}


def install():
    """Gives each op above its NumPy twin (called once at import)."""
    for op, twin in _TWINS.items():
        op.string_fn = twin
