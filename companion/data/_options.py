"""`Options`: pipeline-wide settings (determinism, threading, optimizations), merged along the pipeline."""

import enum


class AutoShardPolicy(enum.IntEnum):
    """How a distribution strategy splits a dataset between workers (tf.data's enum)."""

    OFF = -1
    AUTO = 0
    FILE = 1
    DATA = 2
    HINT = 3


class _Group:
    """A set of named options; unset ones are None. Unknown names raise AttributeError."""

    _fields = ()
    _groups = {}

    def __init__(self):
        for name in self._fields:
            object.__setattr__(self, name, None)
        for name, group in self._groups.items():
            object.__setattr__(self, name, group())

    def __setattr__(self, name, value):
        if name in self._groups:
            if not isinstance(value, self._groups[name]):
                raise TypeError(f"{type(self).__name__}.{name} must be a {self._groups[name].__name__}. "
                                f"Received: {value!r}")
        elif name not in self._fields:
            known = ", ".join(sorted((*self._fields, *self._groups)))
            raise AttributeError(f"{type(self).__name__} has no option {name!r}. Known options: {known}.")
        object.__setattr__(self, name, value)

    def merge(self, other):
        """A copy of these options with every option set in ``other`` taking its value."""
        merged = type(self)()
        for name in self._fields:
            mine, theirs = getattr(self, name), getattr(other, name)
            object.__setattr__(merged, name, mine if theirs is None else theirs)
        for name in self._groups:
            object.__setattr__(merged, name, getattr(self, name).merge(getattr(other, name)))
        return merged

    def __eq__(self, other):
        return type(other) is type(self) and all(
            getattr(self, n) == getattr(other, n) for n in (*self._fields, *self._groups))

    __hash__ = None

    def __repr__(self):
        set_ = {n: getattr(self, n) for n in self._fields if getattr(self, n) is not None}
        return f"{type(self).__name__}({set_})"


class AutotuneOptions(_Group):
    """``enabled``, ``cpu_budget``, ``ram_budget`` (accepted; AUTOTUNE picks sizes from the CPU count)."""

    _fields = ("enabled", "cpu_budget", "ram_budget", "autotune_algorithm")


class DistributeOptions(_Group):
    """``auto_shard_policy`` (an `AutoShardPolicy`) and ``num_devices``, read by distribution strategies."""

    _fields = ("auto_shard_policy", "num_devices")


class OptimizationOptions(_Group):
    """Graph optimizations. ``apply_default_optimizations=False`` turns off companion's fusions.

    companion fuses ``from_tensor_slices → shuffle → batch`` into index gathers and runs pure
    map functions vectorised; the other flags are accepted for compatibility.
    """

    _fields = ("apply_default_optimizations", "filter_fusion", "map_and_batch_fusion", "map_fusion",
               "map_parallelization", "noop_elimination", "parallel_batch", "shuffle_and_repeat_fusion",
               "inject_prefetch", "seq_interleave_prefetch")


class ThreadingOptions(_Group):
    """``private_threadpool_size`` caps the threads of parallel stages; the other option is accepted."""

    _fields = ("max_intra_op_parallelism", "private_threadpool_size")


class Options(_Group):
    """Options for a whole pipeline, set with `Dataset.with_options`.

    ``deterministic=False`` lets parallel ``map``/``interleave`` yield elements as soon as
    they are ready (out of order) unless the transformation says ``deterministic=True``.

    Example:
        >>> import companion as tf
        >>> options = tf.data.Options()
        >>> options.deterministic = False
        >>> options.threading.private_threadpool_size = 2
        >>> ds = tf.data.Dataset.range(3).with_options(options)
        >>> ds.options().deterministic
        False
    """

    _fields = ("deterministic", "experimental_external_state_policy", "experimental_slack",
               "experimental_symbolic_checkpoint", "experimental_warm_start")
    _groups = {"autotune": AutotuneOptions, "experimental_distribute": DistributeOptions,
               "experimental_optimization": OptimizationOptions, "threading": ThreadingOptions}

    @property
    def experimental_deterministic(self):
        return self.deterministic

    @experimental_deterministic.setter
    def experimental_deterministic(self, value):
        self.deterministic = value

    @property
    def experimental_threading(self):
        return self.threading

    @experimental_threading.setter
    def experimental_threading(self, value):
        self.threading = value

    def __setattr__(self, name, value):
        if name in ("experimental_deterministic", "experimental_threading"):
            object.__setattr__(self, name, value)
            return
        super().__setattr__(name, value)
