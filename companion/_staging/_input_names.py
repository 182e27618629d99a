"""How TF 2.21 names the inputs of a traced call, and the order it meets them in.

For each leaf of a call's ``(args, kwargs)`` (flattened: dict keys sorted):

- the *spec name* shown in ``structured_input_signature``: a `TensorSpec`'s own name, else the
  parameter's name for a lone tensor (``x``) and the parameter's name joined with the path to the
  leaf for the leaves of a structure (``d_zeta``, ``lst_0``, ``d_a_x``; ``args_1_0`` for ``*args``);
- the *graph name* of its placeholder (``x:0``): a `TensorSpec`'s own name, else the parameter's
  name, made unique in the graph (``d``, ``d_1``, ``d_2``);
- the order in which the graph names them, and in which the traced function sees its dicts: the
  order the call wrote them (dict insertion order), not the sorted order of the flat inputs. So
  ``{"zeta": a, "alpha": b}`` gives ``zeta`` the placeholder ``d:0`` and ``alpha`` ``d_1:0``, while
  ``concrete.inputs`` lists ``d_1:0`` first.
"""

import jax

from companion._core import _nest
from companion._core._tensor_spec import TensorSpec


class CallNames:
    """The names of one traced call's leaves: ``leaves[i] = (spec name, graph name)``; ``order``, the
    leaf indices in the call's own order; ``dict_orders``, its dicts' key orders (`_nest.dict_orders`);
    ``given``, the names the caller gave its TensorSpecs (``function_type`` shows those)."""

    __slots__ = ("leaves", "order", "dict_orders", "given")

    def __init__(self, leaves, order, dict_orders, given=()):
        self.leaves = leaves
        self.order = order
        self.dict_orders = dict_orders
        self.given = frozenset(given)

    @classmethod
    def unnamed(cls, count):
        return cls([(None, None)] * count, list(range(count)), None)


def call_names(signature, args, kwargs, input_signature=None):
    """The `CallNames` of the call ``(args, kwargs)`` (bound: keyword arguments in name order) of a
    function with the ``inspect.Signature`` ``signature`` (None: parameters named ``args_0``, ...)."""
    parameters = list(signature.parameters.values()) if signature else []
    positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    star = next((p.name for p in parameters if p.kind == p.VAR_POSITIONAL), "args")
    call = (args, kwargs)
    paths = jax.tree_util.tree_flatten_with_path(call, is_leaf=_nest.is_value)[0]
    leaves, ranks, given = [], [], set()
    for path, leaf in paths:
        where = path[1]
        if path[0].idx == 0:
            i = where.idx
            base = positional[i].name if i < len(positional) else f"{star}_{i - len(positional)}"
        else:
            base = str(where.key)
        inner = [_component(key) for key in path[2:]]
        spec_name = "_".join([base] + inner)
        graph_name = base
        if isinstance(leaf, TensorSpec) and leaf.name:
            spec_name = graph_name = leaf.name
            given.add(leaf.name)
        leaves.append((spec_name, graph_name))
        ranks.append(_rank(call, path))
    if input_signature is not None:
        specs = _nest.tree_flatten(tuple(input_signature))[0]
        if len(specs) == len(leaves):
            leaves = [(spec_name, getattr(spec, "name", None) or base)
                      for (spec_name, base), spec in zip(leaves, specs)]
    order = sorted(range(len(leaves)), key=lambda i: (ranks[i], i))
    return CallNames(leaves, order, _nest.dict_orders(call), given)


def _component(key):
    for attribute in ("key", "idx", "name"):  # DictKey, SequenceKey / FlattenedIndexKey, GetAttrKey
        if hasattr(key, attribute):
            return str(getattr(key, attribute))
    return str(key)


def _rank(structure, path):
    """The position of the leaf at ``path`` in the call's own order: dict keys by insertion."""
    rank = []
    node = structure
    for key in path:
        if hasattr(key, "key") and isinstance(node, dict):
            rank.append(list(node).index(key.key))
            node = node[key.key]
        elif hasattr(key, "idx") and isinstance(node, (list, tuple)):
            rank.append(key.idx)
            node = node[key.idx]
        else:  # another pytree: its flattened order
            rank.append(0)
            node = None
    return tuple(rank)
