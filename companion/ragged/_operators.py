"""Python operators on RaggedTensors (``r * 2``, ``r > 0``, ``a & b``, ``~a``): elementwise on the values."""

from companion._ops import _math
from companion.ragged._map_flat_values import elementwise
from companion.ragged._ragged_tensor import RaggedTensor


def _binary(op_name, reverse=False):
    def method(self, other):
        op = getattr(_math, op_name)
        return elementwise(op, other, self) if reverse else elementwise(op, self, other)

    method.__name__ = op_name
    return method


def _unary(op_name):
    def method(self):
        return elementwise(getattr(_math, op_name), self)

    return method


_BINARY = {"add": "add", "sub": "subtract", "mul": "multiply", "truediv": "truediv",
           "floordiv": "floordiv", "mod": "floormod", "pow": "pow"}
for _dunder, _name in _BINARY.items():
    setattr(RaggedTensor, f"__{_dunder}__", _binary(_name))
    setattr(RaggedTensor, f"__r{_dunder}__", _binary(_name, reverse=True))
for _dunder, _name in {"and": "logical_and", "or": "logical_or", "xor": "logical_xor"}.items():  # as TF's
    setattr(RaggedTensor, f"__{_dunder}__", _binary(_name))
    setattr(RaggedTensor, f"__r{_dunder}__", _binary(_name, reverse=True))
for _dunder, _name in {"lt": "less", "le": "less_equal", "gt": "greater", "ge": "greater_equal"}.items():
    setattr(RaggedTensor, f"__{_dunder}__", _binary(_name))
_equal, _not_equal = _binary("equal"), _binary("not_equal")
# elementwise, as TF's (a comparison with None is False / True, as for tensors); identity hashing kept
RaggedTensor.__eq__ = lambda self, other: False if other is None else _equal(self, other)
RaggedTensor.__ne__ = lambda self, other: True if other is None else _not_equal(self, other)
RaggedTensor.__hash__ = object.__hash__
RaggedTensor.__neg__ = _unary("negative")
RaggedTensor.__abs__ = _unary("abs")
RaggedTensor.__invert__ = _unary("logical_not")
