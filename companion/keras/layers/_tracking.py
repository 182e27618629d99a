"""Finding the Layers and Variables a layer holds in its attributes (also in lists and dicts)."""


def collect(value, variables, layers, seen, containers=None, metrics=None):
    """Appends the Layers and Variables in ``value`` (ids in ``seen`` are skipped), and its Keras
    metrics to ``metrics`` when given (Keras 3 lists a layer's metric attributes in ``metrics``).

    Lists and dicts walked are appended to ``containers`` with the identities of their
    contents, so `containers_unchanged` can tell later whether the result still holds.
    """
    if id(value) in seen:
        return
    if getattr(type(value), "_is_layer", False):
        seen.add(id(value))
        layers.append(value)
    elif getattr(value, "_is_variable", False):
        seen.add(id(value))
        variables.append(value)
    elif getattr(type(value), "_is_keras_metric", False):
        if metrics is not None:
            seen.add(id(value))
            metrics.append(value)
    elif isinstance(value, (list, tuple, dict)):
        seen.add(id(value))
        items = list(value.values()) if isinstance(value, dict) else value
        if containers is not None and not isinstance(value, tuple):
            containers.append((value, _contents(value)))
        for item in items:
            collect(item, variables, layers, seen, containers, metrics)


def _contents(container):
    values = container.values() if isinstance(container, dict) else container
    return tuple(id(v) for v in values)


def containers_unchanged(containers):
    """Whether each ``(container, contents)`` recorded by `collect` still holds those objects."""
    return all(_contents(container) == contents for container, contents in containers)


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
