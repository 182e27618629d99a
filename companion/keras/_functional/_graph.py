"""`Graph`: the layer calls between a functional model's inputs and outputs, replayed on data."""

import numpy as np

from companion._core._shape import TensorShape
from companion._ops._array import expand_dims, squeeze
from companion.keras.layers._tracking import map_structure


class Graph:
    """The `Node`s reachable backwards from ``outputs`` up to ``inputs``, in creation order.

    ``inputs`` and ``outputs`` are a KerasTensor or a list, tuple or dict of them.
    """

    def __init__(self, inputs, outputs, model_name):
        self.inputs, self.outputs = inputs, outputs
        self.flat_inputs = _flat(inputs, "inputs", model_name)
        self.flat_outputs = _flat(outputs, "outputs", model_name)
        self.nodes = _reachable_nodes(self.flat_inputs, self.flat_outputs, outputs)
        self.input_layers = [kt.node.layer for kt in self.flat_inputs]
        self.layers = _layer_order(_keras_flat(inputs), _keras_flat(outputs))
        self.input_names = [kt.node.layer.name if kt.node.is_input else kt.name
                            for kt in self.flat_inputs]
        self.output_names = [kt.node.layer.name for kt in self.flat_outputs]

    def run(self, values, model_name):
        """The outputs computed from real input ``values`` (same structure as ``inputs``)."""
        known = {}
        paths = [".".join(str(k) for k in path) for path, _ in _leaves_with_paths(self.inputs)]
        for tensor, value, path in zip(self.flat_inputs, self.flatten_values(values, model_name), paths):
            known[id(tensor)] = conform(value, tensor, path)
        for node in self.nodes:
            node.run(known)
        return map_structure(lambda kt: known[id(kt)], self.outputs)

    def flatten_values(self, values, model_name):
        """Real inputs in the order of ``flat_inputs`` (dicts are matched by input name)."""
        if isinstance(values, dict):
            keys = list(self.inputs) if isinstance(self.inputs, dict) else self.input_names
            missing = [k for k in keys if k not in values]
            if missing:
                raise ValueError(f"Model {model_name!r} is missing inputs {missing} in the dict it "
                                 f"was called on. Expected keys: {keys}; received: {list(values)}.")
            return [values[k] for k in keys]
        flat = list(values) if isinstance(values, (list, tuple)) else [values]
        if len(flat) != len(self.flat_inputs):
            raise ValueError(f"Model {model_name!r} expects {len(self.flat_inputs)} input(s), but it "
                             f"received {len(flat)} input tensors. Inputs expected: "
                             f"{self.input_names}; shapes received: {[np.shape(v) for v in flat]}.")
        return flat


def _flat(structure, what, model_name):
    flat = []
    map_structure(flat.append, structure)
    bad = [v for v in flat if not getattr(v, "_is_keras_tensor", False)]
    if bad or not flat:
        raise TypeError(f"Model {model_name!r}: `{what}` must be KerasTensors (from keras.Input and "
                        f"layers called on them), or lists/dicts of them. Received: {what}="
                        f"{structure!r}")
    return flat


def _reachable_nodes(flat_inputs, flat_outputs, outputs):
    input_ids = {id(kt) for kt in flat_inputs}
    found, stack = {}, [kt for kt in flat_outputs if id(kt) not in input_ids]
    while stack:
        node = stack.pop().node
        if node.id in found:
            continue
        if node.is_input:
            _disconnected(outputs, input_ids, node)
        found[node.id] = node
        stack.extend(kt for kt in node.parents() if id(kt) not in input_ids)
    return [found[i] for i in sorted(found)]


def _disconnected(outputs, input_ids, node):
    """Keras 3's error for an output that needs an input the model was not given: it names the
    first such output by its path in ``outputs`` (``''`` for a single one, ``'0'``, ``'name'``)."""
    path = next((p for p, kt in _leaves_with_paths(outputs) if _needs_other_input(kt, input_ids)), ())
    raise ValueError(f"Output with path `{'.'.join(str(k) for k in path)}` is not connected to `inputs`\n"
                     f"It depends on the input {node.layer.name!r} ({node.outputs!r}), which is not among "
                     "the model's inputs. Pass every keras.Input the outputs use to `inputs`.")


def _leaves_with_paths(structure, path=()):
    """(path, leaf) pairs in Keras 3's order (a dict's keys sorted)."""
    if isinstance(structure, dict):
        for key in sorted(structure):
            yield from _leaves_with_paths(structure[key], path + (key,))
    elif isinstance(structure, (list, tuple)):
        for index, item in enumerate(structure):
            yield from _leaves_with_paths(item, path + (index,))
    else:
        yield path, structure


def _needs_other_input(tensor, input_ids):
    seen, stack = set(), [tensor]
    while stack:
        kt = stack.pop()
        if id(kt) in input_ids or kt.node.id in seen:
            continue
        if kt.node.is_input:
            return True
        seen.add(kt.node.id)
        stack.extend(kt.node.parents())
    return False


def _layer_order(flat_inputs, flat_outputs):
    """The layers as Keras 3's ``Functional.layers`` lists them (``ops/function.py``'s ``map_graph``):
    by depth, the most calls away from the outputs first; ties by when a depth-first walk back from
    the outputs (each output in turn, each call's tensor arguments in order) first meets the layer.
    A shared layer takes the largest depth of its calls; an unused InputLayer has depth 0 and comes
    first among its ties."""
    input_ids = {id(kt) for kt in flat_inputs}
    finished, postorder, first_seen = set(), [], {}
    for output in flat_outputs:
        stack = [[output, None]]
        while stack:
            entry = stack[-1]
            tensor, parents = entry
            node = tensor.node
            if parents is None:
                if node.id in finished or (not node.is_input and id(tensor) in input_ids):
                    finished.add(node.id)  # an input made by a layer: that layer is outside the model
                    stack.pop()
                    continue
                first_seen.setdefault(id(node.layer), (len(first_seen), node.layer))
                entry[1] = parents = iter([] if node.is_input else _keras_parents(node))
            parent = next(parents, None)
            if parent is not None:
                stack.append([parent, None])
                continue
            stack.pop()
            if node.id not in finished:
                finished.add(node.id)
                postorder.append(node)
    in_graph = {node.id for node in postorder}
    node_depth, layer_depth = {}, {}
    for node in reversed(postorder):  # every consumer of a node comes before it
        depth = max(node_depth.setdefault(node.id, 0), layer_depth.get(id(node.layer), 0))
        layer_depth[id(node.layer)] = node_depth[node.id] = depth
        if not node.is_input:
            for parent in _keras_parents(node):
                if parent.node.id in in_graph:
                    node_depth[parent.node.id] = max(depth + 1, node_depth.get(parent.node.id, 0))
    for tensor in flat_inputs:  # inputs no output depends on
        layer = tensor.node.layer
        if tensor.node.is_input and id(layer) not in layer_depth:
            layer_depth[id(layer)] = 0
            first_seen[id(layer)] = (-1, layer)
    order = sorted(layer_depth, key=lambda key: (-layer_depth[key], first_seen[key][0]))
    return [first_seen[key][1] for key in order]


def _keras_parents(node):
    """The KerasTensors a call consumed, in Keras's flattening order (dict keys sorted)."""
    return _keras_flat([node.inputs, list(node.args), node.kwargs])


def _keras_flat(structure):
    """The KerasTensors in ``structure`` in the order of Keras's ``tree.flatten`` (dict keys sorted)."""
    found = []

    def walk(value):
        if getattr(value, "_is_keras_tensor", False):
            found.append(value)
        elif isinstance(value, dict):
            for key in sorted(value, key=str):
                walk(value[key])
        elif isinstance(value, (list, tuple)):
            for item in value:
                walk(item)

    walk(structure)
    return found


def conform(value, reference, path=""):
    """Keras's rank fix: a size-1 last axis is added (a ``(batch,)`` input to an Input of shape
    ``(batch, 1)``) or dropped (``(batch, 3, 1)`` to ``(batch, 3)``) to match the Input's rank;
    any other difference of rank is Keras 3's error (``path``: the input's place in the inputs)."""
    shape = getattr(value, "shape", None)
    dims = reference.shape.as_list()
    if shape is None or len(shape) == len(dims):
        return value
    if len(shape) == len(dims) - 1 and dims and dims[-1] == 1:
        return expand_dims(value, -1)
    if len(shape) == len(dims) + 1 and shape[-1] == 1:
        return squeeze(value, -1)
    hint = (f"Pass inputs of rank {len(dims)} (the batch axis first), as the model's Input was declared.")
    if len(shape) == len(dims) - 1:  # one example given alone
        hint = ("This looks like one example without its batch axis; to predict on it, add the batch "
                "axis: tf.expand_dims(x, 0)")
    raise ValueError(f"Invalid input shape for input {value} with name '{reference.name}' and path "
                     f"'{path}'. Expected shape {reference.shape}, but input has incompatible shape "
                     f"{TensorShape(shape)}\n{hint}")
