"""`MirroredVariable`: a Variable created in a strategy's scope, one equal copy per device."""

import jax

from companion._core import _op
from companion._core._context import state
from companion._core._variable import ResourceVariable, Variable, _UnreadView


class _Mirrored:
    """What keeps a Variable's copies equal; mixed into its class when a strategy places it, so
    a subclass (a Keras weight) keeps its own surface and printing."""

    _traced_by_spec = False

    def _set_value(self, new_value):
        if not state.staging and isinstance(new_value, jax.Array) \
                and new_value.sharding != self._strategy._replicated:
            new_value = self._strategy._replicated_array(new_value)
        super()._set_value(new_value)

    @property
    def values(self):
        """One Variable per replica (TF's component Variables), named as TF names them; each
        shares this Variable's value, so it reads and writes the mirrored copies."""
        base = self.name[:-2] if self.name.endswith(":0") else self.name
        names = [self.name] + [f"{base}/replica_{i}:0" for i in range(1, len(self._strategy.worker_devices))]
        return tuple(_replica_copy(self, name) for name in names)

    def _staged_output(self, traced):
        """The value a traced program returns for this Variable: constrained to stay replicated
        (otherwise XLA may choose to return it split over the replicas)."""
        return jax.lax.with_sharding_constraint(traced, self._strategy._replicated)


class MirroredVariable(_Mirrored, Variable):
    """A Variable whose value is replicated on every device of its strategy (TF's class).

    Its value is one ``jax.Array`` with a replicated sharding, so every replica reads the
    same value and updates inside `Strategy.run` keep the copies equal. The placement is
    kept on every write: a compiled program returns the new value replicated, and an eager
    assignment of a value placed elsewhere (a metric's reset, loaded weights) is copied to
    every device. Compiled steps therefore always see the same input placement and are
    not compiled again.

    Example:
        >>> import companion as tf
        >>> with tf.distribute.MirroredStrategy().scope():
        ...     v = tf.Variable(1.0, name="w")
        >>> type(v).__name__, float(v)
        ('MirroredVariable', 1.0)
    """

    def __repr__(self):
        devices = self._strategy.worker_devices
        inner = super().__repr__()
        name = f"'{self.name}'"
        base = self.name[:-2] if self.name.endswith(":0") else self.name
        # TF names replica i's copy `<name>/replica_i:0`
        copies = [inner] + [inner.replace(name, repr(f"{base}/replica_{i}:0"), 1)
                            for i in range(1, len(devices))]
        body = ",\n".join(f"  {i}: {copy}" for i, copy in enumerate(copies))
        return "MirroredVariable:{\n" + body + "\n}"

    __str__ = __repr__  # print() shows every copy too, as TF


def mirrored_class(cls):
    """The class a Variable of class ``cls`` takes when a strategy mirrors it: `MirroredVariable`
    for a plain Variable; for a subclass (a Keras weight, which TF's Keras also shows as itself),
    that subclass with the mirroring mixed in, made once."""
    if cls in (Variable, ResourceVariable) or issubclass(cls, _Mirrored):
        return cls if issubclass(cls, _Mirrored) else MirroredVariable
    found = _mirrored_subclasses.get(cls)
    if found is None:
        found = _mirrored_subclasses[cls] = type(cls.__name__, (_Mirrored, cls),
                                                 {"__module__": cls.__module__, "__doc__": cls.__doc__})
    return found


_mirrored_subclasses = {}


class _ReplicaCopy(_UnreadView):
    """One replica's copy of a mirrored Variable, shown under its own name (`_Mirrored.values`)."""

    __slots__ = ("_copy_name",)

    @property
    def name(self):
        return self._copy_name


_copy_classes = {}


def _replica_copy(variable, name):
    plain = ResourceVariable if type(variable) is MirroredVariable else \
        next(b for b in type(variable).__bases__ if not issubclass(b, _Mirrored))
    copy_class = _copy_classes.get(plain)
    if copy_class is None:
        copy_class = _copy_classes[plain] = type(plain.__name__, (_ReplicaCopy, plain), {"__slots__": ()})
        if plain in _op._PLAIN:  # an eager op reads the shared stored value as is
            _op._PLAIN.add(copy_class)
    copy = object.__new__(copy_class)
    copy.__dict__ = variable.__dict__
    copy._unread_of = variable
    copy._copy_name = name
    return copy
