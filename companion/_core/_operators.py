"""Python operators (``+``, ``@``, ``==``, ``x[i]``, …) for Tensors and Variables, as companion ops."""

from companion._core._convert import as_input
from companion._core._errors import InvalidArgumentError
from companion._ops import _linalg, _math
from companion._ops._indexing import getitem


def _binary(fn):
    def forward(self, other):
        return fn(self, other)

    def reflected(self, other):
        return fn(other, self)

    return forward, reflected


def _logical(logical_fn, bitwise_fn):
    def apply(x, y):
        x = as_input(x)
        return (logical_fn if x.dtype.is_bool else bitwise_fn)(x, y)

    return apply


_MULTIPLY = _math.multiply.operator  # ``*``'s own op: TF names its node ``mul`` (tf.multiply's: ``Mul``)


def _multiply(x, y):
    """``x * y``: TF's ``*`` on bool tensors is `logical_and` (its Mul takes no bools). The dtype
    is looked at only after Mul refused it, so the common path pays nothing."""
    try:
        return _MULTIPLY(x, y)
    except InvalidArgumentError:
        if not (as_input(x).dtype.is_bool and as_input(y).dtype.is_bool):
            raise
    return _math.logical_and(x, y)


def _eq(self, other):
    if other is None:
        return False
    return _math.equal(self, other)


def _ne(self, other):
    if other is None:
        return True
    return _math.not_equal(self, other)


_BINARY = {
    "add": _math.add.operator, "sub": _math.subtract.operator, "mul": _multiply,
    "truediv": _math.divide, "floordiv": _math.floordiv, "mod": _math.mod.operator,
    "pow": _math.pow.operator, "matmul": lambda x, y: _linalg.matmul(x, y, name="matmul"),
    "and": _logical(_math.logical_and, _math.bitwise_and),
    "or": _logical(_math.logical_or, _math.bitwise_or),
    "xor": _logical(_math.logical_xor, _math.bitwise_xor),
    "lshift": _math.left_shift, "rshift": _math.right_shift,
}


def install(cls):
    """Gives ``cls`` (Tensor or Variable) the arithmetic, comparison and bitwise operators."""
    for name, fn in _BINARY.items():
        forward, reflected = _binary(fn)
        setattr(cls, f"__{name}__", forward)
        setattr(cls, f"__r{name}__", reflected)
    cls.__lt__ = lambda self, other: _math.less(self, other)
    cls.__le__ = lambda self, other: _math.less_equal(self, other)
    cls.__gt__ = lambda self, other: _math.greater(self, other)
    cls.__ge__ = lambda self, other: _math.greater_equal(self, other)
    cls.__eq__ = _eq
    cls.__ne__ = _ne
    cls.__neg__ = lambda self: _math.negative(self)
    cls.__pos__ = lambda self: self
    cls.__abs__ = lambda self: _math.abs(self)
    cls.__invert__ = lambda self: (_math.logical_not if self.dtype.is_bool else _math.invert)(self)
    if not hasattr(cls, "__getitem__"):
        cls.__getitem__ = lambda self, key: getitem(self, key)
