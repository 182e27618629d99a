"""`clone_model`: a new model of the same architecture, with new layers and freshly initialised weights."""

from companion.keras._functional._input_layer import Input, InputLayer
from companion.keras.layers._tracking import map_structure
from companion.keras.models._sequential import Sequential


def clone_model(model, input_tensors=None, clone_function=None, call_function=None, recursive=False,
                **kwargs):
    """A copy of ``model`` whose layers are new (``layer.__class__.from_config(layer.get_config())``).

    The copy is not compiled and its weights are initialised anew (copy them with
    ``clone.set_weights(model.get_weights())``). Layer names are kept, as in Keras 3.

    Args:
        model: a functional model, a Sequential model, or a subclassed model whose
            ``get_config``/``from_config`` round-trip.
        input_tensors: `keras.Input` tensors (same structure as the model's inputs) to
            build the clone on, instead of new Inputs like the model's.
        clone_function: ``layer -> new layer``, called for each layer (InputLayers
            excepted); e.g. to share a layer, return it unchanged.
        call_function: ``(layer, *args, **kwargs) -> outputs``, how each layer is called
            in a functional clone (default: ``layer(*args, **kwargs)``).
        recursive: also clone the layers of nested functional/Sequential models with
            ``clone_function`` (instead of cloning a nested model as one layer).

    Example:
        >>> import companion as tf
        >>> inputs = tf.keras.Input((3,))
        >>> model = tf.keras.Model(inputs, tf.keras.layers.Dense(2, name="out")(inputs))
        >>> clone = tf.keras.models.clone_model(model)
        >>> [layer.name for layer in clone.layers][1:], clone.layers[1] is model.layers[1]
        (['out'], False)
    """
    if kwargs:
        raise TypeError(f"clone_model got unexpected keyword arguments: {sorted(kwargs)}.")
    clone_function = clone_function or _fresh
    if recursive:
        clone_function = _recursive(clone_function, call_function)

    if isinstance(model, Sequential):
        return _clone_sequential(model, input_tensors, clone_function)
    if getattr(model, "_graph", None) is not None:
        return _clone_functional(model, input_tensors, clone_function, call_function)
    if input_tensors is not None:
        raise ValueError(f"clone_model: `input_tensors` applies to functional and Sequential models; "
                         f"{model.name!r} is a subclassed model. Received: input_tensors={input_tensors!r}")
    return clone_function(model)


def _fresh(layer):
    return layer.__class__.from_config(layer.get_config())


def _recursive(clone_function, call_function):
    def clone(layer):
        if getattr(layer, "_graph", None) is not None or hasattr(layer, "_stack"):
            return clone_model(layer, clone_function=clone, call_function=call_function)
        return clone_function(layer)

    return clone


def _clone_sequential(model, input_tensors, clone_function):
    layers = [clone_function(layer) for layer in model.layers]
    if input_tensors is not None:
        first = input_tensors[0] if isinstance(input_tensors, (list, tuple)) else input_tensors
        return Sequential([first] + layers, name=model.name)
    if model._input is not None and model._input.node is not None:
        shape = tuple(model._input.shape.as_list())
        return Sequential([InputLayer(batch_shape=shape, dtype=model._input._dtype.name)] + layers,
                          name=model.name)
    clone = Sequential(layers, name=model.name)
    if model._input is not None:
        clone.build(tuple(model._input.shape.as_list()))
    return clone


def _clone_functional(model, input_tensors, clone_function, call_function):
    graph = model._graph
    tensors = {}
    new_inputs = _new_inputs(graph, input_tensors)
    for old, new in zip(graph.flat_inputs, new_inputs):
        tensors[id(old)] = new
    clones = {}
    for node in graph.nodes:
        layer = clones.get(id(node.layer))
        if layer is None:
            layer = clones[id(node.layer)] = clone_function(node.layer)

        def mapped(value):
            return tensors[id(value)] if getattr(value, "_is_keras_tensor", False) else value

        inputs, args, kwargs = (map_structure(mapped, v) for v in (node.inputs, list(node.args), node.kwargs))
        outputs = call_function(layer, inputs, *args, **kwargs) if call_function else layer(inputs, *args,
                                                                                             **kwargs)
        flat = []
        map_structure(flat.append, outputs)
        for old, new in zip(node.flat_outputs(), flat):
            tensors[id(old)] = new
    inputs = _like(graph.inputs, new_inputs)
    outputs = map_structure(lambda kt: tensors[id(kt)], graph.outputs)
    return type(model)(inputs=inputs, outputs=outputs, name=model.name)


def _new_inputs(graph, input_tensors):
    if input_tensors is None:
        return [Input(batch_shape=tuple(kt.shape.as_list()), dtype=kt._dtype.name,
                      name=kt.node.layer.name if kt.node.is_input else None) for kt in graph.flat_inputs]
    flat = []
    map_structure(flat.append, input_tensors)
    if len(flat) != len(graph.flat_inputs):
        raise ValueError(f"clone_model: the model has {len(graph.flat_inputs)} inputs, but "
                         f"input_tensors holds {len(flat)}. Pass one keras.Input per model input.")
    return flat


def _like(structure, flat):
    leaves = iter(flat)
    return map_structure(lambda _: next(leaves), structure)
