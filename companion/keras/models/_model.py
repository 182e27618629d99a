"""`Model`: a Layer that trains (compile/fit), built by subclassing or from functional inputs/outputs."""

import os

from companion.keras import _weights_file
from companion.keras._functional._config import (
    functional_config,
    functional_from_config,
    is_functional_config,
)
from companion.keras._functional._graph import Graph
from companion.keras._functional._keras_tensor import KerasTensor
from companion.keras.layers._input_spec import InputSpec
from companion.keras.layers._layer import Layer
from companion.keras.layers._naming import unique_name
from companion.keras.layers._tracking import map_structure
from companion.keras.models._summary import print_summary
from companion.keras.models._training import Trainer
from companion.keras.saving._keras_file import model_to_json, save_model


class Model(Trainer, Layer):
    """A model, TensorFlow's ``tf.keras.Model``: layers plus training (`compile`, `fit`, ...).

    Build one of two ways:

    - functional: ``Model(inputs, outputs)`` where ``inputs`` come from `keras.Input` and
      ``outputs`` from layers called on them (lists or dicts for several; layers may be
      shared, and models may be called as layers);
    - subclassing: define layers in ``__init__`` (after ``super().__init__()``) and the
      forward pass in ``call(inputs, training=None)``.

    Example:
        >>> import companion as tf
        >>> inputs = tf.keras.Input(shape=(3,))
        >>> outputs = tf.keras.layers.Dense(2, kernel_initializer="ones")(inputs)
        >>> model = tf.keras.Model(inputs, outputs)
        >>> model(tf.ones([1, 3])).numpy()
        array([[3., 3.]], dtype=float32)
        >>> model.count_params()
        8
    """

    def __init__(self, *args, **kwargs):
        inputs = kwargs.pop("inputs", args[0] if args else None)
        outputs = kwargs.pop("outputs", args[1] if len(args) > 1 else None)
        if len(args) > 2:
            raise TypeError(f"Model takes at most (inputs, outputs) positionally. Received {len(args)} "
                            "positional arguments.")
        if type(self) is Model and (inputs is not None or outputs is not None) and kwargs.get("name") is None:
            kwargs["name"] = unique_name("Functional")  # Keras 3: functional, functional_1, ...
        super().__init__(**kwargs)
        self._graph = None
        self._init_trainer()
        if inputs is not None or outputs is not None:
            self._init_graph(inputs, outputs)

    def _init_graph(self, inputs, outputs):
        if inputs is None or outputs is None:
            raise ValueError(f"A functional Model needs both `inputs` and `outputs`. Received: "
                             f"inputs={inputs!r}, outputs={outputs!r}")
        self._graph = Graph(inputs, outputs, self.name)
        self._graph_layers = list(self._graph.layers)  # tracked: the model's weights are theirs
        self._build_input_shape = map_structure(lambda kt: kt.shape, inputs)
        if not isinstance(inputs, dict):  # Keras 3 checks each input against its Input's shape
            self.input_spec = [_input_spec(kt) for kt in self._graph.flat_inputs]
        self.built = True

    # -- calling ----------------------------------------------------------------------------
    def call(self, inputs, training=None, mask=None, **kwargs):
        """The forward pass; a functional model replays its layer graph."""
        if self._graph is None:
            raise NotImplementedError(f"Model {self.name!r} has no call(): subclass Model and define "
                                      "call(self, inputs, training=None), or build a functional model "
                                      "with Model(inputs, outputs).")
        return self._graph.run(inputs, self.name)

    def build(self, input_shape):
        """Marks a subclassed model built, as Keras 3 does: its layers are not built (no weights)
        until the first call, and a UserWarning says so. A functional model is built already.
        Loading a saved model builds it by running it (`build_from_config`)."""
        if self._graph is not None:
            return
        Layer.build(self, input_shape)

    build._is_default = True

    def build_from_config(self, config):
        """Builds the model from a saved ``build_config``: a subclassed model without a `build` of
        its own runs on symbolic inputs of the saved shape, which builds its layers (Keras 3)."""
        shape = (config or {}).get("input_shape")
        if shape is None:
            return
        if self._graph is None and type(self).build is Model.build:
            self.built = True  # the symbolic call below must not come back here
            self._build_input_shape = shape
            self(_placeholders(shape))
            return
        self.build(shape)

    # -- structure ----------------------------------------------------------------------------
    @property
    def layers(self):
        """The model's layers (a functional model's InputLayers first)."""
        if self._graph is not None:
            # Keras 3: the ops on KerasTensors (``x + 1``) are in the graph and the summary, not here
            return [layer for layer in self._graph.layers if not getattr(layer, "_is_operation", False)]
        return list(self._sublayers())

    def get_layer(self, name=None, index=None):
        """The layer called ``name`` (or at position ``index`` in `layers`)."""
        layers = self.layers
        if index is not None and name is not None:
            raise ValueError(f"Provide only a layer name or a layer index. Received: index={index}, "
                             f"name={name}.")
        if index is not None:
            if not -len(layers) <= index < len(layers):
                raise ValueError(f"Was asked to retrieve layer at index {index} but model only has "
                                 f"{len(layers)} layers.")
            return layers[index]
        if name is None:
            raise ValueError("Provide either a layer name or layer index at `get_layer`.")
        for layer in layers:
            if layer.name == name:
                return layer
        raise ValueError(f"No such layer: {name}. Existing layers are: {[layer.name for layer in layers]}.")

    @property
    def inputs(self):
        return None if self._graph is None else self._graph.flat_inputs

    @property
    def outputs(self):
        return None if self._graph is None else self._graph.flat_outputs

    @property
    def input(self):
        """A functional model's input structure (one `KerasTensor`, or a list/dict of them)."""
        return self._graph.inputs if self._graph is not None else Layer.input.fget(self)

    @property
    def output(self):
        """A functional model's output structure (one `KerasTensor`, or a list/dict of them)."""
        return self._graph.outputs if self._graph is not None else Layer.output.fget(self)

    @property
    def input_shape(self):
        """The input's shape (batch axis first, ``None`` where unknown): a tuple, or a list
        of tuples for several inputs. Subclassed models have none (AttributeError, as Keras 3)."""
        return self._graph_shapes("input", lambda graph: graph.inputs)

    @property
    def output_shape(self):
        """The output's shape, like `input_shape`."""
        return self._graph_shapes("output", lambda graph: graph.outputs)

    def _graph_shapes(self, what, pick):
        if self._graph is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute '{what}_shape': a "
                                 f"subclassed model has no defined {what} shape (Keras 3). Call it on data "
                                 f"and look at the {what}'s .shape instead.")
        structure = pick(self._graph)
        if getattr(structure, "_is_keras_tensor", False):
            return tuple(structure.shape.as_list())
        flat = list(structure.values()) if isinstance(structure, dict) else list(structure)
        return [tuple(kt.shape.as_list()) for kt in flat]

    @property
    def input_names(self):
        return [] if self._graph is None else list(self._graph.input_names)

    @property
    def output_names(self):
        return self._output_names()

    def _output_names(self):
        if self._graph is None:
            return ["output_1"]
        if isinstance(self._graph.outputs, dict):
            return list(self._graph.outputs)
        return list(self._graph.output_names)

    def summary(self, line_length=None, positions=None, print_fn=None, expand_nested=False,
                show_trainable=False, layer_range=None):
        """Prints Keras 3's layer table (names and types, output shapes, parameter counts), then
        the parameter totals; ``print_fn``, when given, receives the whole text at once."""
        print_summary(self, line_length, positions, print_fn, expand_nested=expand_nested,
                      show_trainable=show_trainable, layer_range=layer_range)

    def _display_class_name(self):
        # Keras 3's Model(inputs, outputs) is an instance of its Functional class
        return "Functional" if type(self) is Model and self._graph is not None else type(self).__name__

    # -- configs and saving ---------------------------------------------------------------------
    def get_build_config(self):
        """A functional model's is ``{"input_shape": None}`` (its Input layers rebuild it), as Keras 3's;
        a subclassed model's is the shape it was built for, or None before it is built."""
        if self._graph is not None:
            return {"input_shape": None}
        return super().get_build_config()

    def get_config(self):
        """A functional model's layers and connections (Keras 3's layout); a subclassed model's
        constructor arguments (override it to add your own)."""
        if self._graph is not None:
            return functional_config(self)
        return super().get_config()

    def _keras_identity(self):
        """Keras 3's ``module``/``class_name``/``registered_name`` for the model in `layers.serialize`:
        ``Model(inputs, outputs)`` is an instance of its (private) Functional class."""
        if type(self) is Model and self._graph is not None:
            return {"module": "keras.src.models.functional", "class_name": "Functional",
                    "registered_name": "Functional"}
        return {"module": "keras"}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """A new model from `get_config`'s dict (fresh weights)."""
        if is_functional_config(config):
            return functional_from_config(cls, config, custom_objects)
        return cls(**config)

    def to_json(self, **kwargs):
        """The model's config, with its build and compile configs, as a JSON string (Keras 3's);
        `keras.models.model_from_json` makes a new model from it."""
        return model_to_json(self, **kwargs)

    def save(self, filepath, overwrite=True, zipped=None, **kwargs):
        """Writes the whole model to a ``.keras`` file (see `keras.models.save_model`)."""
        save_model(self, filepath, overwrite=overwrite, **kwargs)

    # -- weights files ------------------------------------------------------------------------
    def save_weights(self, filepath, overwrite=True, save_format=None, options=None):
        """Writes every weight to ``filepath``, which must end in ``.weights.h5`` as in Keras 3
        (the file holds companion's format: see `companion.keras` weights files)."""
        filepath = os.fspath(filepath)
        if not filepath.endswith(".weights.h5"):
            raise ValueError(f"The filename must end in `.weights.h5`. Received: filepath={filepath}")
        _weights_file.save_weights(self, filepath)

    def load_weights(self, filepath, skip_mismatch=False, by_name=False, options=None):
        """Reads weights written by `save_weights` into this model (same architecture).

        Raises:
            ValueError: ``filepath`` is not a ``.weights.h5``/``.h5``/``.keras`` file (Keras 3's rule).
            FileNotFoundError: there is no such file (h5py's message, as Keras 3 reports it).
        """
        filepath = os.fspath(filepath)
        if not filepath.endswith((".keras", ".h5")):
            raise ValueError(f"File format not supported: filepath={filepath}. Keras 3 only supports V3 "
                             "`.keras` files, `.weights.h5` files, legacy H5 format files (`.h5` extension), "
                             "or Orbax checkpoints.")
        if filepath.endswith(".h5") and not any(os.path.exists(f) for f in (filepath, filepath + ".npz")):
            raise FileNotFoundError(f"[Errno 2] Unable to synchronously open file (unable to open file: "
                                    f"name = '{filepath}', errno = 2, error message = 'No such file or "
                                    "directory', flags = 0, o_flags = 0)")
        return _weights_file.load_weights(self, filepath, skip_mismatch=skip_mismatch)



def _placeholders(input_shape):
    def one(shape):
        return KerasTensor(tuple(shape))

    if isinstance(input_shape, dict):
        return {k: one(v) for k, v in input_shape.items()}
    if isinstance(input_shape, list) and input_shape and isinstance(input_shape[0], (list, tuple)):
        return [one(s) for s in input_shape]
    return one(input_shape)


def _input_spec(keras_tensor):
    """What a functional model accepts for ``keras_tensor``: its shape, any batch size, and a
    size-1 last axis present or not (Keras 3's ``Functional.input_spec``)."""
    dims = keras_tensor.shape.as_list()
    return InputSpec(shape=(None, *dims[1:]) if dims else (), allow_last_axis_squeeze=True,
                     name=keras_tensor.node.layer.name)
