"""`Layer`: the Keras layer base class (build on first call, weights, tracking, losses, configs)."""

import functools
import warnings

import numpy as np

from companion._core import _dtypes
from companion._core._context import state
from companion._core._convert import as_input
from companion._core._shape import TensorShape
from companion._core._tensor import Tensor
from companion._module import Module
from companion._ops._math import cast
from companion.keras import _dtype_policy as _policies
from companion.keras import constraints, initializers, regularizers
from companion.keras._functional._keras_tensor import is_symbolic
from companion.keras._functional._symbolic import symbolic_call
from companion.keras.backend._name_scope import name_scope
from companion.keras.backend._variable import KerasVariable
from companion.keras.layers._call_context import CallContext, call_parameters
from companion.keras.layers._call_errors import call_reporting_arguments, symbolic_call_reporting_arguments
from companion.keras.layers._keras_mask import get_keras_mask, set_keras_mask
from companion.keras.layers._naming import unique_name
from companion.keras.layers._tracking import collect, containers_unchanged, map_structure, unique
from companion.train import _deferred

_ALLOWED_KWARGS = {"input_dim", "input_shape", "batch_input_shape", "batch_size",
                   "activity_regularizer", "autocast", "dynamic"}
_INPUT_SHAPE_ARG_WARNING = (
    "Do not pass an `input_shape`/`input_dim` argument to a layer. When using Sequential models, "
    "prefer using an `Input(shape)` object as the first layer in the model instead.")
_UNTRACKED = {"_call_losses", "_own_weights", "_regularized", "_build_input_shape", "input_spec",
              "_tracking_cache", "_batch_cursor", "_metrics_cache"}


class Layer(Module):
    """Base class of Keras layers, TensorFlow's ``tf.keras.layers.Layer``.

    A subclass validates and stores its configuration in ``__init__``, creates weights in
    ``build(input_shape)`` with `add_weight` (called once, on the first call, with the
    input's shape), computes in ``call(inputs, training=None)`` and returns its
    constructor arguments from ``get_config``. Layers and Variables assigned as attributes
    (also inside lists, tuples and dicts) are tracked: their weights and losses are the
    layer's. ``training`` given to a call reaches the calls of nested layers. A layer is a
    `companion.Module` (``name_scope``, ``with_name_scope``), as in TensorFlow.

    Example:
        >>> import companion as tf
        >>> class Scale(tf.keras.layers.Layer):
        ...     def build(self, input_shape):
        ...         self.w = self.add_weight(name="w", shape=(input_shape[-1],), initializer="ones")
        ...     def call(self, inputs):
        ...         return inputs * self.w
        >>> layer = Scale(name="scale")
        >>> layer(tf.constant([[1.0, 2.0]])).numpy()
        array([[1., 2.]], dtype=float32)
        >>> [(w.name, w.path) for w in layer.weights]
        [('w', 'scale/w')]
    """

    _is_layer = True
    # True for the weightless layers Keras 3 builds in __init__ (`built` is True at once, a call
    # never builds them, so they have no build_config); a subclass that defines `build` is not.
    _built_at_init = False

    def __init__(self, trainable=True, name=None, dtype=None, **kwargs):
        unknown = set(kwargs) - _ALLOWED_KWARGS
        if unknown:
            raise TypeError(f"Keyword argument(s) not understood by {type(self).__name__}: "
                            f"{sorted(unknown)}. Allowed: {sorted(_ALLOWED_KWARGS)}.")
        self._trainable = bool(trainable)
        self._name = name if name is not None else unique_name(type(self).__name__)
        self._set_dtype_policy(dtype)
        self._own_weights = []
        self._regularized = []  # (variable, regularizer)
        self._call_losses = []
        self._build_input_shape = None
        self._batch_input_shape = _batch_input_shape(kwargs)
        if kwargs.get("input_shape") is not None or kwargs.get("input_dim") is not None:
            warnings.warn(_INPUT_SHAPE_ARG_WARNING, stacklevel=2)  # at the subclass's super().__init__
        self._autocast = kwargs.get("autocast", True)
        self.activity_regularizer = regularizers.get(kwargs.get("activity_regularizer"))
        self.input_spec = None
        self.built = self._built_at_init and _is_default_build(self)
        self.supports_masking = type(self).compute_mask is not Layer.compute_mask

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "build" in cls.__dict__:
            cls.build = _marking_built(cls.__dict__["build"])

    # -- the layer contract -----------------------------------------------------------------
    def build(self, input_shape):
        """Creates the weights for inputs of ``input_shape``; the default creates none.

        As in Keras 3 the default builds no sublayer either: called by hand on a layer whose
        sublayers are unbuilt, it marks the layer built and warns (a UserWarning) that they
        build on the first call only.
        """
        if _is_default_build(self) and any(not layer.built for layer in self._sublayers()):
            warnings.warn(f"`build()` was called on layer {self.name!r}, which has no `build()` of its "
                          "own and holds unbuilt layers: they stay unbuilt (no weights) until the "
                          "layer is first called. Define `build()` to create them.", stacklevel=2)
        self._build_input_shape = input_shape
        self.built = True

    build._is_default = True

    def get_build_config(self):
        """``{"input_shape": ...}``, the shape the layer was built for, or None (unbuilt, or built
        without a shape: the weightless layers Keras 3 builds in ``__init__`` until `build` is called)."""
        if not self.built or self._build_input_shape is None:
            return None
        return {"input_shape": plain_shape(self._build_input_shape)}

    def build_from_config(self, config):
        """Builds the layer from a saved ``build_config`` dict (``{"input_shape": ...}``), as loading does."""
        if config and config.get("input_shape") is not None:
            self.build(config["input_shape"])

    def call(self, inputs, *args, **kwargs):
        """The computation; the default returns ``inputs`` unchanged."""
        return inputs

    def get_config(self):
        """The constructor arguments, a dict that `from_config` turns back into a layer."""
        config = {"name": self.name, "trainable": self.trainable,
                  "dtype": _policies.serialize(self._dtype_policy)}  # Keras 3: the policy's config
        if self.activity_regularizer is not None:  # Keras 3 keeps it here, after the dtype
            config["activity_regularizer"] = regularizers.serialize(self.activity_regularizer)
        return config  # Keras 3 keeps no input shape here: a Sequential lists its InputLayer instead

    @classmethod
    def from_config(cls, config):
        """A new layer from `get_config`'s dict."""
        return cls(**config)

    def compute_output_shape(self, input_shape):
        """The output shape for ``input_shape``; layers that change shapes override this."""
        return input_shape

    def compute_mask(self, inputs, mask=None):
        """The mask of the outputs; the default passes the input's mask on (Keras 3)."""
        return mask

    # -- the functional API's view: the symbolic call that made this layer part of a model ----
    @property
    def input(self):
        """The symbolic input of this layer's first call on symbolic tensors (Keras 3)."""
        return self._first_call("input")

    @property
    def output(self):
        """The symbolic output (a `KerasTensor`) of this layer's first call on symbolic tensors,
        e.g. in a functional or Sequential model with an Input (Keras 3)."""
        return self._first_call("output")

    def _first_call(self, what):
        nodes = self.__dict__.get("_inbound_nodes")
        if not nodes:
            raise AttributeError(f"The layer {self.name} has never been called and thus has no defined "
                                 f"{what}: only a call on symbolic inputs (keras.Input, or a model built "
                                 "from one) defines it. Call the layer on an Input first.")
        node = nodes[0]
        return node.outputs if what == "output" or node.is_input else node.inputs

    # -- calling ----------------------------------------------------------------------------
    def __call__(self, *args, **kwargs):
        with name_scope(self.name, caller=self):  # weights built here get paths under this layer
            return self._call(args, kwargs)

    def _call(self, args, kwargs):
        if args:
            inputs, args = args[0], args[1:]
        elif "inputs" in kwargs:
            inputs = kwargs.pop("inputs")
        else:
            raise TypeError(f"Layer {self.name!r} needs its inputs as the first argument.")
        if is_symbolic(inputs) or is_symbolic(args) or is_symbolic(kwargs):
            if not self.built:
                _check_input_spec(self, inputs)  # Keras 3 checks the spec before it builds
            self._maybe_build(inputs)
            _check_input_spec(self, inputs)
            outputs = symbolic_call_reporting_arguments(
                self, lambda: symbolic_call(self, self._call_on_values_unreported, inputs, args, kwargs),
                (inputs, *args), kwargs)
            _clear_call_losses(self)  # losses of the symbolic call are tracers
            return outputs
        return self._call_on_values(inputs, args, kwargs)

    def _call_on_values(self, inputs, args, kwargs, report=True):
        _refuse_per_replica(self, inputs)
        inputs = map_structure(self._convert_input, inputs)
        if not self.built:
            _check_input_spec(self, inputs)  # Keras 3 checks the spec before it builds
        self._maybe_build(inputs)
        _check_input_spec(self, inputs)
        outer = CallContext.current()
        training = kwargs.get("training")
        if training is None and outer is not None:
            training = outer.training
        kwargs = self._call_kwargs(kwargs, training)
        mask = _input_mask(inputs, kwargs, call_parameters(type(self)))
        autocast = _autocast_dtype(self, state.autocast)
        previous, state.autocast = state.autocast, autocast
        try:
            with CallContext(training):
                if outer is None:
                    _clear_call_losses(self)
                if report:  # an error names this call and its arguments (Keras 3)
                    outputs = call_reporting_arguments(self, self.call, (inputs, *args), kwargs)
                else:
                    outputs = self.call(inputs, *args, **kwargs)
        finally:
            state.autocast = previous
        if self.activity_regularizer is not None:
            self._add_activity_loss(outputs)
        _mask_outputs(self, inputs, outputs, mask)
        return outputs

    def _call_on_values_unreported(self, inputs, args, kwargs):
        """The call on a symbolic call's stand-in values: its error is reported as the symbolic call's."""
        return self._call_on_values(inputs, args, kwargs, report=False)

    def _maybe_build(self, inputs):
        if self.built:
            return
        shape = map_structure(lambda x: TensorShape(x.shape) if hasattr(x, "shape") else None, inputs)
        if _is_default_build(self):  # nothing to create: the sublayers build as call reaches them
            self._build_input_shape = shape
            self.built = True
            return
        self.build(shape)

    def _convert_input(self, x):
        if not isinstance(x, Tensor) and not getattr(x, "_is_variable", False):
            if not isinstance(x, (np.ndarray, np.generic, float, int)):
                return x
            x = as_input(x)
        if self._autocast and x.dtype.is_floating and x.dtype != self._dtype:
            converted = cast(x, self._dtype)
            set_keras_mask(converted, get_keras_mask(x))  # a cast keeps the mask (Keras 3)
            return converted
        return x

    def _call_kwargs(self, kwargs, training):
        accepted = call_parameters(type(self))
        if "training" in accepted:
            kwargs["training"] = training
        else:
            kwargs.pop("training", None)
        if "mask" not in accepted:
            kwargs.pop("mask", None)
        return kwargs

    def _add_activity_loss(self, outputs):
        for out in outputs if isinstance(outputs, (list, tuple)) else [outputs]:
            batch = cast(out.shape[0] or 1, out.dtype) if out.ndim else 1.0
            self.add_loss(self.activity_regularizer(out) / batch)

    # -- weights ----------------------------------------------------------------------------
    def add_weight(self, *args, shape=None, initializer=None, dtype=None, trainable=None, autocast=True,
                   regularizer=None, constraint=None, aggregation="none", overwrite_with_gradient=False,
                   name=None):
        """Creates, tracks and returns a weight: a `KerasVariable` named ``name`` whose ``path`` is
        ``'{open layer scopes}/{name}'`` (``'sequential/dense/kernel'``), as in Keras 3.

        Its initial value is ``initializer(shape, dtype)`` (Glorot uniform for floats, zeros
        otherwise), computed eagerly even when the layer is first called in a traced function.
        A ``constraint`` (a name, a `Constraint` or a callable) is the variable's ``constraint``:
        optimizers project the weight with it after each update.
        """
        shape, initializer, dtype = _positional_weight_arguments(args, shape, initializer, dtype)
        dtype = self._variable_dtype if dtype is None else _dtypes.as_dtype(dtype)
        shape = () if shape is None else tuple(shape)
        if initializer is None:
            initializer = "glorot_uniform" if dtype.is_floating else "zeros"
        init = initializers.get(initializer)
        with name_scope(self.name, caller=self):
            var = KerasVariable(init, shape=shape, name=name, dtype=dtype,
                                trainable=True if trainable is None else trainable,
                                constraint=constraints.get(constraint), autocast=autocast,
                                aggregation=aggregation)
        var.overwrite_with_gradient = bool(overwrite_with_gradient)
        self._own_weights.append(var)
        _deferred.variable_created(self, var.name, var)  # restores a pending checkpoint value
        regularizer = regularizers.get(regularizer)
        if regularizer is not None:
            self._regularized.append((var, regularizer))
        return var

    @property
    def trainable_weights(self):
        """Trainable Variables of this layer and its sublayers (none when frozen)."""
        if not self.trainable:
            return []
        variables, layers = self._tracked()  # one look-up for both (an eager step walks this twice)
        own = [v for v in variables if v.trainable]
        return unique(own + [w for layer in layers for w in layer.trainable_weights])

    @property
    def non_trainable_weights(self):
        """Non-trainable Variables; every Variable when the layer is frozen."""
        if not self.trainable:
            return self.weights
        variables, layers = self._tracked()
        own = [v for v in variables if not v.trainable]
        return unique(own + [w for layer in layers for w in layer.non_trainable_weights])

    @property
    def weights(self):
        """All Variables, layer by layer as Keras 3 lists them: this layer's own trainable ones, its
        own non-trainable ones, then each sublayer's `weights` in the order the sublayers were
        assigned (a functional model's: `layers` order). ``get_weights``/``set_weights`` use it."""
        variables, layers = self._tracked()
        own = [v for v in variables if v.trainable] + [v for v in variables if not v.trainable]
        return unique(own + [w for layer in layers for w in layer.weights])

    variables = weights
    trainable_variables = trainable_weights
    non_trainable_variables = non_trainable_weights

    def get_weights(self):
        """The weights' values as NumPy arrays."""
        return [np.asarray(w.numpy()) for w in self.weights]

    def set_weights(self, weights):
        """Assigns NumPy arrays to the weights, in the order of `weights`."""
        params = self.weights
        if len(params) != len(weights):
            raise ValueError(f"Layer {self.name!r} expects {len(params)} weight arrays, but received "
                             f"{len(weights)}.")
        for var, value in zip(params, weights):
            if tuple(var.shape) != tuple(np.shape(value)):
                raise ValueError(f"Layer {self.name!r} weight {var.name!r} has shape {tuple(var.shape)}"
                                 f", but the value given has shape {tuple(np.shape(value))}.")
            var.assign(value)

    def count_params(self):
        """The number of scalars in all weights; the layer must be built."""
        if not self.built:
            raise ValueError(f"You tried to call `count_params` on layer {self.name!r}, but the layer "
                             "isn't built. You can build it manually via: `layer.build(input_shape)`.")
        return int(sum(np.prod(w.shape.as_list(), dtype=np.int64) for w in self.weights))

    # -- losses -----------------------------------------------------------------------------
    def add_loss(self, loss):
        """Adds a loss (a scalar tensor, or a zero-argument callable) to `losses` for this call."""
        self._call_losses.append(loss)

    @property
    def losses(self):
        """Losses added in the last call (this layer's, then its sublayers' depth first), then the
        regularization penalties of the trainable weights now, in Keras 3's order (a frozen layer's
        weights add no penalty)."""
        layers = self._flat_layers()
        out = [loss() if callable(loss) else loss for layer in layers for loss in layer._call_losses]
        penalties = {id(var): reg for layer in layers for var, reg in layer._regularized}
        out += [penalties[id(var)](var) for var in self.trainable_weights if id(var) in penalties]
        return out

    def _flat_layers(self):
        """This layer and every layer under it, depth first, each once (Keras's ``_flatten_layers``)."""
        out, seen, stack = [], set(), [self]
        while stack:
            layer = stack.pop()
            if id(layer) not in seen:
                seen.add(id(layer))
                out.append(layer)
                stack.extend(reversed(layer._sublayers()))
        return out

    # -- description and tracking -------------------------------------------------------------
    @property
    def name(self):
        return self._name

    @property
    def dtype(self):
        """The name of the dtype of the layer's weights (``'float32'``; `variable_dtype`)."""
        return self._variable_dtype.name

    @property
    def variable_dtype(self):
        """The dtype the layer creates its weights in, from its `dtype_policy`."""
        return self._variable_dtype.name

    @property
    def compute_dtype(self):
        """The dtype of the layer's computations and outputs (``'float16'`` under
        ``mixed_float16``), from its `dtype_policy`."""
        return self._dtype.name

    @property
    def dtype_policy(self):
        """The layer's `companion.keras.mixed_precision.DTypePolicy`."""
        return self._dtype_policy

    @dtype_policy.setter
    def dtype_policy(self, value):
        self._set_dtype_policy(value)

    def _set_dtype_policy(self, dtype):
        self._dtype_policy = _policies.get(dtype)
        self._dtype = _dtypes.as_dtype(self._dtype_policy.compute_dtype)  # what calls compute in
        self._variable_dtype = _dtypes.as_dtype(self._dtype_policy.variable_dtype)

    @property
    def trainable(self):
        return self._trainable

    @trainable.setter
    def trainable(self, value):
        self._trainable = bool(value)
        for layer in self._sublayers():
            layer.trainable = value

    @property
    def submodules(self):
        """Every nested layer, depth first."""
        out = []
        for layer in self._sublayers():
            out += [layer] + [m for m in layer.submodules if m not in out]
        return unique(out)

    def _sublayers(self):
        """The layers assigned as attributes (directly or in lists, tuples and dicts)."""
        return self._tracked()[1]

    def _own_variables(self):
        return self._tracked()[0]

    def _own_metrics(self):
        """The Keras metrics held in this layer's attributes (directly or in lists and dicts)."""
        self._tracked()
        return self.__dict__["_tracking_cache"][3]

    @property
    def metrics(self):
        """Keras 3's list: the metrics held in this layer's attributes, then each sublayer's
        ``metrics``."""
        return list(self._own_metrics()) + [m for layer in self._sublayers() for m in layer.metrics]

    @property
    def metrics_variables(self):
        """The Variables of every metric in `metrics`."""
        return [v for metric in self.metrics for v in metric.variables]

    def add_metric(self, *args, **kwargs):
        """Removed in Keras 3: raises its NotImplementedError (metrics go in ``compile`` or are
        trackers made in ``__init__``/``build`` and updated with ``update_state``)."""
        raise NotImplementedError("Layer `add_metric()` method is deprecated. Add your metric in "
                                  "`Model.compile(metrics=[...])`, or create metric trackers in init() or "
                                  "build() when subclassing the layer or model, then call "
                                  "`metric.update_state()` whenever necessary.")

    def __setattr__(self, name, value):
        global _attribute_generation
        super().__setattr__(name, value)
        if name != "_tracking_cache":
            self.__dict__.pop("_tracking_cache", None)  # an attribute changed: walk them again
            _attribute_generation += 1

    def __delattr__(self, name):
        global _attribute_generation
        super().__delattr__(name)
        self.__dict__.pop("_tracking_cache", None)
        _attribute_generation += 1

    def _tracked(self):
        """(Variables, sublayers) held in attributes; cached until an attribute is set or
        deleted (`__setattr__` drops the cache), the attributes or own weights change in
        number, or a container found in them changes (checked by the identities of its contents)."""
        cache = self.__dict__.get("_tracking_cache")
        if cache is not None and cache[0] == _attribute_ids(self) and containers_unchanged(cache[1]):
            return cache[2]
        variables, layers, containers, metrics = list(self._own_weights), [], [], []
        seen = {id(v) for v in variables} | {id(self)}
        for key, value in vars(self).items():
            if key not in _UNTRACKED:  # a Model's loss tracker is listed by Model.metrics itself
                found_metrics = metrics if key != "_loss_tracker" else None
                collect(value, variables, layers, seen, containers, found_metrics)
        self.__dict__["_tracking_cache"] = (_attribute_ids(self), containers, (variables, layers), metrics)
        return variables, layers

    # -- the checkpoint protocol (companion.train's object graph walks these) ------------------
    def _checkpoint_children(self):
        """``(name, value)`` pairs a checkpoint walks: the layer's attributes, minus bookkeeping."""
        return [(k, v) for k, v in vars(self).items() if k not in _UNTRACKED]

    def _checkpoint_created(self):
        """The Variables made by `add_weight` (an attribute may not hold them) and the prefix
        of their names, so a checkpoint can also name them as they were created."""
        return self._own_weights, f"{self.name}/"

    def _display_class_name(self):
        """The class name Keras 3 prints in reprs and summaries."""
        return type(self).__name__

    def __repr__(self):
        return f"<{self._display_class_name()} name={self.name}, built={self.built}>"  # as Keras 3


# -- private helpers ----------------------------------------------------------------------

def _marking_built(build):
    @functools.wraps(build)
    def marked(self, input_shape=None, *more_shapes, **kwargs):  # more: MultiHeadAttention's value/key shapes
        # (no shape at all: a Sequential whose first layer knows its input, as `model.build()` in TF)
        with name_scope(self.name, caller=self):  # sublayers built here get paths under this layer
            result = build(self, input_shape, *more_shapes, **kwargs)
        if input_shape is not None or more_shapes or kwargs:  # a shapeless build decides for itself
            self._build_input_shape = input_shape
            self.built = True
        return result

    marked._marks_built = True
    return build if getattr(build, "_marks_built", False) else marked


def _autocast_dtype(layer, current):
    """The dtype float Keras weights are read in while ``layer`` calls (Keras 3's rules): a mixed
    layer's compute dtype; inside an outer mixed layer, this layer's own compute dtype, or none
    when it does not autocast or does not compute in floats."""
    compute = layer._dtype
    if current is None:
        return compute if compute != layer._variable_dtype else None
    if not layer._autocast or not compute.is_floating:
        return None
    return compute


def plain_shape(shape):
    """``shape`` (a TensorShape, tuple or list; a list or dict of them) as tuples of ints and None."""
    if isinstance(shape, dict):
        return {key: plain_shape(value) for key, value in shape.items()}
    if hasattr(shape, "as_list"):
        return tuple(shape.as_list()) if shape.rank is not None else None
    if isinstance(shape, (list, tuple)) and shape and not all(d is None or isinstance(d, int) for d in shape):
        return [plain_shape(one) for one in shape]
    return None if shape is None else tuple(shape)


def _batch_input_shape(kwargs):
    if kwargs.get("batch_input_shape") is not None:
        return tuple(kwargs["batch_input_shape"])
    if kwargs.get("input_shape") is not None:
        return (kwargs.get("batch_size"),) + tuple(kwargs["input_shape"])
    if kwargs.get("input_dim") is not None:
        return (kwargs.get("batch_size"), kwargs["input_dim"])
    return None


def _input_mask(inputs, kwargs, accepted):
    """The mask of the call: ``mask=`` if given, else the first input's (also passed as ``mask=``
    when ``call`` takes it, as Keras 3 does)."""
    if kwargs.get("mask") is not None:
        return kwargs["mask"]
    mask = map_structure(get_keras_mask, inputs) if isinstance(inputs, (list, tuple)) else \
        get_keras_mask(inputs)
    if "mask" in accepted and not _all_none(mask):
        kwargs["mask"] = mask
    return None if _all_none(mask) else mask


def _all_none(mask):
    """No mask anywhere in ``mask`` (nested: a layer called on nested Python lists maps each leaf)."""
    return mask is None or (isinstance(mask, (list, tuple)) and all(_all_none(m) for m in mask))


def _mask_outputs(layer, inputs, outputs, mask):
    """Attaches ``layer.compute_mask``'s masks to outputs that have none; warns when a layer
    that does not support masking drops an input's mask (Keras 3's warning)."""
    if not layer.supports_masking:
        if mask is not None:
            warnings.warn(f"Layer {layer.name!r} (of type {type(layer).__name__}) was passed an input with "
                          "a mask attached to it. However, this layer does not support masking and will "
                          "therefore destroy the mask information. Downstream layers will not see the "
                          "mask.", stacklevel=4)
        return
    flat = outputs if isinstance(outputs, (list, tuple)) else [outputs]
    if all(get_keras_mask(t) is not None for t in flat):
        return
    masks = layer.compute_mask(inputs, mask)
    if masks is None:
        return
    for tensor, value in zip(flat, masks if isinstance(masks, (list, tuple)) else [masks]):
        if get_keras_mask(tensor) is None:
            set_keras_mask(tensor, value)


def _check_input_spec(layer, inputs):
    spec = layer.input_spec
    if spec is None:
        return
    specs = spec if isinstance(spec, (list, tuple)) else [spec]
    flat = inputs if isinstance(inputs, (list, tuple)) else [inputs]
    for index, (s, x) in enumerate(zip(specs, flat)):
        if s is not None and hasattr(x, "shape"):  # a tensor's own shape tuple: no TensorShape made
            s.check(layer.name, tuple(x._v.shape) if type(x) is Tensor else x.shape, index)


_attribute_generation = 0  # bumped whenever any layer's attribute is set or deleted


def attribute_generation():
    """A number that changes whenever an attribute of any layer is set or deleted: what a result
    gathered over many layers (`Model.metrics`' walk) can be cached by."""
    return _attribute_generation


def _attribute_ids(layer):
    # Setting an attribute drops the cache (Layer.__setattr__); writes that go around it
    # (``layer.__dict__[...]``) add keys, which the count notices.
    attributes = layer.__dict__
    return len(attributes) - ("_tracking_cache" in attributes), len(layer._own_weights)


def _clear_call_losses(layer, seen=None):
    seen = set() if seen is None else seen
    if id(layer) in seen:
        return
    seen.add(id(layer))
    layer._call_losses.clear()
    for sub in layer._sublayers():
        _clear_call_losses(sub, seen)


def _refuse_per_replica(layer, inputs):
    """A distributed batch reaches a layer only through `strategy.run`; say so instead of failing deep."""
    items = inputs if isinstance(inputs, list | tuple) else [inputs]
    if any(getattr(item, "_is_per_replica", False) for item in items):
        raise TypeError(f"Layer {layer.name!r} was called on a PerReplica value (a distributed batch: one "
                        "share per replica). Call the model inside the replica function instead: "
                        "strategy.run(step, args=(batch,)) hands each replica its share as a tensor. "
                        f"Received: {type(items[0]).__name__ if items else 'nothing'}")


def _positional_weight_arguments(args, shape, initializer, dtype):
    """Keras 3's ``add_weight(shape, initializer, dtype)`` positional form; a name first (Keras 2's
    order) is a ValueError saying to pass it by keyword."""
    if len(args) > 3:
        raise TypeError(f"add_weight() takes at most 3 positional arguments but {len(args)} were given.")
    if args and isinstance(args[0], str):
        raise ValueError(f"`name` must be passed as a keyword argument. Received: add_weight('{args[0]}', "
                         f"...). Use: add_weight(shape=..., name='{args[0]}').")
    given = dict(zip(("shape", "initializer", "dtype"), args))
    keywords = {"shape": shape, "initializer": initializer, "dtype": dtype}
    for argument, value in given.items():
        if keywords[argument] is not None:
            raise ValueError(f"`{argument}` was passed both positionally and as a keyword argument.")
        keywords[argument] = value
    return keywords["shape"], keywords["initializer"], keywords["dtype"]


def _is_default_build(layer):
    """Whether ``layer``'s class keeps the default `build` (Layer's or a subclassed Model's)."""
    return getattr(type(layer).build, "_is_default", False)
