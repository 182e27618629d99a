"""``Strategy.extended``: the strategy's lower-level API, under the class name TF gives each kind."""


class StrategyExtended:
    """TF's ``tf.distribute.StrategyExtended``: what a strategy offers beyond its public API
    (``worker_devices``, ``parameter_devices``, ``variable_created_in_scope``...).

    companion keeps those methods on the strategy itself; this object forwards to it. Each
    strategy names its subclass as TF does (``MirroredStrategy().extended`` is a
    ``MirroredExtended``), since programs print or compare that name.

    Example:
        >>> import companion as tf
        >>> type(tf.distribute.MirroredStrategy().extended).__name__
        'MirroredExtended'
    """

    def __init__(self, strategy):
        self._container_strategy = strategy

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self._container_strategy, name)

    @property
    def parameter_devices(self):
        """Where Variables live: with every replica (the worker devices)."""
        return self._container_strategy.worker_devices


class _DefaultDistributionExtended(StrategyExtended):
    """The default strategy's."""

    @property
    def worker_devices(self):
        raise RuntimeError("worker_devices() method unsupported by default tf.distribute.Strategy.")

    parameter_devices = worker_devices


class OneDeviceExtended(StrategyExtended):
    """`OneDeviceStrategy`'s."""


class MirroredExtended(StrategyExtended):
    """`MirroredStrategy`'s."""


class CollectiveAllReduceExtended(MirroredExtended):
    """`MultiWorkerMirroredStrategy`'s."""


class TPUExtended(StrategyExtended):
    """`TPUStrategy`'s."""


class ParameterServerStrategyExtended(StrategyExtended):
    """`CentralStorageStrategy`'s (TF builds it on the older parameter-server strategy)."""


class ParameterServerStrategyV2Extended(StrategyExtended):
    """`ParameterServerStrategy`'s."""
