"""Convolutional LSTMs (Keras 3): `ConvLSTM1D`, `ConvLSTM2D`, `ConvLSTM3D`, an LSTM whose matrix
products are convolutions, over sequences of 1-D, 2-D or 3-D inputs.

The cell's ``kernel`` has shape ``kernel_size + (channels, 4 * filters)`` and its
``recurrent_kernel`` ``kernel_size + (filters, 4 * filters)``, gates ``i, f, c, o`` in that order
(Keras's layout, so Keras weights load as they are). Inputs are convolved with ``strides``,
``padding`` and ``dilation_rate``; the hidden state with stride 1 and ``"same"`` padding.
"""

from companion._core._convert import as_input
from companion._ops._array import reshape, split, stack
from companion._ops._creation import zeros
from companion._ops._math import cast
from companion._ops._nn_conv import convolution
from companion._ops._select import where
from companion.keras import activations, constraints, initializers, regularizers
from companion.keras.layers._conv import (
    data_format_name,
    int_tuple,
    op_data_format,
    output_length,
    padding_name,
)
from companion.keras.layers._input_spec import InputSpec
from companion.keras.layers._layer import Layer
from companion.keras.layers._recurrent import forget_gate_ones
from companion.keras.layers._rnn_cells import RNN, set_weight_penalties
from companion.keras.random._seed_generator import keras_default_seed


class ConvLSTMCell(Layer):
    """One step of a ``rank``-D convolutional LSTM; returns ``(h, [h, c])`` (see the module docstring)."""

    def __init__(self, rank, filters, kernel_size, strides=1, padding="valid", data_format=None,
                 dilation_rate=1, activation="tanh", recurrent_activation="sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal",
                 bias_initializer="zeros", unit_forget_bias=True, kernel_regularizer=None,
                 recurrent_regularizer=None, bias_regularizer=None, kernel_constraint=None,
                 recurrent_constraint=None, bias_constraint=None, dropout=0.0, recurrent_dropout=0.0,
                 seed=None, **kwargs):
        super().__init__(**kwargs)
        if dropout or recurrent_dropout:
            raise NotImplementedError(
                "ConvLSTM: `dropout` and `recurrent_dropout` are not implemented in companion; pass 0.0 "
                "(or add a SpatialDropout layer before it). "
                f"Received: dropout={dropout!r}, recurrent_dropout={recurrent_dropout!r}")
        self.seed = seed
        keras_default_seed(seed)  # Keras's cell makes its seed generator before its initializers
        if rank not in (1, 2, 3):
            raise ValueError(f"Rank {rank} convolutions are not currently implemented. Received: rank={rank}")
        self.rank = rank
        if isinstance(filters, bool) or not isinstance(filters, int) or filters <= 0:
            raise ValueError(f"`filters` must be a positive integer. Received: filters={filters!r}")
        self.filters = filters
        self.kernel_size = int_tuple(kernel_size, rank, "kernel_size")
        self.strides = int_tuple(strides, rank, "strides")
        self.padding = padding_name(padding)
        self.data_format = data_format_name(data_format)
        self.dilation_rate = int_tuple(dilation_rate, rank, "dilation_rate")
        if max(self.strides) > 1 and max(self.dilation_rate) > 1:
            raise ValueError("Specifying `strides > 1` is not compatible with `dilation_rate > 1`. Please "
                             "provide `strides=1` or `dilation_rate=1`. "
                             f"Received: strides={self.strides} and dilation_rate={self.dilation_rate}")
        self.activation = activations.get(activation)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.use_bias = bool(use_bias)
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.recurrent_initializer = initializers.get(recurrent_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.unit_forget_bias = bool(unit_forget_bias)
        set_weight_penalties(self, kernel_regularizer, recurrent_regularizer, bias_regularizer,
                             kernel_constraint, recurrent_constraint, bias_constraint)
        self.dropout = self.recurrent_dropout = 0.0
        self.state_size = -1  # as Keras: the states' shapes come from the input's (get_initial_state)

    def build(self, input_shape):
        dims = tuple(input_shape)
        channel_axis = 1 if self.data_format == "channels_first" else -1
        self.spatial_dims = dims[2:] if self.data_format == "channels_first" else dims[1:-1]
        if None in self.spatial_dims:
            raise ValueError("ConvLSTM layers only support static input shapes for the spatial dimension. "
                             f"Received invalid input shape: input_shape={dims}")
        if dims[channel_axis] is None:
            raise ValueError("The channel dimension of the inputs (last axis) should be defined. Found None. "
                             f"Full input shape received: input_shape={dims}")
        self.input_dim = dims[channel_axis]
        width = 4 * self.filters
        self.kernel = self.add_weight(name="kernel", shape=self.kernel_size + (self.input_dim, width),
                                      initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer, constraint=self.kernel_constraint)
        self.recurrent_kernel = self.add_weight(
            name="recurrent_kernel", shape=self.kernel_size + (self.filters, width),
            initializer=self.recurrent_initializer, regularizer=self.recurrent_regularizer,
            constraint=self.recurrent_constraint)
        self.bias = None
        if self.use_bias:
            self.bias = self.add_weight(name="bias", shape=(width,), initializer=self._bias_initializer(),
                                        regularizer=self.bias_regularizer, constraint=self.bias_constraint)

    def _bias_initializer(self):
        return forget_gate_ones(self.bias_initializer, self.filters) if self.unit_forget_bias else \
            self.bias_initializer

    def _conv(self, x, kernel, strides, padding, dilations):
        return convolution(x, kernel, strides=list(strides), padding=padding.upper(),
                           data_format=op_data_format(self.data_format, self.rank), dilations=list(dilations))

    def call(self, inputs, states, training=False):
        h, c = as_input(states[0]), as_input(states[1])
        kernels = split(self.kernel, 4, axis=self.rank + 1)
        recurrent_kernels = split(self.recurrent_kernel, 4, axis=self.rank + 1)
        biases = split(self.bias, 4) if self.bias is not None else [None] * 4
        ones_rank = (1,) * self.rank
        gates = []
        for kernel, recurrent_kernel, bias in zip(kernels, recurrent_kernels, biases):
            x = self._conv(inputs, kernel, self.strides, self.padding, self.dilation_rate)
            if bias is not None:
                shape = (1, *ones_rank, self.filters) if self.data_format == "channels_last" else \
                    (1, self.filters, *ones_rank)
                x = x + reshape(bias, shape)
            gates.append(x + self._conv(h, recurrent_kernel, ones_rank, "same", ones_rank))
        x_i, x_f, x_c, x_o = gates
        i = self.recurrent_activation(x_i)
        f = self.recurrent_activation(x_f)
        c = f * c + i * self.activation(x_c)
        o = self.recurrent_activation(x_o)
        h = o * self.activation(c)
        return h, [h, c]

    def compute_output_shape(self, input_shape, states_shape=None):
        dims = tuple(input_shape)
        spatial = dims[2:] if self.data_format == "channels_first" else dims[1:-1]
        spatial = tuple(output_length(n, k, self.padding, s, d) for n, k, s, d in
                        zip(spatial, self.kernel_size, self.strides, self.dilation_rate))
        shape = (dims[0], self.filters, *spatial) if self.data_format == "channels_first" else \
            (dims[0], *spatial, self.filters)
        return shape, [shape, shape]

    def get_initial_state(self, batch_size=None):
        if self.data_format == "channels_last":
            input_shape = (batch_size, *self.spatial_dims, self.input_dim)
        else:
            input_shape = (batch_size, self.input_dim, *self.spatial_dims)
        shape = self.compute_output_shape(input_shape)[0]
        return [zeros(shape, self._dtype), zeros(shape, self._dtype)]

    def get_config(self):
        return {**super().get_config(), **_cell_config(self), "seed": self.seed}


def _cell_config(cell):
    return {"filters": cell.filters, "kernel_size": cell.kernel_size, "strides": cell.strides,
            "padding": cell.padding, "data_format": cell.data_format, "dilation_rate": cell.dilation_rate,
            "activation": activations.serialize(cell.activation),
            "recurrent_activation": activations.serialize(cell.recurrent_activation),
            "use_bias": cell.use_bias, "kernel_initializer": initializers.serialize(cell.kernel_initializer),
            "recurrent_initializer": initializers.serialize(cell.recurrent_initializer),
            "bias_initializer": initializers.serialize(cell.bias_initializer),
            "unit_forget_bias": cell.unit_forget_bias,
            "kernel_regularizer": regularizers.serialize(cell.kernel_regularizer),
            "recurrent_regularizer": regularizers.serialize(cell.recurrent_regularizer),
            "bias_regularizer": regularizers.serialize(cell.bias_regularizer)}


_CELL_PROPERTIES = ("filters", "kernel_size", "strides", "padding", "data_format", "dilation_rate",
                    "activation", "recurrent_activation", "use_bias", "kernel_initializer",
                    "recurrent_initializer", "bias_initializer", "unit_forget_bias", "kernel_regularizer",
                    "recurrent_regularizer", "bias_regularizer", "kernel_constraint", "recurrent_constraint",
                    "bias_constraint", "dropout", "recurrent_dropout")


class _ConvLSTM(RNN):
    """A ``rank``-D convolutional LSTM over ``(batch, steps, *spatial, channels)`` sequences."""

    rank = 2

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None, dilation_rate=1,
                 activation="tanh", recurrent_activation="sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal",
                 bias_initializer="zeros", unit_forget_bias=True, kernel_regularizer=None,
                 recurrent_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, recurrent_constraint=None, bias_constraint=None, dropout=0.0,
                 recurrent_dropout=0.0, seed=None, return_sequences=False, return_state=False,
                 go_backwards=False, stateful=False, **kwargs):
        cell = ConvLSTMCell(
            rank=self.rank, filters=filters, kernel_size=kernel_size, strides=strides, padding=padding,
            data_format=data_format, dilation_rate=dilation_rate, activation=activation,
            recurrent_activation=recurrent_activation, use_bias=use_bias,
            kernel_initializer=kernel_initializer, recurrent_initializer=recurrent_initializer,
            bias_initializer=bias_initializer, unit_forget_bias=unit_forget_bias,
            kernel_regularizer=kernel_regularizer, recurrent_regularizer=recurrent_regularizer,
            bias_regularizer=bias_regularizer, kernel_constraint=kernel_constraint,
            recurrent_constraint=recurrent_constraint, bias_constraint=bias_constraint, dropout=dropout,
            recurrent_dropout=recurrent_dropout, seed=seed, name="conv_lstm_cell", dtype=kwargs.get("dtype"))
        super().__init__(cell, return_sequences=return_sequences, return_state=return_state,
                         go_backwards=go_backwards, stateful=stateful,
                         activity_regularizer=activity_regularizer, **kwargs)
        self.input_spec = InputSpec(ndim=self.rank + 3)

    def build(self, input_shape):
        shape = tuple(input_shape)
        if len(shape) != self.rank + 3:
            raise ValueError(f"{type(self).__name__} expects {self.rank + 3}-D inputs (batch, steps, "
                             f"{self.rank} spatial axes, channels). Received: input_shape={shape}")
        if not self.cell.built:
            self.cell.build((shape[0],) + shape[2:])

    def call(self, inputs, mask=None, training=None, initial_state=None):
        inputs = as_input(inputs)
        batch, steps = inputs.shape[0], inputs.shape[1]
        if steps is None:
            raise ValueError(f"{type(self).__name__} needs a known number of steps. "
                             f"Received: input shape {tuple(inputs.shape)}")
        states = self.cell.get_initial_state(batch) if initial_state is None else list(initial_state)
        keep = None if mask is None else cast(as_input(mask), "bool")
        order = range(steps - 1, -1, -1) if self.go_backwards else range(steps)
        outputs, last = [], None
        for t in order:
            output, new_states = self.cell(inputs[:, t], states, training=training)
            new_states = list(new_states)
            if keep is not None:  # a masked step keeps the states and repeats the last output
                kept = reshape(keep[:, t], (-1,) + (1,) * (self.rank + 1))
                new_states = [where(kept, n, as_input(o)) for n, o in zip(new_states, states)]
                fresh = last is None or self.zero_output_for_mask
                held = zeros(output.shape, output.dtype) if fresh else last
                output = where(kept, output, held)
            states, last = new_states, output
            outputs.append(output)
        result = stack(outputs, axis=1) if self.return_sequences else last
        return (result, *states) if self.return_state else result  # a tuple, as Keras 3

    def compute_output_shape(self, input_shape, initial_state_shape=None):
        dims = tuple(input_shape)
        batch, steps = dims[0], dims[1]
        state_shape = tuple(self.cell.compute_output_shape((batch,) + dims[2:])[0][1:])
        output_shape = (batch, steps, *state_shape) if self.return_sequences else (batch, *state_shape)
        if self.return_state:
            return output_shape, (batch, *state_shape), (batch, *state_shape)
        return output_shape

    def compute_mask(self, inputs, mask=None):
        if isinstance(mask, (list, tuple)):
            mask = mask[0]
        output_mask = mask if self.return_sequences else None
        return [output_mask, None, None] if self.return_state else output_mask

    def get_config(self):
        config = {**super().get_config(), **_cell_config(self.cell),
                  "activity_regularizer": regularizers.serialize(self.activity_regularizer),
                  "kernel_constraint": constraints.serialize(self.cell.kernel_constraint),
                  "recurrent_constraint": constraints.serialize(self.cell.recurrent_constraint),
                  "bias_constraint": constraints.serialize(self.cell.bias_constraint),
                  "dropout": self.cell.dropout, "recurrent_dropout": self.cell.recurrent_dropout,
                  "seed": self.cell.seed}
        del config["cell"]
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        return cls(**config)


for _name in _CELL_PROPERTIES:
    setattr(_ConvLSTM, _name, property(lambda self, _name=_name: getattr(self.cell, _name)))


class ConvLSTM1D(_ConvLSTM):
    """A convolutional LSTM over sequences of 1-D inputs ``(batch, steps, length, channels)``.

    Example:
        >>> import companion as tf
        >>> tf.keras.layers.ConvLSTM1D(4, 3, padding="same")(tf.ones([2, 5, 8, 3])).shape
        TensorShape([2, 8, 4])
    """

    rank = 1


class ConvLSTM2D(_ConvLSTM):
    """A convolutional LSTM (Shi et al. 2015) over image sequences ``(batch, steps, rows, cols, channels)``.

    ``return_sequences=True`` returns every step's ``h``; ``return_state=True`` adds the last
    ``h`` and ``c``. ``dropout`` and ``recurrent_dropout`` are not implemented (NotImplementedError).

    Example:
        >>> import companion as tf
        >>> layer = tf.keras.layers.ConvLSTM2D(4, 3, return_sequences=True)
        >>> layer(tf.ones([2, 5, 8, 8, 3])).shape
        TensorShape([2, 5, 6, 6, 4])
        >>> layer.cell.kernel.shape
        TensorShape([3, 3, 3, 16])
    """


class ConvLSTM3D(_ConvLSTM):
    """A convolutional LSTM over sequences of volumes ``(batch, steps, depth, rows, cols, channels)``.

    Example:
        >>> import companion as tf
        >>> tf.keras.layers.ConvLSTM3D(2, 2)(tf.ones([1, 3, 4, 4, 4, 1])).shape
        TensorShape([1, 3, 3, 3, 2])
    """

    rank = 3
