"""Finding the Layers and Variables a layer holds in its attributes (also in lists and dicts)."""


def collect(value, variables, layers, seen):
    """Appends the Layers and Variables in ``value`` (ids in ``seen`` are skipped)."""
    if id(value) in seen:
        return
    if getattr(type(value), "_is_layer", False):
        seen.add(id(value))
        layers.append(value)
    elif getattr(value, "_is_variable", False):
        seen.add(id(value))
        variables.append(value)
    elif isinstance(value, (list, tuple)):
        seen.add(id(value))
        for item in value:
            collect(item, variables, layers, seen)
    elif isinstance(value, dict):
        seen.add(id(value))
        for item in value.values():
            collect(item, variables, layers, seen)


def unique(items):
    """``items`` without repeats (by identity), in order."""
    seen, out = set(), []
    for item in items:
        if id(item) not in seen:
            seen.add(id(item))
            out.append(item)
    return out


def map_structure(fn, value):
    """``fn`` applied to each leaf of nested lists, tuples and dicts."""
    if isinstance(value, (list, tuple)):
        return type(value)(map_structure(fn, v) for v in value)
    if isinstance(value, dict):
        return {k: map_structure(fn, v) for k, v in value.items()}
    return fn(value)
