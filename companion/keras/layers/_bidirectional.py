"""`Bidirectional`: a recurrent layer run forwards and backwards over the sequence, outputs merged."""

from companion._ops._array import concat, reverse
from companion.keras.layers._layer import Layer
from companion.keras.layers._recurrent import _RNN
from companion.keras.layers._serialization import deserialize, serialize

_MERGES = ("sum", "mul", "ave", "concat", None)


class Bidirectional(Layer):
    """Runs a copy of ``layer`` forwards and another backwards over the steps, then merges them.

    Args:
        layer: a `SimpleRNN`, `LSTM` or `GRU` (its copies are named ``forward_<name>`` and
            ``backward_<name>``; the backward one reads the steps in reverse).
        merge_mode: ``"concat"`` (default: features side by side), ``"sum"``, ``"mul"``, ``"ave"``, or
            None (a list ``[forward, backward]``).
        backward_layer: an explicit backward layer (``go_backwards=True``), else a copy of ``layer``.

    With ``return_sequences`` the backward outputs are put back in the forward order and masked steps
    output 0, as in Keras; with ``return_state`` the result is ``(output(s), *forward_states,
    *backward_states)``.

    Example:
        >>> import companion as tf
        >>> layer = tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(3, return_sequences=True))
        >>> layer(tf.ones([2, 4, 5])).shape
        TensorShape([2, 4, 6])
    """

    def __init__(self, layer, merge_mode="concat", weights=None, backward_layer=None, **kwargs):
        if not isinstance(layer, _RNN):
            raise ValueError("Bidirectional wraps a recurrent layer (SimpleRNN, LSTM or GRU). Received: "
                             f"layer={layer!r}")
        if merge_mode not in _MERGES:
            raise ValueError(f"`merge_mode` must be one of {list(_MERGES)}. "
                             f"Received: merge_mode={merge_mode!r}")
        super().__init__(**kwargs)
        config = layer.get_config()
        name = f"forward_{layer.name.removeprefix('forward_')}"  # a deserialized config has the prefix
        self.forward_layer = type(layer).from_config({**config, "name": name})
        if backward_layer is None:
            backward_layer = type(layer).from_config({**config, "name": f"backward_{layer.name}",
                                                      "go_backwards": not layer.go_backwards})
        elif backward_layer.go_backwards == layer.go_backwards:
            raise ValueError("`backward_layer` must read the steps in the other direction than `layer`: set "
                             f"go_backwards={not layer.go_backwards}. Received: {backward_layer!r}")
        self.backward_layer = backward_layer
        for wrapped in (self.forward_layer, self.backward_layer):
            wrapped.zero_output_for_mask = wrapped.return_sequences
        self.merge_mode = merge_mode
        self.return_sequences, self.return_state = layer.return_sequences, layer.return_state
        self.supports_masking = True
        self._initial_weights = None if weights is None else list(weights)

    def build(self, input_shape):
        self.forward_layer.build(input_shape)
        self.backward_layer.build(input_shape)
        if self._initial_weights is not None:  # forward's, then backward's
            self.set_weights(self._initial_weights)
            self._initial_weights = None

    def call(self, inputs, mask=None, training=None, initial_state=None):
        forward_states = backward_states = None
        if initial_state is not None:
            half = len(initial_state) // 2
            forward_states, backward_states = initial_state[:half], initial_state[half:]
        forward = self.forward_layer(inputs, mask=mask, initial_state=forward_states)
        backward = self.backward_layer(inputs, mask=mask, initial_state=backward_states)
        states = []
        if self.return_state:
            forward, states = forward[0], list(forward[1:]) + list(backward[1:])
            backward = backward[0]
        if self.return_sequences:
            backward = reverse(backward, [1])
        merged = self._merge(forward, backward)
        if not self.return_state:
            return merged
        return tuple((merged if isinstance(merged, list) else [merged]) + states)  # a tuple, as Keras 3

    def _merge(self, forward, backward):
        if self.merge_mode == "concat":
            return concat([forward, backward], -1)
        if self.merge_mode == "sum":
            return forward + backward
        if self.merge_mode == "ave":
            return (forward + backward) / 2
        if self.merge_mode == "mul":
            return forward * backward
        return [forward, backward]

    def compute_mask(self, inputs, mask=None):
        output_mask = mask if self.return_sequences else None
        masks = [output_mask, output_mask] if self.merge_mode is None else [output_mask]
        if self.return_state:
            return masks + [None] * (2 * self.forward_layer._state_count)
        return masks if self.merge_mode is None else output_mask

    def compute_output_shape(self, input_shape):
        shape = self.forward_layer.compute_output_shape(input_shape)
        output, states = (shape[0], shape[1:]) if self.return_state else (shape, [])
        if self.merge_mode == "concat":
            output = tuple(output[:-1]) + (output[-1] * 2,)
        outputs = [output, output] if self.merge_mode is None else [output]
        if self.return_state:
            return outputs + list(states) * 2
        return outputs if self.merge_mode is None else output

    def get_config(self):
        return {**super().get_config(), "merge_mode": self.merge_mode,
                "layer": serialize(self.forward_layer),  # named forward_<name>, as Keras 3's
                "backward_layer": serialize(self.backward_layer)}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        layer = deserialize(config.pop("layer"), custom_objects)
        backward = config.pop("backward_layer", None)
        backward = None if backward is None else deserialize(backward, custom_objects)
        return cls(layer, backward_layer=backward, **config)
