"""`MultiHeadAttention`: Keras 3's multi-head (scaled dot-product) attention, its projections as
`EinsumDense` sublayers named ``query``, ``key``, ``value`` and ``attention_output``."""

import math
import string

import numpy as np

from companion._core._convert import as_input
from companion._ops._array import expand_dims
from companion._ops._linalg import einsum
from companion._ops._math import cast, logical_and
from companion.keras import constraints, initializers, regularizers
from companion.keras.backend._name_scope import name_scope
from companion.keras.layers._activation_layers import Softmax
from companion.keras.layers._dropout import Dropout
from companion.keras.layers._einsum_dense import EinsumDense
from companion.keras.layers._keras_mask import get_keras_mask, set_keras_mask
from companion.keras.layers._layer import Layer


class MultiHeadAttention(Layer):
    """Attention from ``query`` to ``value`` (and ``key``, by default ``value``) with ``num_heads``
    heads of size ``key_dim``: each is ``softmax(q k^T / sqrt(key_dim)) v`` over the
    ``attention_axes`` (the sequence axis by default), then the heads are projected back to the
    query's last size (or ``output_shape``).

    Call with ``attention_mask`` (True where a query position may attend to a key position,
    ``[B, T, S]``), ``use_causal_mask=True`` (no attending to later positions), Keras masks on the
    inputs (from `Embedding(mask_zero=True)` or `Masking`), ``return_attention_scores=True`` (also
    the ``[B, heads, T, S]`` weights), and ``training`` (attention dropout).

    Example:
        >>> import companion as tf
        >>> layer = tf.keras.layers.MultiHeadAttention(num_heads=2, key_dim=4)
        >>> out, scores = layer(tf.ones([3, 5, 8]), tf.ones([3, 6, 8]), return_attention_scores=True)
        >>> out.shape, scores.shape
        (TensorShape([3, 5, 8]), TensorShape([3, 2, 5, 6]))
    """

    def __init__(self, num_heads, key_dim, value_dim=None, dropout=0.0, use_bias=True, output_shape=None,
                 attention_axes=None, kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, seed=None, **kwargs):
        for name, default in (("sliding_window", None), ("use_gate", False), ("flash_attention", None)):
            if kwargs.pop(name, default) not in (default, False):
                raise ValueError(f"MultiHeadAttention: `{name}` is not supported by companion. Leave it at "
                                 f"its default ({default}).")
        for name, value in (("num_heads", num_heads), ("key_dim", key_dim)):
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise ValueError(f"Received an invalid value for argument `{name}`, expected a positive "
                                 f"integer. Received: {name}={value!r}")
        if value_dim is not None and (isinstance(value_dim, bool) or not isinstance(value_dim, int)
                                      or value_dim <= 0):
            raise ValueError("Received an invalid value for argument `value_dim`, expected a positive "
                             f"integer or `None`. Received: value_dim={value_dim!r}")
        super().__init__(**kwargs)
        self.supports_masking = True
        self._num_heads, self._key_dim = num_heads, key_dim
        self._value_dim = value_dim if value_dim else key_dim
        self._dropout, self._use_bias = float(dropout), bool(use_bias)
        if isinstance(output_shape, int):
            output_shape = (output_shape,)
        self._output_shape = tuple(output_shape) if output_shape else None
        if isinstance(attention_axes, int):
            attention_axes = (attention_axes,)
        elif attention_axes is not None and not isinstance(attention_axes, (list, tuple)):
            raise ValueError(f"`attention_axes` must be an int, list, or tuple. Received: "
                             f"attention_axes={attention_axes!r}")
        self._attention_axes = None if attention_axes is None else tuple(attention_axes)
        self._kernel_initializer = initializers.get(kernel_initializer)
        self._bias_initializer = initializers.get(bias_initializer)
        self._kernel_regularizer = regularizers.get(kernel_regularizer)
        self._bias_regularizer = regularizers.get(bias_regularizer)
        self._activity_regularizer = regularizers.get(activity_regularizer)
        self._kernel_constraint = constraints.get(kernel_constraint)
        self._bias_constraint = constraints.get(bias_constraint)
        self.seed = seed
        self._inverse_sqrt_key_dim = 1.0 / math.sqrt(float(key_dim))
        self._query_dense = None

    num_heads = property(lambda self: self._num_heads)
    key_dim = property(lambda self: self._key_dim)
    value_dim = property(lambda self: self._value_dim)
    dropout = property(lambda self: self._dropout)
    use_bias = property(lambda self: self._use_bias)
    attention_axes = property(lambda self: self._attention_axes)
    query_dense = property(lambda self: self._query_dense)
    key_dense = property(lambda self: self._key_dense)
    value_dense = property(lambda self: self._value_dense)
    output_dense = property(lambda self: self._output_dense)

    def build(self, query_shape, value_shape=None, key_shape=None):
        """Builds the projections; on a first call the layer builds itself from its inputs' shapes."""
        if value_shape is None:
            return  # the first call passes query, value and key: built then
        query_shape, value_shape = tuple(query_shape), tuple(value_shape)
        key_shape = value_shape if key_shape is None else tuple(key_shape)
        if value_shape[1:-1] != key_shape[1:-1]:
            raise ValueError("All dimensions of `value` and `key`, except the last one, must be equal. "
                             f"Received: value_shape={value_shape} and key_shape={key_shape}")
        self._query_dense = self._projection(len(query_shape), self._key_dim, "query", query_shape)
        self._key_dense = self._projection(len(key_shape), self._key_dim, "key", key_shape)
        self._value_dense = self._projection(len(value_shape), self._value_dim, "value", value_shape)
        rank = len(query_shape) + 1
        if self._attention_axes is None:
            self._attention_axes = tuple(range(1, rank - 2))
        else:
            self._attention_axes = tuple(a if a >= 0 else (rank - 1) + a for a in self._attention_axes)
        self._dot_product_equation, self._combine_equation, scores_rank = _attention_equations(
            rank, self._attention_axes)
        norm_axes = tuple(range(scores_rank - len(self._attention_axes), scores_rank))
        self._softmax = Softmax(axis=norm_axes, dtype=self._dtype_policy)
        self._dropout_layer = Dropout(rate=self._dropout, seed=self.seed, dtype=self._dtype_policy)
        output = self._output_shape or (query_shape[-1],)
        equation, bias_axes, out_rank = _projection_equation(len(query_shape) - 1, 2, len(output))
        self._output_dense = EinsumDense(
            equation, output_shape=[None] * (out_rank - 1 - len(output)) + list(output),
            bias_axes=bias_axes if self._use_bias else None, name="attention_output",
            **self._sublayer_kwargs())
        projected = list(self._query_dense.compute_output_shape(query_shape))
        projected[-1] = self._value_dim
        self._build_sublayer(self._output_dense, tuple(projected))
        self.built = True

    def _projection(self, input_rank, size, name, input_shape):
        equation, bias_axes, out_rank = _projection_equation(input_rank - 1, 1, 2)
        dense = EinsumDense(equation, output_shape=[None] * (out_rank - 3) + [self._num_heads, size],
                            bias_axes=bias_axes if self._use_bias else None, name=name,
                            **self._sublayer_kwargs())
        self._build_sublayer(dense, input_shape)
        return dense

    def _build_sublayer(self, dense, shape):
        """Builds ``dense`` under this layer's scope and its own, as Keras's build wrapper does (weight
        paths ``multi_head_attention/query/kernel``)."""
        with name_scope(self.name, caller=self), name_scope(dense.name, caller=dense):
            dense.build(shape)

    def _sublayer_kwargs(self):
        def fresh(init):  # a copy per sublayer, as Keras clones them
            return type(init).from_config(init.get_config())

        return {"kernel_initializer": fresh(self._kernel_initializer),
                "bias_initializer": fresh(self._bias_initializer),
                "kernel_regularizer": self._kernel_regularizer, "bias_regularizer": self._bias_regularizer,
                "activity_regularizer": self._activity_regularizer,
                "kernel_constraint": self._kernel_constraint, "bias_constraint": self._bias_constraint,
                "dtype": self._dtype_policy}

    def call(self, query, value, key=None, query_mask=None, value_mask=None, key_mask=None,
             attention_mask=None, return_attention_scores=False, training=None, use_causal_mask=False):
        query, value = as_input(query), as_input(value)
        key_given = key is not None and key is not value
        key = value if key is None else as_input(key)
        query_mask = get_keras_mask(query)
        value_mask = get_keras_mask(value) if value_mask is None else value_mask
        if key_given and key_mask is None:
            key_mask = get_keras_mask(key)
        for tensor in (query, value, key):  # the masks act here, as in Keras (which also drops them)
            set_keras_mask(tensor, None)
        if self._query_dense is None:
            self.build(query.shape, value.shape, key.shape)
        mask = self._attention_mask(query, value, query_mask, value_mask, key_mask if key_given else None,
                                    attention_mask, use_causal_mask)
        query = self._query_dense(query)
        key = self._key_dense(key)
        value = self._value_dense(value)
        scaled = query * cast(self._inverse_sqrt_key_dim, query.dtype)
        scores = einsum(self._dot_product_equation, key, scaled)
        if mask is not None:
            for _ in range(scores.ndim - mask.ndim):
                mask = expand_dims(mask, axis=-len(self._attention_axes) * 2 - 1)
        scores = self._softmax(scores, mask=mask)
        weights = self._dropout_layer(scores, training=training) if self._dropout > 0 else scores
        output = self._output_dense(einsum(self._combine_equation, weights, value))
        return (output, scores) if return_attention_scores else output

    def _attention_mask(self, query, value, query_mask, value_mask, key_mask, attention_mask,
                        use_causal_mask):
        """The Keras masks of the inputs, the causal mask and ``attention_mask`` combined (AND) into a
        boolean ``[B, T, S]`` mask, or None."""
        auto = None
        for part in (None if query_mask is None else expand_dims(cast(query_mask, "bool"), -1),
                     None if value_mask is None else expand_dims(cast(value_mask, "bool"), -2),
                     None if key_mask is None else expand_dims(cast(key_mask, "bool"), -2),
                     _causal_mask(query, value) if use_causal_mask else None):
            if part is not None:
                auto = part if auto is None else logical_and(auto, part)
        if attention_mask is not None:
            attention_mask = cast(attention_mask, "bool")
        if auto is not None:
            attention_mask = auto if attention_mask is None else logical_and(attention_mask, auto)
        return attention_mask

    def compute_output_shape(self, query_shape, value_shape=None, key_shape=None):
        query_shape = tuple(query_shape)
        if self._output_shape:
            return query_shape[:-1] + self._output_shape
        return query_shape

    def get_config(self):
        return {**super().get_config(), "num_heads": self._num_heads, "key_dim": self._key_dim,
                "value_dim": self._value_dim, "dropout": self._dropout, "use_bias": self._use_bias,
                "use_gate": False, "output_shape": self._output_shape, "attention_axes": self._attention_axes,
                "sliding_window": None,
                "kernel_initializer": initializers.serialize(self._kernel_initializer),
                "bias_initializer": initializers.serialize(self._bias_initializer),
                "kernel_regularizer": regularizers.serialize(self._kernel_regularizer),
                "bias_regularizer": regularizers.serialize(self._bias_regularizer),
                "activity_regularizer": regularizers.serialize(self._activity_regularizer),
                "kernel_constraint": constraints.serialize(self._kernel_constraint),
                "bias_constraint": constraints.serialize(self._bias_constraint), "seed": self.seed}


def _causal_mask(query, value):
    """``[1, T, S]``: True where the key position is not after the query position."""
    rows, cols = query.shape[1], value.shape[1]
    return as_input(np.tril(np.ones((rows, cols), bool))[None])


def _letters(count, offset=0):
    return string.ascii_lowercase[offset:offset + count]


def _projection_equation(free_dims, bound_dims, output_dims):
    """Keras's projection einsum: the free axes pass through, the bound ones are contracted."""
    free, bound = _letters(free_dims), _letters(bound_dims, free_dims)
    out = _letters(output_dims, free_dims + bound_dims)
    return f"{free}{bound},{bound}{out}->{free}{out}", out, free_dims + output_dims


def _attention_equations(rank, attention_axes):
    """Keras's einsums for ``(<batch>, <attention axes>, heads, channels)`` tensors: key-query scores
    ``(<batch>, heads, <query axes>, <key axes>)`` and the weighted combination of values."""
    target = _letters(rank)
    batch_axes = tuple(np.delete(range(rank), attention_axes + (rank - 1,)))
    source, offset = "", rank
    for i in range(rank):
        if i in batch_axes or i == rank - 1:
            source += target[i]
        else:
            source += _letters(1, offset)
            offset += 1
    product = "".join([target[i] for i in batch_axes] + [target[i] for i in attention_axes]
                      + [source[i] for i in attention_axes])
    return f"{source},{target}->{product}", f"{product},{source}->{target}", len(product)
