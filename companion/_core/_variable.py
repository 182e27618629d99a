"""`Variable`: mutable state whose reads are ops (recorded on tapes) and whose writes are not."""

import jax
import jax.numpy as jnp
import numpy as np

from companion._core import _context, _deferred, _dtypes, _graph_mode, _op, _out_of_scope
from companion._core._context import state
from companion._core._convert import as_input, constant
from companion._core._deferred import Pending
from companion._core._errors import InvalidArgumentError
from companion._core._operation import note_read, traced_write
from companion._core._scopes import get_current_name_scope
from companion._core._shape import TensorShape
from companion._core._tensor import Tensor, _numpy_repr, _Reference
from companion._core._variable_aggregation import VariableSynchronization, aggregation_of, synchronization_of
from companion._core._variable_scatter import ScatterMethods


class Variable(ScatterMethods):
    """A mutable tensor, TensorFlow's ``tf.Variable``.

    The value lives in ``self._value`` (a ``jax.Array``; a tracer while a staged function
    traces), so staging interpreters can lift it in and write it back. Reading the
    variable in an op is recorded on recording tapes (trainable variables are watched
    automatically); `assign`, `assign_add` and `assign_sub` replace the value and are not
    differentiable, as in TensorFlow.

    Example:
        >>> import companion as tf
        >>> v = tf.Variable([1.0, 2.0], name="v")
        >>> v.assign_add([1.0, 1.0])
        <companion.Variable 'UnreadVariable' shape=(2,) dtype=float32, numpy=array([2., 3.], dtype=float32)>
    """

    _is_variable = True
    _unread_of = None  # the Variable an `_UnreadView` (what assign returns) stands for
    _keras_autocast = False  # a Keras weight read in a mixed layer's compute dtype (KerasVariable)
    # a `function` argument of this class is traced by its VariableSpec (one trace for all Variables
    # of a shape and dtype); placed Variables (mirrored, on parameter servers, in a TF1 graph) by identity
    _traced_by_spec = True
    __array_priority__ = 100

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if not any("_value" in klass.__dict__ for klass in cls.__mro__[:cls.__mro__.index(Variable)]):
            _op._PLAIN.add(cls)  # an op reads the stored value as is (it may be pending)

    def __new__(cls, *args, **kwargs):
        if cls is Variable:
            if _graph_mode.building is not None:  # TF1 graph mode: a graph's Variable
                return object.__new__(_graph_mode.building._variable_class)
            return object.__new__(ResourceVariable)  # TF's eager Variables are of this class
        return object.__new__(cls)

    def __init__(self, initial_value=None, trainable=None, validate_shape=True, name=None,
                 dtype=None, shape=None, aggregation=None, synchronization=None, **kwargs):
        if initial_value is None:
            raise ValueError("Variable needs an initial_value (a value, a tensor, or a callable "
                             "returning one). Received: initial_value=None")
        if state.staging:
            # deferred: the staging layer is built on this module (an upward import is a cycle)
            from companion._staging import eager_scope

            with eager_scope():  # initial values are computed once, eagerly (TF's init_scope)
                value = _initial_tensor(initial_value, dtype)
            self._v = value._value
        else:
            value = _initial_tensor(initial_value, dtype)
            # a deferred initial value stays pending: a model's initializers run as one program
            self._v = value._v if value._v.__class__ is Pending else value._value
        self._shape = _declared_shape(value, shape, validate_shape)
        self._read_cache = None
        self._name = _variable_name(name)
        self._aggregation = aggregation_of(aggregation, name)
        self._synchronization = synchronization_of(synchronization, name)
        if trainable is None:  # TF: a Variable synchronized on read (a metric total) is not trained
            trainable = self._synchronization is not VariableSynchronization.ON_READ
        self._trainable = bool(trainable)
        self._is_rng_state = bool(kwargs.pop("_is_rng_state", False))
        self._constraint = kwargs.pop("constraint", None)  # TF records it; optimizers may apply it
        # process-wide state (the random ops' streams) belongs to no strategy whose scope is open
        unplaced = kwargs.pop("_unplaced", False)
        strategy = None if unplaced else _context.current_strategy()
        if strategy is not None:
            self._v = _deferred.resolve(self._v)
            _place(self, strategy)
        if state.staging:
            _created_while_staging(self)

    # -- the stored value: concrete when eager, a traced alias while staged -----------
    @property
    def _value(self):
        value = self._v
        if value.__class__ is Pending:  # a deferred assignment: computed now
            value = self._v = value.force()
        if state.staging and not isinstance(value, jax.core.Tracer):
            return state.traces[-1].read(self, value)
        return value

    # -- reading ----------------------------------------------------------------------
    def _read(self):
        if state.staging:  # a traced read must not outlive the trace
            return Tensor(self._value)
        read = self._read_cache
        if read is None:  # the stored value as is: a deferred one stays pending
            read = self._read_cache = Tensor(self._v)
        return read

    def value(self):
        """The current value as a Tensor; recording tapes see this read."""
        read = self._read()
        for tape in state.tapes:
            tape._note_read(self, read)
        return read

    def read_value(self):
        """The current value as a Tensor (`value`); inside a function TF reads it in a scope
        ``Read``, which names its captured handle (``Read/ReadVariableOp/resource``)."""
        if state.staging:
            note_read(self, "Read")
        return self.value()

    def numpy(self):
        if state.staging and self.is_traced:  # TF: NotImplementedError (its tensors: AttributeError)
            # deferred: the staging layer is built on this module (an upward import is a cycle)
            from companion._staging._errors import traced_value_error

            raise traced_value_error("Variable.numpy()", self)
        return self._read().numpy()

    def __array__(self, dtype=None, copy=None):
        return self._read().__array__(dtype)

    # -- writing ----------------------------------------------------------------------
    def _set_value(self, new_value):
        """Replaces the stored array (used by assignments and staging interpreters)."""
        if state.staging:
            state.traces[-1].wrote(self, self._v)
        self._v = new_value
        self._read_cache = None

    def _staged_output(self, traced):
        """The value a traced program returns for this Variable after writing it (a hook for
        subclasses that keep their value on particular devices)."""
        return traced

    def assign(self, value, use_locking=None, name=None, read_value=True):
        """Sets the value; its dtype must match and its shape be compatible. Returns the
        Variable as TF does (a view of it named ``'UnreadVariable'``), or None if not
        ``read_value``."""
        new = _assigned(value, self.dtype)
        self._check_shape(new.shape, "assign")
        self._set_value(new._value)
        op = traced_write(self, "AssignVariableOp", name, new)  # None eagerly
        return self._assigned_result() if read_value else op

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        """Adds ``delta`` to the value in place. Returns the Variable, as `assign`."""
        return self._update(_ADD, delta, "assign_add", read_value, name)

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        """Subtracts ``delta`` from the value in place. Returns the Variable, as `assign`."""
        return self._update(_SUB, delta, "assign_sub", read_value, name)

    def _assigned_result(self):
        """What a write returns: TF's ``_UnreadVariable``, the same Variable under another name."""
        return _unread_view(self if self._unread_of is None else self._unread_of)

    def _update(self, fn, delta, what, read_value, name=None):
        value = self._v
        if (not state.staging and isinstance(delta, Tensor) and value.__class__ in _EAGER_KINDS
                and delta._v.__class__ in _EAGER_KINDS and delta._v.dtype == value.dtype
                and delta._v.shape == value.shape):  # the optimizer-loop case: no checks needed
            new = _deferred.run(fn, (value, delta._v), {})
            self._set_value(fn._eager(value, delta._value) if new is None else new)
            return self._assigned_result() if read_value else None
        delta = _assigned(delta, self.dtype)
        self._check_update_shape(delta, what)
        new = (fn.fn if state.staging else fn._eager)(self._value, delta._value)
        self._check_shape(TensorShape(new.shape), what)
        self._set_value(new)
        op = traced_write(self, "AssignAddVariableOp" if fn is _ADD else "AssignSubVariableOp", name, delta)
        return self._assigned_result() if read_value else op

    def _check_update_shape(self, delta, what):
        """TF's rule for assign_add/assign_sub: the update has the variable's shape (no broadcasting):
        InvalidArgumentError eagerly, ValueError (shape inference) while a function traces."""
        shape = tuple(delta._v.shape)
        if state.staging:
            if self._shape.rank is not None and len(shape) != self._shape.rank:
                raise ValueError(f"Variable.{what}: shapes must be equal rank, but are {self._shape} and "
                                 f"{TensorShape(shape)} for the variable {self._name!r}.")
            if not self._shape.is_compatible_with(shape):
                raise ValueError(f"Variable.{what}: the update of shape {TensorShape(shape)} does not match "
                                 f"the shape {self._shape} of the variable {self._name!r}.")
        elif shape != tuple(self._v.shape):
            op_type = "AssignAddVariableOp" if what == "assign_add" else "AssignSubVariableOp"
            raise InvalidArgumentError(
                f"Cannot update variable with shape {list(self._v.shape)} using a Tensor with shape "
                f"{list(shape)}, shapes must be equal. [Op:{op_type}] Give the update the variable's "
                "shape (companion.broadcast_to for a scalar).")

    def _check_shape(self, shape, what):
        if not self._shape.is_compatible_with(shape):
            raise ValueError(f"Variable.{what}: cannot assign a value of shape {shape} to the "
                             f"variable {self._name!r} of shape {self._shape}. Reshape the value, "
                             "or create the variable with shape=None dimensions.")

    # -- in-place operators: TF refuses them (a rebinding `v = v + 1` would silently drop the Variable)
    def __iadd__(self, other):
        raise RuntimeError("`variable += value` with `tf.Variable`s is not supported. Use "
                           "`variable.assign_add(value)` to modify the variable, or `out = variable + value` "
                           "if you need to get a new output Tensor.")

    def __isub__(self, other):
        raise RuntimeError("`variable -= value` with `tf.Variable`s is not supported. Use "
                           "`variable.assign_sub(value)` to modify the variable, or `out = variable - value` "
                           "if you need to get a new output Tensor.")

    def __imul__(self, other):
        raise RuntimeError("`var *= value` with `tf.Variable`s is not supported. Use "
                           "`var.assign(var * value)` to modify the variable, or `out = var * value` if you "
                           "need to get a new output Tensor.")

    def __itruediv__(self, other):
        raise RuntimeError("`var /= value` with `tf.Variable`s is not supported. Use "
                           "`var.assign(var / value)` to modify the variable, or `out = var / value` if you "
                           "need to get a new output Tensor.")

    def __getitem__(self, key):
        # deferred: the op layer is built on this module (an upward import is a cycle)
        from companion._ops._indexing import getitem

        return getitem(self, key, wrap=lambda value: _VariableSlice(value, self, key))

    # -- description ------------------------------------------------------------------
    @property
    def name(self):
        return self._name

    @property
    def trainable(self):
        return self._trainable

    @property
    def aggregation(self):
        """How replicas' updates combine (a `VariableAggregation`; NONE unless given)."""
        return self._aggregation

    @property
    def synchronization(self):
        """When a distributed Variable's copies are made equal (a `VariableSynchronization`)."""
        return self._synchronization

    @property
    def constraint(self):
        """The ``constraint`` given at creation (a callable projecting the value), or None."""
        return self._constraint

    @property
    def shape(self):
        return self._shape

    def get_shape(self):
        return self._shape

    @property
    def dtype(self):
        return _dtypes.as_dtype(self._v.dtype)

    @property
    def ndim(self):
        return self._v.ndim

    @property
    def device(self):
        return self._read().device

    @property
    def is_traced(self):
        return isinstance(self._value, jax.core.Tracer)  # inside a trace, the read is a tracer

    def ref(self):
        """A hashable reference to this variable (variables themselves are not hashable)."""
        return _Reference(self)

    experimental_ref = ref

    def __len__(self):  # TF's Variables (and Keras's) have no len(); iterating them works
        raise TypeError(f"object of type '{type(self).__name__}' has no len()")

    def __iter__(self):
        return iter(self.value())

    def __bool__(self):
        return bool(self._read())

    def __int__(self):
        return int(self._read())

    def __float__(self):
        return float(self._read())

    # no __index__: as in TF, a Variable is no Python index (range(v), [..][v] raise TypeError);
    # slicing a tensor with one works through its value

    def __hash__(self):
        raise TypeError("Variables are unhashable because == compares element-wise. "
                        "Use variable.ref() as a dict key or set member instead.")

    def __repr__(self):
        if self.is_traced:
            return f"<companion.Variable '{self._name}' shape={self.shape} dtype={self.dtype.name} (traced)>"
        return (f"<companion.Variable '{self._name}' shape={self.shape} dtype={self.dtype.name}, "
                f"numpy={_numpy_repr(self._read())}>")

    __str__ = __repr__


class ResourceVariable(Variable):
    """The class of the Variables ``companion.Variable(...)`` makes, as TF names it
    (``type(tf.Variable(1.0)).__name__`` is ``'ResourceVariable'``); it adds nothing."""


class _UnreadView:
    """TF's ``_UnreadVariable``, what ``v.assign(...)`` returns: the Variable ``v`` itself (its
    state is ``v``'s, shared, so it reads ``v``'s current value and writes to ``v``), shown under
    the name ``'UnreadVariable'``. Reads and writes go through ``v``, so tapes and staged
    functions see ``v``. Mixed into a subclass of ``v``'s class (`_unread_view`)."""

    __slots__ = ("_unread_of",)

    @property
    def name(self):
        return "UnreadVariable"

    @property
    def _value(self):
        return self._unread_of._value

    def _read(self):
        return self._unread_of._read()

    def value(self):
        return self._unread_of.value()

    read_value = value

    def _set_value(self, new_value):
        self._unread_of._set_value(new_value)

    def ref(self):
        return self._unread_of.ref()

    experimental_ref = ref

    def __repr__(self):
        shown = f"<companion.Variable '{self.name}' shape={self.shape} dtype={self.dtype.name}"
        if self.is_traced:
            return shown + " (traced)>"
        return f"{shown}, numpy={_numpy_repr(self._read())}>"

    __str__ = __repr__


_UNREAD_CLASSES = {}


def _unread_view(variable):
    """An `_UnreadView` of ``variable``: an instance of ``variable``'s class sharing its state."""
    cls = variable.__class__
    view_class = _UNREAD_CLASSES.get(cls)
    if view_class is None:
        view_class = _UNREAD_CLASSES[cls] = type("_UnreadVariable", (_UnreadView, cls), {"__slots__": ()})
        if cls in _op._PLAIN:  # an eager op reads the shared stored value as is (pending or not)
            _op._PLAIN.add(view_class)
    view = object.__new__(view_class)
    view.__dict__ = variable.__dict__
    view._unread_of = variable
    return view


class _VariableSlice(Tensor):
    """The tensor ``v[key]``; its ``assign*`` methods write through to the variable ``v``."""

    __slots__ = ("_variable", "_key")

    def __init__(self, value, variable, key):
        super().__init__(value)
        self._variable = variable
        self._key = key

    def assign(self, value, use_locking=None, name=None, read_value=True):
        return self._write(value, "set", read_value)

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        return self._write(delta, "add", read_value)

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        return self._write(-as_input(delta, self.dtype), "add", read_value)

    def _write(self, value, how, read_value):
        # deferred: the op layer is built on this module (an upward import is a cycle)
        from companion._ops._indexing import build_index, normalize_key

        var = self._variable
        spec, arrays = normalize_key(self._key)
        update = as_input(value, var.dtype)._value
        at = var._value.at[build_index(spec, [a._value for a in arrays])]
        var._set_value(at.set(update) if how == "set" else at.add(update))
        return var._assigned_result() if read_value else None


_ADD = _op.Op("assign_add", jnp.add)  # its pure function while staged, its jit or a deferred node eagerly
_SUB = _op.Op("assign_sub", jnp.subtract)
_EAGER_KINDS = frozenset({_deferred._ARRAY, Pending})
_op._PLAIN.add(Variable)


def _initial_tensor(initial_value, dtype):
    if callable(initial_value):
        # deferred: the staging layer is built on this module (an upward import is a cycle)
        from companion._staging import eager_scope

        with eager_scope():  # initializers run once, eagerly, even inside a traced function
            return _initial_tensor(initial_value(), dtype)
    if isinstance(initial_value, Tensor) or getattr(initial_value, "_is_variable", False):
        value = initial_value if isinstance(initial_value, Tensor) else initial_value._read()
        if dtype is not None and value.dtype != _dtypes.as_dtype(dtype):
            # deferred: the op layer is built on this module (an upward import is a cycle)
            from companion._ops._math import cast

            value = cast(value, dtype)
        if isinstance(value._v, np.ndarray) and value._v.dtype != object:
            value = Tensor(jnp.asarray(value._value))
        return value
    return constant(initial_value, dtype=dtype)


def _place(variable, strategy):
    """Lets the strategy in scope place a new Variable (eagerly, even while a function traces)."""
    if not state.staging:
        strategy.place_variable(variable, traced=False)
        return
    # deferred: the staging layer is built on this module (an upward import is a cycle)
    from companion._staging import eager_scope

    with eager_scope():
        strategy.place_variable(variable, traced=True)


def _created_while_staging(variable):
    """Registers a Variable created while tracing with every active trace, or refuses it."""
    if isinstance(variable._v, jax.core.Tracer):
        variable._v = None
        raise ValueError(
            f"The initial value of Variable {variable.name!r} depends on a value that is only known "
            "when the compiled function runs (a function argument or a computation on one). Create "
            "the variable outside the function, or pass a callable that builds the initial value "
            "from constants: companion.Variable(lambda: companion.zeros([3])).")
    refusing = [trace for trace in state.traces if not trace.allow_create]
    if refusing and not variable._is_rng_state:
        raise _creation_error(refusing[0], variable)
    for trace in state.traces:
        trace.created.append(variable)


def _creation_error(trace, variable):
    owner = getattr(trace.owner, "__name__", trace.owner)
    if trace.first_call:
        when = ("on its first call. Its first trace created Variables, so (as TensorFlow does) it "
                "was traced a second time to check that it reuses them, and the second trace "
                "created this one again: every call would make a new Variable")
    else:
        when = ("on a call that traced it again (new argument shapes, dtypes or Python values). "
                "Only the first call may create Variables")
    error = ValueError(  # TF's text exactly (programs print it); companion's explanation is a note
        "tf.function only supports singleton tf.Variables created on the first call. Make sure the "
        "tf.Variable is only created once or created outside tf.function. See "
        "https://www.tensorflow.org/guide/function#creating_tfvariables for more information.")
    error.add_note(
        f"(companion.function {owner!r} tried to create Variable {variable.name!r} {when}.) "
        "A function decorated with companion.function may create Variables only on its first "
        "call, and must reuse them afterwards. Create the Variable outside the function and use "
        "it inside (or pass it in), or create it once and keep it, e.g. in a method: "
        "`if self.v is None: self.v = companion.Variable(...)`.")
    return error


def _assigned(value, dtype):
    """``value`` as an input of ``dtype``; a tensor of another dtype is a plain ValueError (TF's class)."""
    try:
        new = as_input(value, dtype)
    except InvalidArgumentError as error:
        raise ValueError(str(error)) from None
    if new._v.__class__ not in _EAGER_KINDS and not state.staging and _out_of_scope.is_out_of_scope(new._v):
        raise _out_of_scope.out_of_scope_error(new)  # stored, it would break every later read
    return new


def _declared_shape(value, shape, validate_shape):
    if shape is None:
        return value.shape if validate_shape else TensorShape(None)
    declared = TensorShape(shape)
    if not declared.is_compatible_with(value.shape):
        raise ValueError(f"In this `tf.Variable` creation, the initial value's shape ({value.shape}) is "
                         f"not compatible with the explicitly supplied `shape` argument ({declared}). Pass a "
                         "value of that shape (e.g. companion.reshape(value, shape)), or omit `shape`.")
    return declared


def _variable_name(name):
    """TF's eager naming: the current name scope, then ``name`` or ``Variable``, then ``:0``.

    Outside a graph TF does not make names unique: every unnamed eager Variable is ``Variable:0``.
    """

    base = "Variable" if name is None else str(name)
    scope = get_current_name_scope()
    base = f"{scope}/{base}" if scope else base
    return base if ":" in base else f"{base}:0"
