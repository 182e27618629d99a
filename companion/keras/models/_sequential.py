"""`Sequential`: a Model that is a plain stack of layers, each feeding the next."""

from companion._core._shape import TensorShape
from companion.keras._functional._graph import conform
from companion.keras._functional._input_layer import InputLayer
from companion.keras.backend._name_scope import name_scope
from companion.keras.layers import deserialize, serialize
from companion.keras.layers._layer import Layer, plain_shape
from companion.keras.layers._naming import unique_name
from companion.keras.models._model import Model


class Sequential(Model):
    """A linear stack of layers, TensorFlow's ``tf.keras.Sequential``.

    Pass the layers as a list or `add` them one by one. When the input shape is known (a
    `keras.Input` first, or Keras 2's ``input_shape=`` on the first layer, which warns) the model
    is built as layers are added, so `summary` works at once; otherwise it builds on its first call.

    Example:
        >>> import companion as tf
        >>> model = tf.keras.Sequential([
        ...     tf.keras.Input(shape=(28, 28)),
        ...     tf.keras.layers.Flatten(),
        ...     tf.keras.layers.Dense(128, activation="relu"),
        ...     tf.keras.layers.Dense(10)])
        >>> model.output_shape, model.count_params()
        ((None, 10), 101770)
    """

    def __init__(self, layers=None, name=None, trainable=True, **kwargs):
        super().__init__(name=name, trainable=trainable, **kwargs)
        self._stack = []
        self._input = None  # the KerasTensor the stack is built from, once the shape is known
        self._output = None
        self._layer_outputs = []
        for layer in layers or []:
            self.add(layer, rebuild=False)
        self._rebuild()

    def add(self, layer, rebuild=True):
        """Appends ``layer`` (a `keras.Input` tensor or InputLayer sets the input shape); with
        ``rebuild=False`` the model is not built again until the next `add` or call."""
        if getattr(layer, "_is_keras_tensor", False) and layer.node is not None and layer.node.is_input:
            return self._set_input(layer)
        if isinstance(layer, InputLayer):
            return self._set_input(layer.output)
        if not isinstance(layer, Layer):
            raise TypeError("Sequential.add expects a keras Layer (or keras.Input). Received: "
                            f"{layer!r} of type {type(layer).__name__}.")
        if any(existing is layer for existing in self._stack):
            raise ValueError(f"Layer {layer.name!r} is already in Sequential model {self.name!r}; a "
                             "layer can appear only once in a Sequential model.")
        if not self._stack and self._input is None and layer._batch_input_shape is not None:
            self._input = InputLayer(batch_shape=layer._batch_input_shape,
                                     dtype=layer.dtype).output
            self._output = self._input
        self._stack.append(layer)
        if self._output is not None and rebuild and len(self._layer_outputs) == len(self._stack) - 1:
            with name_scope(self.name, caller=self):  # Keras 3 builds the stack in the model's scope
                self._output = layer(self._output)
            self._layer_outputs.append(self._output)
            self.built = True
            # Keras 3 rebuilds its whole stack as a new Functional on each add: the same names are
            # used up (functional_N, one keras_tensor per earlier layer) without calling them again
            unique_name("Functional")
            for _ in range(len(self._stack) - 1):
                unique_name("KerasTensor")
        elif rebuild:
            self._rebuild()
        return None

    def pop(self):
        """Removes the last layer."""
        if not self._stack:
            raise TypeError(f"There are no layers in Sequential model {self.name!r} to pop.")
        layer = self._stack.pop()
        self._rebuild()
        return layer

    def _set_input(self, tensor):
        if self._stack:
            raise ValueError(f"Sequential model {self.name!r}: an Input must come before the layers. "
                             f"Received an Input after {[layer.name for layer in self._stack]}.")
        self._input = self._output = tensor

    def _rebuild(self):
        if self._input is None:
            return
        self._output, self._layer_outputs = self._input, []
        if not self._stack:
            return
        unique_name("Functional")  # Keras 3's Sequential holds a Functional, named like any other
        self.built = True
        with name_scope(self.name, caller=self):
            for layer in self._stack:
                self._output = layer(self._output)
                self._layer_outputs.append(self._output)

    @property
    def layers(self):
        return list(self._stack)

    def call(self, inputs, training=None, mask=None, **kwargs):
        outputs = inputs if self._input is None else conform(inputs, self._input)
        for layer in self._stack:
            outputs = layer(outputs)
        return outputs

    def build(self, input_shape=None):
        """Builds the stack for inputs of ``input_shape`` (batch axis first, may be None)."""
        if input_shape is None:  # Keras 3: builds from its Input if it has one, else stays unbuilt
            return
        if self._input is None or tuple(self._input.shape.as_list()) != tuple(input_shape):
            self._input = InputLayer(batch_shape=tuple(input_shape)).output
            self._rebuild()

    def compute_output_shape(self, input_shape):
        """The last layer's output shape for ``input_shape``: the built stack's own when it was built
        for that shape, else each layer's `compute_output_shape` in turn."""
        shape = tuple(TensorShape(input_shape).as_list())
        if self._output is not None and tuple(self._input.shape.as_list()) == shape:
            return self._output.shape
        for layer in self._stack:
            shape = layer.compute_output_shape(shape)
        return shape

    def _maybe_build(self, inputs):
        if self.built:
            return
        shape = getattr(inputs, "shape", None)
        if shape is not None and self._stack:  # Keras 3 keeps the first batch's size in the shapes
            self.build(tuple(shape))
        self.built = True

    @property
    def inputs(self):
        return None if self._input is None else [self._input]

    @property
    def outputs(self):
        return None if self._output is None else [self._output]

    @property
    def input(self):
        """The stack's input `KerasTensor` once its shape is known (Keras 2 gave it; Keras 3.15
        raises AttributeError here, kept as a convenience for feature-extraction models)."""
        return self._input if self._input is not None else Layer.input.fget(self)

    @property
    def output(self):
        """The last layer's output `KerasTensor` once the input shape is known."""
        return self._output if self._output is not None else Layer.output.fget(self)

    @property
    def input_shape(self):
        return self._built_shape(self._input, "input")

    @property
    def output_shape(self):
        return self._built_shape(self._output, "output")

    def _built_shape(self, tensor, what):
        if tensor is None:
            raise AttributeError(f"Sequential model {self.name!r} has no defined {what} shape yet: "
                                 "it is not built. Call it on data, or give an Input.")
        return tuple(tensor.shape.as_list())

    def _output_names(self):
        return [self._stack[-1].name] if self._stack else ["output_1"]

    def layer_output_shapes(self):
        """Each layer's output shape (None when unbuilt), for `summary`."""
        if self._output is None:
            return [None] * len(self._stack)
        return [tuple(t.shape.as_list()) for t in self._layer_outputs]

    def get_build_config(self):
        """``{"input_shape": ...}``: the shape the model was built for, else its ``Input``'s; None
        before either (Keras 3's)."""
        shape = self._build_input_shape
        if shape is None and self._input is not None:
            shape = self._input.shape
        return None if shape is None else {"input_shape": plain_shape(shape)}

    def get_config(self):
        """Keras 3's config: name, trainable, dtype, ``layers`` (the InputLayer first once the input
        shape is known) and ``build_input_shape``."""
        config = {**Layer.get_config(self), "layers": [serialize(layer) for layer in self._stack]}
        if self._input is not None:
            config["layers"].insert(0, serialize(self._input.node.layer))
            config["build_input_shape"] = tuple(self._input.shape.as_list())
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """A new model from `get_config`'s dict; also reads configs written without the InputLayer
        entry (the shape then comes from ``build_input_shape``)."""
        model = cls(name=config.get("name"), trainable=config.get("trainable", True))
        layers = [deserialize(entry, custom_objects=custom_objects) for entry in config["layers"]]
        shape = config.get("build_input_shape")
        if shape is not None and not (layers and isinstance(layers[0], InputLayer)):
            model.add(InputLayer(batch_shape=shape))
        for layer in layers:
            model.add(layer)
        return model
