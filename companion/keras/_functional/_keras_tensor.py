"""`KerasTensor`: a symbolic placeholder (shape and dtype, no value) for building functional models."""

import operator

from companion._core import _dtypes
from companion._core._shape import TensorShape


class KerasTensor:
    """The symbolic output of `keras.Input` or of a layer called on symbolic inputs.

    It has a ``shape`` (``None`` for the batch and other unknown axes) and a ``dtype``,
    and remembers the layer call that produced it, so that ``keras.Model(inputs, outputs)``
    can replay the calls on real data. Python operators (``x + 1``, ``a * b``, ``-x``)
    become `Lambda` layers; other ops need a layer (wrap them in ``keras.layers.Lambda``).

    Example:
        >>> import companion as tf
        >>> x = tf.keras.Input(shape=(3,))
        >>> print(tf.keras.layers.Dense(4, name="hidden")(x).shape)
        (None, 4)
    """

    _is_keras_tensor = True

    def __init__(self, shape, dtype="float32", name=None, node=None, index=0):
        self._shape = TensorShape(shape)
        self._dtype = _dtypes.as_dtype(dtype)
        if name is None:
            # deferred: companion.keras.layers (the names' package) imports this module at its top
            from companion.keras.layers._naming import unique_name

            name = unique_name("KerasTensor")  # Keras 3 numbers them: keras_tensor, keras_tensor_1, ...
        self.name = name
        self._node = node
        self._index = index

    @property
    def shape(self):
        """A tuple, as in Keras 3 (``(None, 4)``), that also has TensorShape's methods."""
        shape = self.__dict__.get("_keras_shape")
        if shape is None:
            shape = self._keras_shape = KerasShape(self._shape)
        return shape

    @property
    def dtype(self):
        """The dtype's name, a string such as ``'float32'``, as Keras 3 gives it."""
        return self._dtype.name

    @property
    def ndim(self):
        return self._shape.rank

    @property
    def node(self):
        """The layer call that made this tensor (an `Input` call for model inputs)."""
        return self._node

    def __repr__(self):
        return (f"<KerasTensor shape={tuple(self._shape.as_list())}, dtype={self._dtype.name}, "
                f"sparse=False, ragged=False, name={self.name}>")

    def __array__(self, *args, **kwargs):
        raise TypeError(_symbolic_error(self, "converted to a NumPy array"))

    def __bool__(self):
        raise TypeError(_symbolic_error(self, "used as a Python bool"))

    def __iter__(self):
        raise TypeError(_symbolic_error(self, "iterated over"))

    def __hash__(self):
        return id(self)

    def __getitem__(self, key):
        return _operation("GetItem", lambda x: x[key], self)


class KerasShape(tuple):
    """A `KerasTensor`'s shape: Keras 3's plain tuple (its repr is ``(None, 4)``), with
    `TensorShape`'s methods (``as_list``, ``rank``, ...) kept for TF 2 code."""

    def __new__(cls, dims):
        return super().__new__(cls, TensorShape(dims).as_list())

    def __getitem__(self, key):
        item = super().__getitem__(key)
        return KerasShape(item) if isinstance(key, slice) else item

    def as_list(self):
        return list(self)

    @property
    def rank(self):
        return len(self)

    def __add__(self, other):
        return KerasShape(tuple(self) + tuple(other))

    def __getattr__(self, name):  # as_list, rank, ndims, dims, is_fully_defined, ...
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(TensorShape(tuple(self)), name)


def _symbolic_error(tensor, what):
    return (f"{tensor!r} is a symbolic placeholder of the functional API and has no value, so it "
            f"cannot be {what}. Inside a model, compute with layers (wrap other operations in "
            "keras.layers.Lambda), or call the model on real data.")


def _operation(class_name, fn, *operands):
    """``fn(*operands)`` on KerasTensors, recorded as Keras 3's op ``class_name`` (an `Operation`)."""
    # deferred: companion.keras.layers imports this module at its top (through _functional._input_layer)
    from companion.keras.layers._operation import Operation

    symbolic = [x for x in operands if getattr(x, "_is_keras_tensor", False)]
    if len(symbolic) == 1:
        where = next(i for i, x in enumerate(operands) if x is symbolic[0])

        def unary(x):
            return fn(*operands[:where], x, *operands[where + 1:])

        return Operation(unary, class_name)(symbolic[0])
    return Operation(lambda xs: fn(*xs), class_name)(list(operands))


def symbolic_op(class_name, fn, args, kwargs):
    """``fn(*args, **kwargs)`` with KerasTensors among the arguments (in lists too), recorded as
    Keras 3's op ``class_name``: ``keras.ops.concatenate([a, b])`` on symbolic tensors."""
    flat, rebuild = _flatten_symbolic((list(args), dict(kwargs)))

    def run(*tensors):
        real_args, real_kwargs = rebuild(list(tensors))
        return fn(*real_args, **real_kwargs)

    return _operation(class_name, run, *flat)


def _flatten_symbolic(structure):
    """The KerasTensors in ``structure`` (lists, tuples, dicts), and a function that puts values
    in their places."""
    found = []

    def walk(value):
        if getattr(value, "_is_keras_tensor", False):
            found.append(value)
            return len(found) - 1, True
        if isinstance(value, (list, tuple)):
            return type(value)(walk(v) for v in value), False
        if isinstance(value, dict):
            return {k: walk(v) for k, v in value.items()}, False
        return value, False

    template = walk(structure)

    def fill(item, values):
        value, is_slot = item
        if is_slot:
            return values[value]
        if isinstance(value, (list, tuple)):
            return type(value)(fill(v, values) for v in value)
        if isinstance(value, dict):
            return {k: fill(v, values) for k, v in value.items()}
        return value

    return found, lambda values: fill(template, values)


def _binary(class_name, op, swap=False):
    def method(self, other):
        return _operation(class_name, op, other, self) if swap else _operation(class_name, op, self, other)

    return method


# Python's operators on a KerasTensor and the Keras 3 op each records
for _name, _class, _op in (("add", "Add", operator.add), ("sub", "Subtract", operator.sub),
                           ("mul", "Multiply", operator.mul), ("truediv", "TrueDivide", operator.truediv),
                           ("floordiv", "FloorDivide", operator.floordiv), ("pow", "Power", operator.pow),
                           ("matmul", "Matmul", operator.matmul), ("mod", "Mod", operator.mod)):
    setattr(KerasTensor, f"__{_name}__", _binary(_class, _op))
    setattr(KerasTensor, f"__r{_name}__", _binary(_class, _op, swap=True))
KerasTensor.__neg__ = lambda self: _operation("Negative", operator.neg, self)
KerasTensor.__abs__ = lambda self: _operation("Absolute", operator.abs, self)


def is_symbolic(value):
    """Whether ``value`` is a KerasTensor, or a list/tuple/dict holding one."""
    if getattr(value, "_is_keras_tensor", False):
        return True
    if isinstance(value, (list, tuple)):
        return any(is_symbolic(v) for v in value)
    if isinstance(value, dict):
        return any(is_symbolic(v) for v in value.values())
    return False
