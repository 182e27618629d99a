"""Recurrent layers: `SimpleRNN`, `LSTM` and `GRU`, each one op running its cell under ``lax.scan``.

The whole sequence is one XLA loop (one dispatch eagerly, one recorded op on a tape, one loop in a
staged function). Keras 3's cells and weight layout: kernels ``(features, gates * units)``,
recurrent kernels ``(units, gates * units)``, gates ordered ``i, f, c, o`` (LSTM) and ``z, r, h``
(GRU); a masked step (``Embedding(mask_zero=True)``, ``Masking``) keeps the previous states and
repeats the previous output (outputs 0 under `Bidirectional`), as Keras does. In training,
``dropout`` and ``recurrent_dropout`` draw one mask per sequence (per gate when
``recurrent_dropout`` is set, Keras's implementation 1).
"""

import jax
import jax.numpy as jnp
import numpy as np

from companion._core._convert import as_input
from companion._core._op import op
from companion._ops._array import concat
from companion._ops._creation import ones, zeros
from companion._ops._math import cast
from companion._ops._nn_dropout import stream_dropout as dropout
from companion.keras import activations, constraints, initializers, regularizers
from companion.keras.layers._dense_op import FUSED_ACTIVATIONS
from companion.keras.layers._input_spec import InputSpec
from companion.keras.layers._layer import Layer
from companion.keras.layers._rnn_cells import GRUCell, LSTMCell, SimpleRNNCell, set_weight_penalties
from companion.keras.layers._training_value import select, training_value

_ACTIVATIONS = {name: fn or (lambda y: y) for name, fn in FUSED_ACTIVATIONS.items()}  # linear: None there
_GATES = {"simple_rnn": 1, "lstm": 4, "gru": 3}


def _cell(kind, act, ract, reset_after, units, recurrent_masks):
    """``step(x_projected, states, recurrent_kernel, recurrent_bias) -> (new_states, output)``.

    ``recurrent_masks`` (None, or one dropout mask per gate) scale the previous state in each gate's
    recurrent product, as Keras's cells do with ``recurrent_dropout``.
    """
    def project(h, u, gate=None):
        if recurrent_masks is None:
            return h @ (u if gate is None else u[:, gate * units:(gate + 1) * units])
        gates = range(u.shape[1] // units) if gate is None else [gate]
        parts = [(h * recurrent_masks[g]) @ u[:, g * units:(g + 1) * units] for g in gates]
        return jnp.concatenate(parts, -1)

    def simple(xw, states, u, _):
        h = act(xw + project(states[0], u))
        return (h,), h

    def lstm(xw, states, u, _):
        h, c = states
        i, f, g, o = jnp.split(xw + project(h, u), 4, axis=-1)
        c = ract(f) * c + ract(i) * act(g)
        h = ract(o) * act(c)
        return (h, c), h

    def gru(xw, states, u, recurrent_bias):
        h = states[0]
        xz, xr, xh = jnp.split(xw, 3, axis=-1)
        if reset_after:
            hz, hr, hh = jnp.split(project(h, u) + recurrent_bias, 3, axis=-1)
            z, r = ract(xz + hz), ract(xr + hr)
            candidate = act(xh + r * hh)
        else:
            z, r = ract(xz + project(h, u, 0)), ract(xr + project(h, u, 1))
            masked_h = h if recurrent_masks is None else h * recurrent_masks[2]
            candidate = act(xh + (r * masked_h) @ u[:, 2 * units:])
        h = z * h + (1 - z) * candidate
        return (h,), h

    return {"simple_rnn": simple, "lstm": lstm, "gru": gru}[kind]


@op("keras_rnn", static=("kind", "activation", "recurrent_activation", "go_backwards", "return_sequences",
                         "reset_after", "zero_output_for_mask", "input_dropout", "recurrent_dropout"))
def _rnn(inputs, mask, kernel, recurrent_kernel, bias, input_masks, recurrent_masks, *states, kind,
         activation, recurrent_activation, go_backwards, return_sequences, reset_after, zero_output_for_mask,
         input_dropout, recurrent_dropout):
    units = recurrent_kernel.shape[0]
    step = _cell(kind, _ACTIVATIONS[activation], _ACTIVATIONS[recurrent_activation], reset_after, units,
                 recurrent_masks if recurrent_dropout else None)
    input_bias, recurrent_bias = (bias[0], bias[1]) if bias.ndim == 2 else (bias, None)
    if not input_dropout:
        projected = jnp.tensordot(inputs, kernel, [[2], [0]])
    else:  # one mask for every gate, or one per gate (Keras's two implementations)
        count = input_masks.shape[0]
        kernels = [kernel[:, g * units:(g + 1) * units] for g in range(count)] if count > 1 else [kernel]
        parts = [jnp.tensordot(inputs * input_masks[g][:, None, :], kernels[g], [[2], [0]])
                 for g in range(count)]
        projected = jnp.concatenate(parts, -1)
    projected = jnp.swapaxes(projected + input_bias, 0, 1)  # steps first
    keep = jnp.swapaxes(mask, 0, 1)[..., None]
    if go_backwards:
        projected, keep = projected[::-1], keep[::-1]

    def scan_step(carry, step_inputs):
        old_states, old_output = carry
        xw, kept = step_inputs
        new_states, output = step(xw, old_states, recurrent_kernel, recurrent_bias)
        new_states = tuple(jnp.where(kept, new, old) for new, old in zip(new_states, old_states))
        carried = jnp.where(kept, output, old_output)
        return (new_states, carried), (jnp.where(kept, output, 0) if zero_output_for_mask else carried)

    first = (tuple(states), jnp.zeros(states[0].shape, states[0].dtype))
    (final_states, last), outputs = jax.lax.scan(scan_step, first, (projected, keep))
    return (jnp.swapaxes(outputs, 0, 1) if return_sequences else last, *final_states)


class _RNN(Layer):
    """What `SimpleRNN`, `LSTM` and `GRU` share: arguments, weights, masks and the call."""

    _kind = "simple_rnn"
    _state_count = 1

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal",
                 bias_initializer="zeros", kernel_regularizer=None, recurrent_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                 recurrent_constraint=None, bias_constraint=None, dropout=0.0, recurrent_dropout=0.0,
                 return_sequences=False, return_state=False, go_backwards=False, stateful=False,
                 unroll=False, zero_output_for_mask=False, seed=None, **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        if isinstance(units, bool) or not isinstance(units, (int, np.integer)) or units <= 0:
            raise ValueError(f"`units` must be a positive integer. Received: units={units!r}")
        for role, rate in (("dropout", dropout), ("recurrent_dropout", recurrent_dropout)):
            if isinstance(rate, bool) or not isinstance(rate, (int, float)) or not 0 <= rate < 1:
                raise ValueError(f"`{role}` must be a number in [0, 1). Received: {role}={rate!r}")
        if stateful:
            raise ValueError(f"{type(self).__name__}: stateful=True is not supported by companion. Pass "
                             "the previous states with initial_state=... (return_state=True returns them).")
        self.units = int(units)
        self.activation = activations.get(activation)
        self.recurrent_activation = activations.get(recurrent_activation)
        for role in ("activation", "recurrent_activation"):
            fn = getattr(self, role)
            if _name(fn) is None:
                raise ValueError(f"{type(self).__name__}: `{role}` must be one of {sorted(_ACTIVATIONS)} "
                                 f"(companion runs the cell as one compiled loop). Received: {fn!r}")
        self.use_bias = bool(use_bias)
        self.seed = seed
        # The cell holds the weights (paths 'lstm/lstm_cell/kernel', as Keras 3). Making it draws
        # Keras's default seeds from Python's `random` once, in Keras's order (SimpleRNN's cell
        # before its initializers, LSTM's and GRU's after).
        self.cell = self._cell_class(
            units, activation=activation, recurrent_activation=recurrent_activation, use_bias=use_bias,
            kernel_initializer=kernel_initializer, recurrent_initializer=recurrent_initializer,
            bias_initializer=bias_initializer, kernel_regularizer=kernel_regularizer,
            recurrent_regularizer=recurrent_regularizer, bias_regularizer=bias_regularizer,
            kernel_constraint=kernel_constraint, recurrent_constraint=recurrent_constraint,
            bias_constraint=bias_constraint, dropout=dropout, recurrent_dropout=recurrent_dropout, seed=seed,
            name=f"{self._kind}_cell", dtype=self.dtype_policy, trainable=self.trainable,
            **self._cell_kwargs())
        self.kernel_initializer = self.cell.kernel_initializer
        self.recurrent_initializer = self.cell.recurrent_initializer
        self.bias_initializer = self.cell.bias_initializer
        set_weight_penalties(self, kernel_regularizer, recurrent_regularizer, bias_regularizer,
                             kernel_constraint, recurrent_constraint, bias_constraint)
        self.dropout, self.recurrent_dropout = float(dropout), float(recurrent_dropout)
        self.return_sequences, self.return_state = bool(return_sequences), bool(return_state)
        self.go_backwards, self.stateful, self.unroll = bool(go_backwards), False, bool(unroll)
        self.zero_output_for_mask = bool(zero_output_for_mask)  # masked steps output 0 (Bidirectional)
        self.input_spec = InputSpec(ndim=3)
        self.supports_masking = True

    def build(self, input_shape):
        features = tuple(input_shape)[-1]
        if features is None:
            raise ValueError(f"{type(self).__name__} layer {self.name!r} needs a known feature dimension "
                             f"(the last one). Received: input_shape={input_shape}")
        if not self.cell.built:
            self.cell.build((tuple(input_shape)[0], features))  # one step's shape, as Keras builds it
        self.input_spec = InputSpec(ndim=3, axes={-1: features})

    def _cell_kwargs(self):
        return {}

    # the cell's weights, also reachable from the layer as companion has always offered (Keras 3's
    # layers have only `cell.kernel`); properties, so a checkpoint finds them once, under `cell`
    kernel = property(lambda self: self.cell.kernel if self.cell.built else None)
    recurrent_kernel = property(lambda self: self.cell.recurrent_kernel if self.cell.built else None)
    bias = property(lambda self: self.cell.bias if self.cell.built else None)

    def _bias_shape(self):
        return (_GATES[self._kind] * self.units,)

    def call(self, inputs, mask=None, training=None, initial_state=None):
        inputs = as_input(inputs)
        batch = inputs.shape[0]
        states = self._initial_states(initial_state, batch, inputs.dtype)
        mask = ones(inputs.shape[:2], "bool") if mask is None else cast(as_input(mask), "bool")
        bias = self.bias if self.use_bias else zeros(self._bias_shape(), inputs.dtype)
        training = training_value(training)
        input_dropout = training is not False and self.dropout > 0
        recurrent_dropout = training is not False and self.recurrent_dropout > 0
        per_gate = _GATES[self._kind] if self.recurrent_dropout > 0 else 1  # Keras's implementation 1
        input_masks = self._dropout_masks(training, self.dropout, (per_gate, batch, inputs.shape[-1]),
                                          inputs.dtype) if input_dropout else zeros((1,), inputs.dtype)
        recurrent_masks = self._dropout_masks(training, self.recurrent_dropout,
                                              (_GATES[self._kind], batch, self.units), inputs.dtype) \
            if recurrent_dropout else zeros((1,), inputs.dtype)
        outputs = _rnn(inputs, mask, self.kernel, self.recurrent_kernel, bias, input_masks, recurrent_masks,
                       *states, kind=self._kind, input_dropout=input_dropout,
                       recurrent_dropout=recurrent_dropout, activation=_name(self.activation),
                       recurrent_activation=_name(self.recurrent_activation),
                       go_backwards=self.go_backwards, return_sequences=self.return_sequences,
                       reset_after=getattr(self, "reset_after", True),
                       zero_output_for_mask=self.zero_output_for_mask)
        return tuple(outputs) if self.return_state else outputs[0]  # a tuple, as Keras 3's RNN returns

    def _dropout_masks(self, training, rate, shape, dtype):
        """Masks of kept units scaled by ``1 / (1 - rate)``, one per sequence (the same at every step)."""
        return select(training, lambda: dropout(ones(shape, dtype), rate), lambda: ones(shape, dtype))

    def _initial_states(self, initial_state, batch, dtype):
        if initial_state is None:
            return [zeros((batch, self.units), dtype) for _ in range(self._state_count)]
        given = list(initial_state) if isinstance(initial_state, (list, tuple)) else [initial_state]
        if len(given) != self._state_count:
            raise ValueError(f"{type(self).__name__} expects {self._state_count} initial state(s) of shape "
                             f"(batch, {self.units}). Received {len(given)}: initial_state={initial_state!r}")
        return [as_input(state) for state in given]

    def compute_mask(self, inputs, mask=None):
        output_mask = mask if self.return_sequences else None
        return [output_mask] + [None] * self._state_count if self.return_state else output_mask

    def compute_output_shape(self, input_shape):
        batch, steps = tuple(input_shape)[:2]
        output = (batch, steps, self.units) if self.return_sequences else (batch, self.units)
        return [output] + [(batch, self.units)] * self._state_count if self.return_state else output

    def get_config(self):
        """Keras 3.15's order: the RNN's own arguments, then the cell's (``_cell_config``)."""
        return {**super().get_config(), "return_sequences": self.return_sequences,
                "return_state": self.return_state, "go_backwards": self.go_backwards,
                "stateful": self.stateful, "unroll": self.unroll,
                "zero_output_for_mask": self.zero_output_for_mask, **self._cell_config()}

    def _cell_config(self):
        return {"units": self.units,
                "activation": activations.serialize(self.activation),
                "recurrent_activation": activations.serialize(self.recurrent_activation),
                "use_bias": self.use_bias,
                "kernel_initializer": initializers.serialize(self.kernel_initializer),
                "recurrent_initializer": initializers.serialize(self.recurrent_initializer),
                "bias_initializer": initializers.serialize(self.bias_initializer),
                "kernel_regularizer": regularizers.serialize(self.kernel_regularizer),
                "recurrent_regularizer": regularizers.serialize(self.recurrent_regularizer),
                "bias_regularizer": regularizers.serialize(self.bias_regularizer),
                "activity_regularizer": regularizers.serialize(self.activity_regularizer),
                "kernel_constraint": constraints.serialize(self.kernel_constraint),
                "recurrent_constraint": constraints.serialize(self.recurrent_constraint),
                "bias_constraint": constraints.serialize(self.bias_constraint),
                "dropout": self.dropout, "recurrent_dropout": self.recurrent_dropout,
                "seed": self.seed}


class SimpleRNN(_RNN):
    """A fully connected recurrence: ``h_t = activation(x_t @ kernel + h_{t-1} @ recurrent_kernel + bias)``.

    Args:
        units: the size of the state and output.
        activation: ``"tanh"`` (default) or another built-in activation.
        return_sequences: return every step's output ``(batch, steps, units)`` instead of the last.
        return_state: also return the final state(s), as a tuple ``(output, *states)``.
        go_backwards: read the steps in reverse (the returned sequence is in that reversed order).
        kernel/recurrent/bias initializers and regularizers: as for `Dense` (recurrent kernel:
            ``"orthogonal"``).

    Example:
        >>> import companion as tf
        >>> layer = tf.keras.layers.SimpleRNN(4, return_sequences=True)
        >>> layer(tf.ones([2, 3, 5])).shape
        TensorShape([2, 3, 4])
    """

    _cell_class = SimpleRNNCell

    def __init__(self, units, activation="tanh", **kwargs):
        kwargs.pop("recurrent_activation", None)
        super().__init__(units, activation=activation, **kwargs)

    def _cell_config(self):
        config = super()._cell_config()
        del config["recurrent_activation"], config["seed"]  # Keras 3.15's SimpleRNN lists neither
        return config


class LSTM(_RNN):
    """Long short-term memory (Hochreiter 1997), Keras 3's cell: gates ``i, f, c, o`` in the kernels.

    ``c_t = f * c_{t-1} + i * activation(g)``, ``h_t = o * activation(c_t)``, with ``i, f, o`` through
    ``recurrent_activation`` (sigmoid). ``unit_forget_bias=True`` starts the forget gate's bias at 1.
    ``return_state=True`` returns ``(output, h, c)``. Other arguments as in `SimpleRNN`.

    Example:
        >>> import companion as tf
        >>> output, h, c = tf.keras.layers.LSTM(4, return_state=True)(tf.ones([2, 3, 5]))
        >>> output.shape, c.shape
        (TensorShape([2, 4]), TensorShape([2, 4]))
    """

    _kind = "lstm"
    _state_count = 2

    _cell_class = LSTMCell

    def __init__(self, units, unit_forget_bias=True, **kwargs):
        self.unit_forget_bias = bool(unit_forget_bias)
        super().__init__(units, **kwargs)

    def _cell_kwargs(self):
        return {"unit_forget_bias": self.unit_forget_bias}

    def _cell_config(self):
        config = super()._cell_config()
        keys = list(config)
        cut = keys.index("bias_initializer") + 1  # Keras 3 puts it after the initializers
        return {**{k: config[k] for k in keys[:cut]}, "unit_forget_bias": self.unit_forget_bias,
                **{k: config[k] for k in keys[cut:]}}


class GRU(_RNN):
    """Gated recurrent unit (Cho 2014), Keras 3's cell: gates ``z, r, h`` in the kernels.

    With ``reset_after=True`` (the default, cuDNN's form) the reset gate multiplies the recurrent
    projection after the matrix product and the bias has shape ``(2, 3 * units)`` (input and
    recurrent biases); with False, before it, and the bias is ``(3 * units,)``. ``h_t = z * h_{t-1} +
    (1 - z) * candidate``. Other arguments as in `SimpleRNN`.

    Example:
        >>> import companion as tf
        >>> layer = tf.keras.layers.GRU(4)
        >>> layer(tf.ones([2, 3, 5])).shape, layer.bias.shape
        (TensorShape([2, 4]), TensorShape([2, 12]))
    """

    _kind = "gru"

    _cell_class = GRUCell

    def __init__(self, units, reset_after=True, **kwargs):
        self.reset_after = bool(reset_after)
        super().__init__(units, **kwargs)

    def _cell_kwargs(self):
        return {"reset_after": self.reset_after}

    def _bias_shape(self):
        return (2, 3 * self.units) if self.reset_after else (3 * self.units,)

    def _cell_config(self):
        config = super()._cell_config()
        seed = config.pop("seed")
        return {**config, "reset_after": self.reset_after, "seed": seed}


def _name(activation):
    """The built-in activation's name when the cell can run it, else None."""
    name = getattr(activation, "__name__", None)
    return name if name in _ACTIVATIONS and activation is activations.get(name) else None


def forget_gate_ones(initializer, units):
    """An LSTM bias initializer with ``unit_forget_bias``: ``initializer`` for the input, cell and
    output gates' ``units`` each, ones for the forget gate's (gate order i, f, c, o, as Keras)."""

    def initialize(shape, dtype=None, **kwargs):
        return concat([initializer((units,), dtype), ones((units,), dtype),
                       initializer((2 * units,), dtype)], 0)
    return initialize
