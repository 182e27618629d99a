"""Keras 3's recurrent cells (`SimpleRNNCell`, `LSTMCell`, `GRUCell`), `StackedRNNCells`, and `RNN`,
which runs any cell over the steps of a sequence (a Python loop over the steps: a custom cell may
do anything a layer does). Weight layouts are those of `SimpleRNN`/`LSTM`/`GRU`."""

import numpy as np

from companion._core._convert import as_input
from companion._ops._array import concat, split, stack
from companion._ops._creation import ones_like, zeros
from companion._ops._math import cast
from companion._ops._nn_dropout import stream_dropout as dropout
from companion._ops._select import where
from companion.keras import activations, constraints, initializers, regularizers
from companion.keras.layers._layer import Layer
from companion.keras.layers._training_value import training_value
from companion.keras.random._seed_generator import keras_default_seed


class _Cell(Layer):
    """Weights, dropout masks (one per sequence, as Keras's DropoutRNNCell) and configs of a cell."""

    _gates = 1
    _seed_first = False

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal",
                 bias_initializer="zeros", kernel_regularizer=None, recurrent_regularizer=None,
                 bias_regularizer=None, kernel_constraint=None, recurrent_constraint=None,
                 bias_constraint=None, dropout=0.0, recurrent_dropout=0.0, seed=None, **kwargs):
        super().__init__(**kwargs)
        if isinstance(units, bool) or not isinstance(units, (int, np.integer)) or units <= 0:
            raise ValueError(f"Received an invalid value for argument `units`, expected a positive integer, "
                             f"got {units!r}.")
        self.units = int(units)
        self.activation = activations.get(activation)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.use_bias = bool(use_bias)
        if self._seed_first:  # Keras's default-seed draw order (see `_RNN`)
            keras_default_seed(seed)
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.recurrent_initializer = initializers.get(recurrent_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        if not self._seed_first:
            keras_default_seed(seed)
        set_weight_penalties(self, kernel_regularizer, recurrent_regularizer, bias_regularizer,
                             kernel_constraint, recurrent_constraint, bias_constraint)
        self.dropout = min(1.0, max(0.0, float(dropout)))
        self.recurrent_dropout = min(1.0, max(0.0, float(recurrent_dropout)))
        self.seed = seed
        self.reset_dropout_mask()

    state_size = property(lambda self: self.units)
    output_size = property(lambda self: self.units)

    def build(self, input_shape):
        features = tuple(input_shape)[-1]
        width = self._gates * self.units
        self.kernel = self.add_weight(name="kernel", shape=(features, width),
                                      initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer, constraint=self.kernel_constraint)
        self.recurrent_kernel = self.add_weight(
            name="recurrent_kernel", shape=(self.units, width), initializer=self.recurrent_initializer,
            regularizer=self.recurrent_regularizer, constraint=self.recurrent_constraint)
        self.bias = self.add_weight(name="bias", shape=self._bias_shape(),
                                    initializer=self._bias_initializer(),
                                    regularizer=self.bias_regularizer,
                                    constraint=self.bias_constraint) if self.use_bias else None

    def _bias_shape(self):
        return (self._gates * self.units,)

    def _bias_initializer(self):
        return self.bias_initializer

    def reset_dropout_mask(self):
        """Forgets the masks drawn for the last sequence (`RNN` calls it before each sequence)."""
        self._dropout_mask = self._recurrent_dropout_mask = None

    def _masked(self, x, which, rate, training):
        if not training or not 0.0 < rate < 1.0:
            return x
        mask = getattr(self, which)
        if mask is None:
            mask = dropout(ones_like(x), rate)
            setattr(self, which, mask)
        return x * mask

    def get_initial_state(self, batch_size=None):
        sizes = self.state_size if isinstance(self.state_size, (list, tuple)) else [self.state_size]
        return [zeros((batch_size, size), self._dtype) for size in sizes]

    def get_config(self):
        return {**super().get_config(), "units": self.units,
                "activation": activations.serialize(self.activation), "use_bias": self.use_bias,
                "kernel_initializer": initializers.serialize(self.kernel_initializer),
                "recurrent_initializer": initializers.serialize(self.recurrent_initializer),
                "bias_initializer": initializers.serialize(self.bias_initializer),
                "kernel_regularizer": regularizers.serialize(self.kernel_regularizer),
                "recurrent_regularizer": regularizers.serialize(self.recurrent_regularizer),
                "bias_regularizer": regularizers.serialize(self.bias_regularizer),
                "kernel_constraint": constraints.serialize(self.kernel_constraint),
                "recurrent_constraint": constraints.serialize(self.recurrent_constraint),
                "bias_constraint": constraints.serialize(self.bias_constraint), "dropout": self.dropout,
                "recurrent_dropout": self.recurrent_dropout, "seed": self.seed}


def _first_state(states):
    return (states[0] if isinstance(states, (list, tuple)) else states), isinstance(states, (list, tuple))


class SimpleRNNCell(_Cell):
    """One step of `SimpleRNN`: ``h = activation(x @ kernel + bias + h_prev @ recurrent_kernel)``;
    returns ``(h, [h])``.

    Example:
        >>> import companion as tf
        >>> cell = tf.keras.layers.SimpleRNNCell(4)
        >>> out, states = cell(tf.ones([2, 3]), [tf.zeros([2, 4])])
        >>> out.shape, len(states)
        (TensorShape([2, 4]), 1)
    """

    _seed_first = True  # Keras makes its SeedGenerator before its initializers

    def __init__(self, units, activation="tanh", use_bias=True, **kwargs):
        kwargs.pop("recurrent_activation", None)
        super().__init__(units, activation=activation, use_bias=use_bias, **kwargs)

    def call(self, inputs, states, training=False):
        inputs = as_input(inputs)
        previous, listed = _first_state(states)
        training = training_value(training) is True
        h = self._masked(inputs, "_dropout_mask", self.dropout, training) @ self.kernel
        if self.bias is not None:
            h = h + self.bias
        previous = self._masked(as_input(previous), "_recurrent_dropout_mask", self.recurrent_dropout,
                                training)
        output = self.activation(h + previous @ self.recurrent_kernel)
        return output, ([output] if listed else output)



class LSTMCell(_Cell):
    """One step of `LSTM` (Keras 3's fused form): gates ``i, f, c, o`` from
    ``x @ kernel + h @ recurrent_kernel + bias``; ``c = f * c + i * activation(g)``,
    ``h = o * activation(c)``; returns ``(h, [h, c])``. ``unit_forget_bias`` starts f's bias at 1."""

    _gates = 4

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid", use_bias=True,
                 unit_forget_bias=True, **kwargs):
        kwargs.pop("implementation", None)
        super().__init__(units, activation=activation, recurrent_activation=recurrent_activation,
                         use_bias=use_bias, **kwargs)
        self.unit_forget_bias = bool(unit_forget_bias)

    state_size = property(lambda self: [self.units, self.units])

    def _bias_initializer(self):
        if not self.unit_forget_bias:
            return self.bias_initializer
        units, initializer = self.units, self.bias_initializer

        def forget_gate_ones(shape, dtype=None, **kwargs):
            return concat([initializer((units,), dtype), ones_like(zeros((units,), dtype)),
                           initializer((2 * units,), dtype)], 0)
        return forget_gate_ones

    def call(self, inputs, states, training=False):
        h, c = as_input(states[0]), as_input(states[1])
        training = training_value(training) is True
        inputs = self._masked(as_input(inputs), "_dropout_mask", self.dropout, training)
        h_in = self._masked(h, "_recurrent_dropout_mask", self.recurrent_dropout, training)
        z = inputs @ self.kernel + h_in @ self.recurrent_kernel
        if self.bias is not None:
            z = z + self.bias
        i, f, g, o = split(z, 4, axis=1)
        c = self.recurrent_activation(f) * c + self.recurrent_activation(i) * self.activation(g)
        h = self.recurrent_activation(o) * self.activation(c)
        return h, [h, c]

    def get_config(self):
        return {**super().get_config(),
                "recurrent_activation": activations.serialize(self.recurrent_activation),
                "unit_forget_bias": self.unit_forget_bias}


class GRUCell(_Cell):
    """One step of `GRU` (Keras 3): update ``z``, reset ``r``, candidate from
    ``x @ kernel`` and ``h @ recurrent_kernel`` (the reset applied after the recurrent product with
    ``reset_after=True``, the default, which uses two bias rows); ``h = z * h + (1 - z) * candidate``."""

    _gates = 3

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid", use_bias=True,
                 reset_after=True, **kwargs):
        kwargs.pop("implementation", None)
        self.reset_after = bool(reset_after)
        super().__init__(units, activation=activation, recurrent_activation=recurrent_activation,
                         use_bias=use_bias, **kwargs)

    def _bias_shape(self):
        return (2, 3 * self.units) if self.reset_after else (3 * self.units,)

    def call(self, inputs, states, training=False):
        h, listed = _first_state(states)
        h = as_input(h)
        training = training_value(training) is True
        inputs = self._masked(as_input(inputs), "_dropout_mask", self.dropout, training)
        h_in = self._masked(h, "_recurrent_dropout_mask", self.recurrent_dropout, training)
        if self.reset_after and self.bias is not None:
            input_bias, recurrent_bias = self.bias[0], self.bias[1]
        else:
            input_bias, recurrent_bias = self.bias, None
        x = inputs @ self.kernel
        if input_bias is not None:
            x = x + input_bias
        x_z, x_r, x_h = split(x, 3, axis=1)
        units = self.units
        if self.reset_after:
            inner = h_in @ self.recurrent_kernel
            if recurrent_bias is not None:
                inner = inner + recurrent_bias
            r_z, r_r, r_h = split(inner, 3, axis=1)
        else:
            r_z, r_r = split(h_in @ self.recurrent_kernel[:, :2 * units], 2, axis=1)
        z = self.recurrent_activation(x_z + r_z)
        r = self.recurrent_activation(x_r + r_r)
        r_h = r * r_h if self.reset_after else (r * h_in) @ self.recurrent_kernel[:, 2 * units:]
        candidate = self.activation(x_h + r_h)
        new = z * h + (1 - z) * candidate
        return new, ([new] if listed else new)

    def get_config(self):
        return {**super().get_config(),
                "recurrent_activation": activations.serialize(self.recurrent_activation),
                "reset_after": self.reset_after}


class StackedRNNCells(Layer):
    """Several cells as one: each step feeds a cell's output to the next (states kept per cell)."""

    def __init__(self, cells, **kwargs):
        super().__init__(**kwargs)
        self.cells = list(cells)

    state_size = property(lambda self: [cell.state_size for cell in self.cells])
    output_size = property(lambda self: self.cells[-1].output_size)

    def build(self, input_shape):
        shape = tuple(input_shape)
        for cell in self.cells:
            if not cell.built:
                cell.build(shape)
            shape = shape[:-1] + (cell.output_size,)

    def get_initial_state(self, batch_size=None):
        return [cell.get_initial_state(batch_size) for cell in self.cells]

    def reset_dropout_mask(self):
        for cell in self.cells:
            if hasattr(cell, "reset_dropout_mask"):
                cell.reset_dropout_mask()

    def call(self, inputs, states, training=False):
        new_states = []
        for cell, cell_states in zip(self.cells, states):
            inputs, cell_states = cell(inputs, cell_states, training=training)
            new_states.append(cell_states if isinstance(cell_states, (list, tuple)) else [cell_states])
        return inputs, new_states


class RNN(Layer):
    """Runs ``cell`` (any layer with ``call(inputs, states)`` returning ``(output, new_states)`` and a
    ``state_size``; a list of cells is stacked) over the steps of ``(batch, steps, features)``
    inputs. Masked steps keep the states and repeat the last output (0 with
    ``zero_output_for_mask``), as Keras does.

    Example:
        >>> import companion as tf
        >>> layer = tf.keras.layers.RNN(tf.keras.layers.LSTMCell(4), return_sequences=True)
        >>> layer(tf.ones([2, 5, 3])).shape
        TensorShape([2, 5, 4])
    """

    def __init__(self, cell, return_sequences=False, return_state=False, go_backwards=False, stateful=False,
                 unroll=False, zero_output_for_mask=False, **kwargs):
        super().__init__(**kwargs)
        if stateful:
            raise ValueError("RNN: stateful=True is not supported by companion. Pass the previous states "
                             "with initial_state=... (return_state=True returns them).")
        if isinstance(cell, (list, tuple)):
            cell = StackedRNNCells(cell)
        if not hasattr(cell, "call") or not hasattr(cell, "state_size"):
            raise ValueError("Argument `cell` should have a `call` method and a `state_size` attribute. "
                             f"Received: cell={cell!r}")
        self.cell = cell
        self.return_sequences, self.return_state = bool(return_sequences), bool(return_state)
        self.go_backwards, self.stateful, self.unroll = bool(go_backwards), False, bool(unroll)
        self.zero_output_for_mask = bool(zero_output_for_mask)
        self.supports_masking = True

    def build(self, input_shape):
        shape = tuple(input_shape)
        if isinstance(self.cell, Layer) and not self.cell.built:
            self.cell.build((shape[0],) + shape[2:])

    def call(self, inputs, mask=None, training=None, initial_state=None):
        inputs = as_input(inputs)
        batch, steps = inputs.shape[0], inputs.shape[1]
        states = self.cell.get_initial_state(batch) if initial_state is None else list(initial_state)
        if hasattr(self.cell, "reset_dropout_mask"):
            self.cell.reset_dropout_mask()
        keep = None if mask is None else cast(as_input(mask), "bool")
        order = range(steps - 1, -1, -1) if self.go_backwards else range(steps)
        outputs, last = [], None
        for t in order:
            output, new_states = self.cell(inputs[:, t], states, training=training)
            new_states = list(new_states) if isinstance(new_states, (list, tuple)) else [new_states]
            if keep is not None:
                kept = keep[:, t:t + 1]
                new_states = _keep(kept, new_states, states)
                fresh = last is None or self.zero_output_for_mask
                held = zeros(output.shape, output.dtype) if fresh else last
                output = where(kept, output, held)
            states, last = new_states, output
            outputs.append(output)
        result = stack(outputs, axis=1) if self.return_sequences else last
        if self.return_state:  # the cell's states as it keeps them (a list per cell when stacked)
            return (result, *states)  # a tuple, as Keras 3
        return result

    def compute_mask(self, inputs, mask=None):
        output_mask = mask if self.return_sequences else None
        if self.return_state:
            return [output_mask] + [None] * len(self.cell.get_initial_state(1))
        return output_mask

    def get_config(self):
        # deferred: serialization imports every layer module, this one included
        from companion.keras.layers._serialization import serialize

        return {**super().get_config(), "return_sequences": self.return_sequences,
                "return_state": self.return_state, "go_backwards": self.go_backwards, "stateful": False,
                "unroll": self.unroll, "zero_output_for_mask": self.zero_output_for_mask,
                "cell": serialize(self.cell)}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        # deferred: serialization imports every layer module, this one included
        from companion.keras.layers._serialization import deserialize

        config = dict(config)
        cell = deserialize(config.pop("cell"), custom_objects=custom_objects)
        return cls(cell, **config)


def _keep(kept, new, old):
    out = []
    for n, o in zip(new, old):
        out.append(_keep(kept, n, o) if isinstance(n, (list, tuple)) else where(kept, n, as_input(o)))
    return out


def set_weight_penalties(layer, kernel_regularizer, recurrent_regularizer, bias_regularizer,
                         kernel_constraint, recurrent_constraint, bias_constraint):
    """The regularizers and constraints of a recurrent layer's kernel, recurrent kernel and bias,
    looked up by name as Keras does (shared by the cells, the fused RNN layers and ConvLSTM)."""
    layer.kernel_regularizer = regularizers.get(kernel_regularizer)
    layer.recurrent_regularizer = regularizers.get(recurrent_regularizer)
    layer.bias_regularizer = regularizers.get(bias_regularizer)
    layer.kernel_constraint = constraints.get(kernel_constraint)
    layer.recurrent_constraint = constraints.get(recurrent_constraint)
    layer.bias_constraint = constraints.get(bias_constraint)
