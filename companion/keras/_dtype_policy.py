"""`DTypePolicy`: the compute and variable dtypes of a layer, and the global policy.

``"mixed_float16"``/``"mixed_bfloat16"`` compute in half precision and keep variables in float32:
a layer casts its floating inputs to the compute dtype and, while it calls, reads its float weights
in that dtype too (the cast is differentiated, so gradients reach the float32 weights in float32).
Any other float dtype name computes and stores in that dtype. Layers made while a policy is
global take it unless given ``dtype=``, as in Keras 3.
"""

from companion._core import _dtypes


class DTypePolicy:
    """A dtype policy for a Keras layer: its ``compute_dtype`` and ``variable_dtype``.

    Example:
        >>> import companion as tf
        >>> policy = tf.keras.mixed_precision.Policy("mixed_float16")
        >>> policy.compute_dtype, policy.variable_dtype
        ('float16', 'float32')
        >>> tf.keras.layers.Dense(2, dtype=policy).dtype_policy
        <DTypePolicy "mixed_float16">
    """

    def __init__(self, name=None):
        if name is None:
            name = global_policy().name
        self._name = name
        self._compute_dtype, self._variable_dtype = _parse(name)

    @property
    def name(self):
        return self._name

    @property
    def compute_dtype(self):
        """The dtype of the layer's computations, inputs and outputs (``'float16'``)."""
        return self._compute_dtype

    @property
    def variable_dtype(self):
        """The dtype the layer creates its weights in (``'float32'``)."""
        return self._variable_dtype

    @property
    def quantization_mode(self):
        return None

    def get_config(self):
        return {"name": self._name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __eq__(self, other):
        return isinstance(other, DTypePolicy) and other._name == self._name

    def __hash__(self):
        return hash(self._name)

    def __repr__(self):
        return f'<DTypePolicy "{self._name}">'


FloatDTypePolicy = DTypePolicy
_global = None


def set_global_policy(policy):
    """Sets the policy of layers made from now on without ``dtype=`` (``"mixed_float16"``,
    ``"mixed_bfloat16"``, ``"float32"``, ... or a `DTypePolicy`); None restores float32."""
    global _global
    if policy is None:
        _global = None
        return
    if not isinstance(policy, (DTypePolicy, str)):
        raise ValueError(f"Invalid `policy` argument: expected the string name of a policy (such as "
                         f"'mixed_float16') or a `DTypePolicy` instance. Received: policy={policy!r} "
                         f"(of type {type(policy).__name__})")
    _global = policy if isinstance(policy, DTypePolicy) else DTypePolicy(policy)


def global_policy():
    """The policy layers made now take when not given ``dtype=`` (float32 unless set)."""
    return _global if _global is not None else _FLOAT32


def get(identifier):
    """A `DTypePolicy` from a policy, a name, a dtype, a Keras config dict, or None (the global one)."""
    if identifier is None:
        return global_policy()
    if isinstance(identifier, DTypePolicy):
        return identifier
    if isinstance(identifier, dict):  # Keras 3's serialized form, or its bare config
        config = identifier.get("config", identifier)
        return DTypePolicy(config.get("name"))
    if isinstance(identifier, str):
        return DTypePolicy(identifier)
    return DTypePolicy(_dtypes.as_dtype(identifier).name)


def serialize(policy):
    """Keras 3's config of a policy (what ``get_config`` stores for a mixed layer)."""
    return {"module": "keras", "class_name": "DTypePolicy", "config": policy.get_config(),
            "registered_name": None}


def _parse(name):
    if not isinstance(name, str):
        raise TypeError(f"'name' must be a string, such as 'mixed_float16'. Received: name={name!r} "
                        f"(of type {type(name).__name__})")
    if name == "mixed_float16":
        return "float16", "float32"
    if name == "mixed_bfloat16":
        return "bfloat16", "float32"
    try:
        dtype = _dtypes.as_dtype(name).name
    except (TypeError, ValueError):
        raise ValueError(f"Cannot convert {name!r} to a mixed precision DTypePolicy. Valid policies "
                         "include 'mixed_float16', 'mixed_bfloat16', and the name of any dtype such as "
                         "'float32'.") from None
    return dtype, dtype


_FLOAT32 = DTypePolicy("float32")
