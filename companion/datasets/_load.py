"""`load`, `builder`, `list_builders` and `as_numpy`: the tfds-style entry points of `companion.datasets`."""

import importlib

_BUILDERS = {
    "breast_cancer": ("companion.datasets._sklearn_sets", "BreastCancer"),
    "digits": ("companion.datasets._sklearn_sets", "Digits"),
    "fashion_mnist": ("companion.datasets._mnist", "FashionMnist"),
    "mnist": ("companion.datasets._mnist", "Mnist"),
    "shapes": ("companion.datasets._shapes", "Shapes"),
}


def list_builders():
    """The names of the data sets `load` knows.

    Example:
        >>> import companion as tf
        >>> tf.datasets.list_builders()
        ['breast_cancer', 'digits', 'fashion_mnist', 'mnist', 'shapes']
    """
    return sorted(_BUILDERS)


def builder(name, data_dir=None, **builder_kwargs):
    """The `Builder` of the data set ``name`` (``.info``, ``.as_dataset(split)``, ``.as_arrays(split)``).

    Example:
        >>> import companion as tf
        >>> info = tf.datasets.builder("digits").info
        >>> info.splits["train"].num_examples, info.features["label"].num_classes
        (1797, 10)
    """
    if not isinstance(name, str) or name not in _BUILDERS:
        raise ValueError(f"Unknown data set {name!r}. Available: {', '.join(list_builders())}. Nothing is "
                         "downloaded here: the course's photo sets are replaced by 'shapes'.")
    module, cls = _BUILDERS[name]
    try:
        return getattr(importlib.import_module(module), cls)(data_dir=data_dir, **builder_kwargs)
    except TypeError as err:
        raise TypeError(f"{name}: unsupported builder_kwargs {sorted(builder_kwargs)} ({err}). See "
                        f"help(companion.datasets.builder({name!r})).") from None


def load(name, split=None, data_dir=None, batch_size=None, shuffle_files=False, as_supervised=False,
         with_info=False, builder_kwargs=None, download=False):
    """Loads a data set as `companion.data.Dataset` objects, in the style of ``tfds.load``.

    Args:
        name: ``'digits'``, ``'breast_cancer'``, ``'shapes'``, ``'mnist'`` or ``'fashion_mnist'``.
        split: a split spec (``'train'``, ``'train[:80%]'``, ``'train[80%:90%]'``,
            ``'train+test'``), a list of specs (→ a list of datasets), or None (→ a dict of
            every split).
        data_dir: the cache root for sets read from files (``mnist``, ``fashion_mnist``).
        batch_size: None for single examples; n to batch; -1 for each split as whole
            tensors instead of a Dataset.
        shuffle_files: reorder blocks of 1,000 examples randomly (tfds shuffles its files).
        as_supervised: elements ``(image, label)`` (``(features, label)`` for breast_cancer)
            instead of dicts ``{'image': ..., 'label': ...}``.
        with_info: also return the `DatasetInfo`.
        builder_kwargs: the set's options, e.g. ``{'image_size': 28}`` for digits or
            ``{'image_size': 96, 'num_classes': 2}`` for shapes.
        download: accepted for compatibility; nothing is ever downloaded.

    Returns:
        The dataset(s), and the `DatasetInfo` when ``with_info`` is true.

    Example:
        >>> import companion as tf
        >>> (x, y), info = tf.datasets.load("breast_cancer", split="train[:80%]", batch_size=-1,
        ...                                 as_supervised=True, with_info=True)
        >>> x.shape, info.splits["train[:80%]"].num_examples
        (TensorShape([455, 30]), 455)
    """
    source = builder(name, data_dir=data_dir, **(builder_kwargs or {}))
    options = {"as_supervised": as_supervised, "shuffle_files": shuffle_files, "batch_size": batch_size}
    if split is None:
        result = {s: source.as_dataset(s, **options) for s in source.splits()}
    elif isinstance(split, (list, tuple)):
        result = [source.as_dataset(s, **options) for s in split]
    else:
        result = source.as_dataset(split, **options)
    return (result, source.info) if with_info else result


def as_numpy(dataset):
    """A Dataset as an iterator of NumPy values, or tensors (nested) as NumPy arrays (``tfds.as_numpy``)."""
    if hasattr(dataset, "as_numpy_iterator"):
        return dataset.as_numpy_iterator()
    if isinstance(dataset, dict):
        return {k: as_numpy(v) for k, v in dataset.items()}
    if isinstance(dataset, (list, tuple)):
        return type(dataset)(as_numpy(v) for v in dataset)
    return dataset.numpy() if hasattr(dataset, "numpy") else dataset
