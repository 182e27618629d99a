"""Object-graph paths: the structure-based names under which checkpoints store Variables.

A walk from a root object names each Variable by the chain of attribute names, list
indices and dict keys that leads to it, so the same program built twice gives the same
names (layer and variable *names* such as ``dense_3`` play no part):

* a `Checkpoint`: its keyword children (``model``, ``optimizer``, ``step``, ...) and
  ``save_counter``; a ``root`` object's children sit at the top level;
* an object with the checkpoint protocol, ``_checkpoint_children()`` (``(name, value)``
  pairs) and optionally ``_checkpoint_created()`` (``(variables, name prefix)``): a Keras
  Layer gives its attributes in ``vars()`` order that hold Layers and Variables (also inside
  lists, tuples and dicts: ``layers/0/kernel``), then any Variable made by ``add_weight`` but
  held by no attribute, named by its ``add_weight`` name;
* an optimizer: ``iter``, ``learning_rate`` (unless a schedule) and, once the rest of
  the graph is named, each slot under the path of the variable it belongs to:
  ``model/dense/kernel/.OPTIMIZER_SLOT/optimizer/m``;
* a Keras Metric: its attributes, then its ``add_weight`` Variables by name;
* any other object of user code with a ``__dict__``: its attributes.

Each Variable (and object) is named once: the first path found wins.
"""

import types

from companion._module import Module

SLOT_MARKER = ".OPTIMIZER_SLOT"
_SKIPPED_TYPES = (type, types.ModuleType, types.FunctionType, types.MethodType,
                  types.BuiltinFunctionType)


class ObjectGraph:
    """What a walk found: ``variables`` (path -> Variable), ``paths`` (id -> path) and
    ``aliases`` (``'{layer path}/{add_weight name}'`` -> path, where the two differ)."""

    def __init__(self):
        self.variables = {}
        self.paths = {}
        self.aliases = {}
        self._optimizers = []

    def path_of(self, obj):
        """The path of ``obj`` (a Variable or a tracked object), or None."""
        return self.paths.get(id(obj))


def walk(root):
    """The `ObjectGraph` of ``root``: every Variable reachable from it, with its path."""
    graph = ObjectGraph()
    _visit(root, "", graph)
    for path, optimizer in graph._optimizers:
        _visit_slots(optimizer, path, graph)
    return graph


def join(path, name):
    """``path/name`` ("/" in ``name`` escaped); an empty part is left out."""
    name = str(name).replace("%", "%25").replace("/", "%2F")
    return f"{path}/{name}" if path and name else path or name


def slot_path(variable_path, optimizer_path, slot_name):
    """The path of optimizer slot ``slot_name`` kept for the variable at ``variable_path``."""
    return f"{variable_path}/{SLOT_MARKER}/{join(optimizer_path, slot_name)}"


def is_optimizer(obj):
    """Whether ``obj`` is a Keras optimizer (it has slots)."""
    return hasattr(type(obj), "_slot_names") and hasattr(obj, "_slots")


def is_trackable(obj):
    """Whether a walk looks for Variables in ``obj``."""
    kind = type(obj)
    return bool(getattr(obj, "_is_variable", False) or getattr(kind, "_is_layer", False)
                or hasattr(kind, "_checkpoint_children") or is_optimizer(obj) or _is_metric(obj)
                or isinstance(obj, (list, tuple, dict))
                or (_may_hold_variables(obj) and _is_user_object(obj)))


# -- the walk ---------------------------------------------------------------------------

def _visit(obj, path, graph):
    if id(obj) in graph.paths:
        return
    if getattr(obj, "_is_variable", False):
        _add_variable(obj, path, graph)
        return
    graph.paths[id(obj)] = path
    if hasattr(type(obj), "_checkpoint_children"):  # the protocol (Keras layers, Checkpoint)
        _visit_items(obj._checkpoint_children(), path, graph)
        if hasattr(type(obj), "_checkpoint_created"):
            _visit_created(obj, *obj._checkpoint_created(), path, graph)
    elif is_optimizer(obj):
        _visit_items([("iter", obj._iterations), ("learning_rate", obj._learning_rate)], path, graph)
        graph._optimizers.append((path, obj))
    elif _is_metric(obj):
        _visit_items(_attributes(obj, {"_weights"}), path, graph)
        _visit_created(obj, obj._weights, "", path, graph)
    elif isinstance(obj, (list, tuple)):
        _visit_items(enumerate(obj), path, graph)
    elif isinstance(obj, dict):
        _visit_items(obj.items(), path, graph)
    elif _is_user_object(obj):
        _visit_items(_attributes(obj, ()), path, graph)


def _visit_items(items, path, graph):
    for name, value in items:
        if _may_hold_variables(value):
            _visit(value, join(path, name), graph)


def _visit_created(owner, variables, prefix, path, graph):
    """Names ``variables`` made by ``owner.add_weight`` that no attribute holds."""
    for var in variables:
        alias = join(path, creation_name(var, prefix))
        _visit(var, alias, graph)
        if graph.paths[id(var)] != alias:
            graph.aliases[alias] = graph.paths[id(var)]


def creation_name(var, prefix):
    """The name ``var`` was created with: its ``name`` without ``prefix`` and ``':0'``."""
    name = var.name.rsplit(":", 1)[0]
    return name[len(prefix):] if prefix and name.startswith(prefix) else name


def _visit_slots(optimizer, path, graph):
    for ref, slots in list(optimizer._slots.items()):
        var_path = graph.path_of(ref.deref())
        if var_path is None:
            continue  # slots of a variable outside the graph are not saved (as in TF)
        for name, slot in slots.items():
            _visit(slot, slot_path(var_path, path, name), graph)


def _add_variable(var, path, graph):
    unique, count = path, 0
    while unique in graph.variables:
        count += 1
        unique = f"{path}_{count}"
    graph.variables[unique] = var
    graph.paths[id(var)] = unique


# -- what to walk -------------------------------------------------------------------------

def _attributes(obj, skipped):
    return [(k, v) for k, v in vars(obj).items() if k not in skipped]


def _is_metric(obj):
    return hasattr(obj, "update_state") and hasattr(obj, "result") and hasattr(obj, "_weights")


def _is_user_object(obj):
    """Objects of user code, and `tf.Module`s (a bare one may hold Variables set on it): companion's
    own non-trackable classes hold no Variables."""
    module = type(obj).__module__ or ""
    return hasattr(obj, "__dict__") and (not module.startswith("companion.") or isinstance(obj, Module))


def _may_hold_variables(value):
    return not (value is None or isinstance(value, (str, bytes, int, float, complex))
                or isinstance(value, _SKIPPED_TYPES))
