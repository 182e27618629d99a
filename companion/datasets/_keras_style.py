"""``keras.datasets``-style loaders: one ``<name>_load_data()`` per set, returning NumPy arrays.

Each returns ``((x_train, y_train), (x_test, y_test))`` like ``keras.datasets.mnist.load_data()``:
images without a channels axis when they have one channel, ``uint8`` labels for image sets.
Sets with a single split (digits, breast_cancer) are divided with ``test_split`` after a
seeded shuffle, as ``keras.datasets.boston_housing.load_data`` does.
"""

import numpy as np

from companion.datasets import _load


def mnist_load_data(path=None):
    """MNIST from the local cache: x ``uint8 [60000, 28, 28]``, y ``uint8 [60000]`` (and 10,000 test).

    Args:
        path: the cache root (default: ``$COMPANION_DATA_DIR``, else ``~/.companion/datasets``);
            the four IDX files are read from ``<path>/mnist/``.
    """
    return _train_test(_load.builder("mnist", data_dir=path), squeeze=True)


def fashion_mnist_load_data(path=None):
    """Fashion-MNIST from the local cache (files in ``<path>/fashion_mnist/``), like `mnist_load_data`."""
    return _train_test(_load.builder("fashion_mnist", data_dir=path), squeeze=True)


def shapes_load_data(image_size=64, num_classes=5, train_size=1000, test_size=200, seed=0):
    """The generated ``shapes`` set: x ``uint8 [n, image_size, image_size, 3]``, y ``uint8 [n]``.

    Example:
        >>> from companion.datasets._keras_style import shapes_load_data
        >>> (x_train, y_train), (x_test, y_test) = shapes_load_data(image_size=32, train_size=10, test_size=4)
        >>> x_train.shape, y_test.shape
        ((10, 32, 32, 3), (4,))
    """
    source = _load.builder("shapes", image_size=image_size, num_classes=num_classes, train_size=train_size,
                           test_size=test_size, seed=seed)
    return _train_test(source, squeeze=False)


def digits_load_data(image_size=8, test_split=0.2, seed=113):
    """scikit-learn's digits: x ``uint8 [n, image_size, image_size]`` (0-255), y ``uint8 [n]``.

    Example:
        >>> from companion.datasets._keras_style import digits_load_data
        >>> (x_train, y_train), (x_test, y_test) = digits_load_data()
        >>> x_train.shape, x_test.shape
        ((1437, 8, 8), (360, 8, 8))
    """
    arrays = _load.builder("digits", image_size=image_size).as_arrays("train")
    return _divide(arrays["image"][..., 0], arrays["label"].astype(np.uint8), test_split, seed)


def breast_cancer_load_data(test_split=0.2, seed=113):
    """The breast cancer table: x ``float32 [n, 30]``, y ``int64 [n]`` (0 malignant, 1 benign).

    Example:
        >>> from companion.datasets._keras_style import breast_cancer_load_data
        >>> (x_train, y_train), (x_test, y_test) = breast_cancer_load_data()
        >>> x_train.shape, x_test.shape
        ((455, 30), (114, 30))
    """
    arrays = _load.builder("breast_cancer").as_arrays("train")
    return _divide(arrays["features"], arrays["label"], test_split, seed)


def _train_test(source, squeeze):
    out = []
    for split in ("train", "test"):
        arrays = source.as_arrays(split)
        images = arrays["image"][..., 0] if squeeze else arrays["image"]
        out.append((np.array(images), arrays["label"].astype(np.uint8)))
    return tuple(out)


def _divide(x, y, test_split, seed):
    if not 0.0 <= test_split < 1.0:
        raise ValueError(f"test_split must be in [0, 1): the fraction of examples kept for testing. "
                         f"Received: test_split={test_split!r}")
    order = np.random.default_rng(seed).permutation(len(x))
    cut = int(len(x) * (1 - test_split))
    return (x[order[:cut]], y[order[:cut]]), (x[order[cut:]], y[order[cut:]])
