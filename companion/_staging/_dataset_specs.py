"""A dataset argument's part of a `function` call signature: its `DatasetSpec` (TF's trace type).

companion.data is looked up lazily: it is loaded only by programs that use datasets.
"""


def dataset_keys(leaves, keys):
    """``(keys, datasets)``: the call signature with each dataset argument keyed by its `DatasetSpec`
    instead of its identity, and those datasets in order; ``(keys, None)`` when there are none."""
    datasets = []
    keys = list(keys)
    for i, leaf in enumerate(leaves):
        if keys[i][0] in ("python", "object") and is_dataset(leaf):
            keys[i] = ("dataset", dataset_spec(leaf))
            datasets.append(leaf)
    return tuple(keys), datasets or None


def dataset_spec(dataset):
    # deferred: companion.data is loaded only by programs that use datasets
    from companion.data import DatasetSpec

    return DatasetSpec(dataset.element_spec)


def is_dataset_spec(value):
    data = __import__("sys").modules.get("companion.data")
    return data is not None and isinstance(value, data.DatasetSpec)


def is_dataset(value):
    data = __import__("sys").modules.get("companion.data")
    return data is not None and isinstance(value, data.Dataset)


def covers(general, spec):
    """True if a trace for the `DatasetSpec` ``general`` takes datasets of ``spec`` (TF: a dataset
    of batches of 2 runs through the trace for batches of None)."""
    # deferred: as in dataset_spec
    from companion.data import _structure

    try:
        pairs = zip(_structure.flatten(general.element_spec), _structure.flatten(spec.element_spec),
                    strict=True)
        return _structure.same_structure(general.element_spec, spec.element_spec) and all(
            type(g) is type(s) and g.dtype == s.dtype and g.shape.is_compatible_with(s.shape)
            and (g.shape.rank is None or g.shape.rank == s.shape.rank)
            and all(a is None or a == b for a, b in zip(g.shape.dims or [], s.shape.dims or []))
            for g, s in pairs)
    except (ValueError, TypeError, AttributeError):
        return False
