"""A functional model's config (its layers and how they connect) and the model rebuilt from it.

The layout follows Keras 3: ``layers`` lists each layer's ``{'class_name', 'config',
'name', 'inbound_nodes'}``, where an inbound node is the call's ``{'args', 'kwargs'}``
with each symbolic tensor written as ``{'class_name': '__keras_tensor__', 'config':
{'keras_history': [layer name, node index, tensor index]}}``; ``input_layers`` and
``output_layers`` are such triples, in the structure of the model's inputs and outputs.
"""

from companion.keras._functional._input_layer import InputLayer
from companion.keras.layers import deserialize, serialize
from companion.keras.layers._tracking import map_structure

_TENSOR = "__keras_tensor__"


def functional_config(model):
    """The config of functional ``model`` (a dict that `functional_from_config` rebuilds)."""
    graph = model._graph
    nodes_of = _nodes_by_layer(graph)

    def history(kt):
        node = kt.node
        return [node.layer.name, nodes_of[id(node.layer)].index(node), kt._index]

    def encode(value):
        if getattr(value, "_is_keras_tensor", False):
            return {"class_name": _TENSOR, "config": {"shape": tuple(value.shape.as_list()),
                                                      "dtype": value._dtype.name,
                                                      "keras_history": history(value)}}
        return value

    layers = []
    for layer in graph.layers:
        entry = serialize(layer)
        entry["name"] = layer.name
        entry["inbound_nodes"] = [
            {"args": map_structure(encode, (node.inputs, *node.args)),  # tuples, as Keras 3
             "kwargs": map_structure(encode, node.kwargs)}
            for node in nodes_of[id(layer)] if not node.is_input]
        layers.append(entry)
    return {"name": model.name, "trainable": model.trainable, "layers": layers,
            "input_layers": map_structure(history, graph.inputs),
            "output_layers": map_structure(history, graph.outputs)}


def is_functional_config(config):
    return isinstance(config, dict) and "layers" in config and "input_layers" in config


def functional_from_config(cls, config, custom_objects=None):
    """A new ``cls`` (a functional Model class) with fresh layers wired as ``config`` says."""
    created, outputs, pending = {}, {}, []
    for entry in config["layers"]:
        layer = deserialize(entry, custom_objects=custom_objects)
        created[entry["name"]] = layer
        if isinstance(layer, InputLayer):
            outputs[(layer.name, 0)] = [layer.output]
        pending += [(layer, node) for node in entry.get("inbound_nodes", [])]
    while pending:
        ready = [item for item in pending if _available(item, outputs, pending)]
        if not ready:
            raise ValueError(f"Cannot rebuild model {config.get('name')!r}: the calls of layers "
                             f"{sorted({layer.name for layer, _ in pending})} need tensors no layer "
                             "produces. The config is damaged or was not written by Model.get_config.")
        for layer, node in ready:
            _call(layer, node, outputs)
            pending.remove((layer, node))

    def tensor(triple):
        name, node_index, tensor_index = triple
        return outputs[(name, node_index)][tensor_index]

    inputs = _structure(config["input_layers"], tensor)
    model_outputs = _structure(config["output_layers"], tensor)
    return cls(inputs=inputs, outputs=model_outputs, name=config.get("name"),
               trainable=config.get("trainable", True))


def _nodes_by_layer(graph):
    found = {}
    for layer in graph.layers:
        found[id(layer)] = [layer.output.node] if isinstance(layer, InputLayer) else []
    for node in graph.nodes:
        found.setdefault(id(node.layer), []).append(node)
    return found


def _histories(value):
    """The ``keras_history`` triples of the encoded tensors in ``value``."""
    if isinstance(value, dict):
        if value.get("class_name") == _TENSOR:
            return [tuple(value["config"]["keras_history"])]
        return [h for v in value.values() for h in _histories(v)]
    if isinstance(value, (list, tuple)):
        return [h for v in value for h in _histories(v)]
    return []


def _available(item, outputs, pending):
    layer, node = item
    earlier = [n for lay, n in pending if lay is layer]
    if earlier and earlier[0] is not node:  # a shared layer's calls keep their order
        return False
    needed = _histories(node["args"]) + _histories(node["kwargs"])
    return all((name, index) in outputs for name, index, _ in needed)


def _call(layer, node, outputs):
    def decode(value):
        if isinstance(value, dict) and value.get("class_name") == _TENSOR:
            name, index, tensor_index = value["config"]["keras_history"]
            return outputs[(name, index)][tensor_index]
        return value

    args = _decode(node["args"], decode)
    kwargs = _decode(node["kwargs"], decode)
    result = layer(*args, **kwargs)
    flat = []
    map_structure(flat.append, result)
    count = sum(1 for key in outputs if key[0] == layer.name)
    outputs[(layer.name, count)] = flat


def _decode(value, decode):
    if isinstance(value, dict) and value.get("class_name") == _TENSOR:
        return decode(value)
    if isinstance(value, dict):
        return {k: _decode(v, decode) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_decode(v, decode) for v in value)
    return value


def _structure(spec, tensor):
    if isinstance(spec, dict):
        return {k: _structure(v, tensor) for k, v in spec.items()}
    if isinstance(spec, (list, tuple)) and spec and isinstance(spec[0], (list, tuple)):
        return [_structure(s, tensor) for s in spec]
    return tensor(spec)
