"""`print_summary`: Keras 3's ``model.summary()`` (the layer table, then the parameter totals).

The table is the one Keras 3 draws when its output is not a terminal (`_box_table`): one row
per layer with its name and class, output shape (``?`` before it is known) and parameter count
(``0 (unbuilt)`` before its weights exist); a functional model whose layers do not form a single
chain also shows what each layer is connected to (``dense[0][0]``: layer, call, output).
"""

import re
import shutil
import sys

import numpy as np

from companion.keras.layers._layer import Layer
from companion.keras.models._box_table import box_table, console_width


def print_summary(model, line_length=None, positions=None, print_fn=None, expand_nested=False,
                  show_trainable=False, layer_range=None):
    """Prints ``model``'s summary as Keras 3 does; ``print_fn`` gets the whole text in one call."""
    layers, nodes = _summary_layers(model)
    chain = nodes is None or _is_chain(nodes)
    if chain:
        length, positions = 88, positions or [0.45, 0.80, 1.0]
        header, justify = ["Layer (type)", "Output Shape", "Param #"], ["left", "left", "right"]
    else:
        length, positions = 108, positions or [0.3, 0.56, 0.74, 1.0]
        header = ["Layer (type)", "Output Shape", "Param #", "Connected to"]
        justify = ["left", "left", "right", "left"]
    if show_trainable:
        length += 12
        positions = [p * 0.90 for p in positions] + [1.0]
        header.append("Trainable")
        justify.append("center")
    line_length = line_length or min(length, shutil.get_terminal_size().columns - 4)
    widths, current = [], 0
    for position in positions:
        width = int(position * line_length) - current
        if width < 4:
            raise ValueError("Insufficient console width to print summary.")
        widths.append(width)
        current += width

    rows = []
    start, stop = _layer_range(layers, layer_range)
    for layer in layers[start:stop]:
        _add_rows(rows, layer, 0, None if chain else nodes, show_trainable, expand_nested)

    crop = console_width()
    lines = [f'Model: "{model.name}"']
    lines += [line[:crop] for line in box_table(header, rows, widths, justify, line_length)]
    lines += _totals(model)
    text = "".join(line + "\n" for line in lines)
    if print_fn is None:
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        print_fn(text)


def _summary_layers(model):
    """The layers to list, and for a functional model the layer calls (nodes) it is made of."""
    graph = getattr(model, "_graph", None)
    if graph is None or hasattr(model, "_stack"):  # subclassed or Sequential: its layers
        return model.layers, None
    nodes = list(graph.nodes)
    nodes += [kt.node for kt in graph.flat_inputs if kt.node is not None and kt.node not in nodes]
    return list(graph.layers), nodes


def _is_chain(nodes):
    """Whether the layer calls form one chain (Keras 3 then leaves out "Connected to")."""
    ids = {id(node) for node in nodes}
    children, layers = {}, set()
    for node in nodes:
        parents = node.parents()
        if len(parents) > 1 or id(node.layer) in layers:
            return False
        layers.add(id(node.layer))
        for tensor in parents:
            if id(tensor.node) in ids:
                children[id(tensor.node)] = children.get(id(tensor.node), 0) + 1
    return all(count == 1 for count in children.values()) and len(nodes) - len(children) == 1


def _add_rows(rows, layer, level, nodes, show_trainable, expand_nested):
    prefix = "   " * level + "└ " if level else ""
    row = [f"{prefix}{layer.name} ({layer._display_class_name()})", _shape_text(layer), _params(layer)]
    if nodes is not None:
        row.append(_connections(layer, nodes))
    if show_trainable:
        row.append(("Y" if layer.trainable else "N") if layer.weights else "-")
    rows.append(row)
    nested = getattr(layer, "layers", None) if expand_nested else None
    for inner in nested or []:
        _add_rows(rows, inner, level + 1, nodes, show_trainable, expand_nested)


def _shape_text(layer):
    """The output shape of the layer's last call, or, for a layer built on data, the shape
    its ``compute_output_shape`` gives; ``?`` when neither is known."""
    nodes = layer.__dict__.get("_inbound_nodes")
    if nodes:
        shapes = [_shape(kt.shape) for kt in _flat(nodes[-1].outputs)]  # Keras 3 lists them flat
        return shapes[0] if len(shapes) == 1 else "[" + ", ".join(shapes) + "]"
    build_shape = layer.__dict__.get("_build_input_shape")
    if not layer.built or build_shape is None:
        return "?"
    if not _knows_output_shape(layer):
        return "?"
    try:
        shape = layer.compute_output_shape(build_shape)
    except Exception:  # Keras 3 shows "?" when a layer cannot tell its output shape
        return "?"
    return _shape(shape) if _is_shape(shape) else _structure_text(shape)


def _knows_output_shape(layer):
    """Companion's layers all compute their output shapes; a user's layer only if it defines
    ``compute_output_shape`` (Keras 3's base Layer does not guess)."""
    cls = type(layer)
    if cls.__module__.startswith("companion."):
        return True
    return any("compute_output_shape" in vars(base) for base in cls.__mro__
               if not base.__module__.startswith("companion."))


def _is_shape(value):
    if hasattr(value, "as_list"):
        return True
    return isinstance(value, (tuple, list)) and all(d is None or isinstance(d, (int, np.integer))
                                                    for d in value)


def _shape(shape):
    dims = shape.as_list() if hasattr(shape, "as_list") else list(shape)
    return "(" + ", ".join(str(None if d is None else int(d)) for d in dims) + ")"


def _structure_text(structure):
    """Several outputs, as Keras 3 prints them: ``[(None, 2), (None, 3)]``."""
    if getattr(structure, "_is_keras_tensor", False):
        return _shape(structure.shape)
    if isinstance(structure, dict):
        return "{" + ", ".join(f"{k}: {_structure_text(v)}" for k, v in structure.items()) + "}"
    if isinstance(structure, (list, tuple)) and not _is_shape(structure):
        inner = ", ".join(_structure_text(v) for v in structure)
        if isinstance(structure, list):
            return f"[{inner}]"
        return f"({inner}{',' if len(structure) == 1 else ''})"
    return _shape(structure)


def _flat(structure):
    if isinstance(structure, dict):
        return [leaf for value in structure.values() for leaf in _flat(value)]
    if isinstance(structure, (list, tuple)):
        return [leaf for value in structure for leaf in _flat(value)]
    return [structure]


def _params(layer):
    if not isinstance(layer, Layer):
        return "0"
    if not layer.built:
        return "0 (unbuilt)"
    return f"{layer.count_params():,}"


def _connections(layer, nodes):
    """``layer[call][output]`` for each tensor the layer's calls in this model consumed."""
    ids = {id(node) for node in nodes}
    found = []
    for node in layer.__dict__.get("_inbound_nodes") or []:
        if id(node) not in ids:
            continue
        for tensor in node.parents():
            source = tensor.node.layer
            calls = source.__dict__.get("_inbound_nodes") or []
            index = next((i for i, n in enumerate(calls) if n is tensor.node), 0)
            found.append(f"{source.name}[{index}][{tensor._index}]")
    return ", ".join(found) or "-"


def _layer_range(layers, layer_range):
    if layer_range is None:
        return 0, len(layers)
    if len(layer_range) != 2:
        raise ValueError(f"layer_range must be a list or tuple of length 2. Received: "
                         f"layer_range = {layer_range} of length {len(layer_range)}")
    if not all(isinstance(name, str) for name in layer_range):
        raise ValueError(f"layer_range should contain string type only. Received: {layer_range}")
    lower = [i for i, layer in enumerate(layers) if re.match(layer_range[0], layer.name)]
    upper = [i for i, layer in enumerate(layers) if re.match(layer_range[1], layer.name)]
    if not lower or not upper:
        raise ValueError(f"Passed layer_names do not match the layer names in the model. Received: "
                         f"{layer_range}")
    if min(lower) > max(upper):
        return min(upper), max(lower) + 1
    return min(lower), max(upper) + 1


def _totals(model):
    trainable = _count(model.trainable_weights)
    frozen = _count(model.non_trainable_weights)
    optimizer = getattr(model, "optimizer", None)
    built = optimizer is not None and getattr(optimizer, "built", False)
    extra = _count(optimizer.variables) if built else (0, 0)
    total = (trainable[0] + frozen[0] + extra[0], trainable[1] + frozen[1] + extra[1])
    lines = [f" {label} params: {count:,} ({_readable(size)})"
             for label, (count, size) in (("Total", total), ("Trainable", trainable),
                                          ("Non-trainable", frozen))]
    if built:
        lines.append(f" Optimizer params: {extra[0]:,} ({_readable(extra[1])})")
    return lines


def _count(weights):
    """The number of values in ``weights`` and their size in bytes (each Variable once)."""
    unique = list({id(w): w for w in weights}.values())
    count = sum(int(np.prod(w.shape.as_list(), dtype=np.int64)) for w in weights)
    size = sum(int(np.prod(w.shape.as_list(), dtype=np.int64)) * _dtype_size(w.dtype) for w in unique)
    return count, size


def _dtype_size(dtype):
    size = getattr(dtype, "size", None)
    return size if size is not None else np.dtype(str(dtype)).itemsize


def _readable(size):
    size = float(size)
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if size / 1024 < 1:
            return f"{size:.2f} {unit}"
        size /= 1024
    return f"{size:.2f} PB"
