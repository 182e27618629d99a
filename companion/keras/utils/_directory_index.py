"""The directory walking shared by ``image_dataset_from_directory`` and ``text_dataset_from_directory``.

This is Keras 3's ``keras.src.utils.dataset_utils`` (``index_directory``, the training/validation
split and its argument checks), kept step for step: files are listed class folder by class folder
(alphanumeric order), then shuffled with ``np.random.RandomState(seed)``, so the same seed gives
TensorFlow's file order and the same split.
"""

import os

import numpy as np

from companion._core._convert import constant
from companion.data import AUTOTUNE, Dataset

LABEL_MODES = ("int", "categorical", "binary", None)


def check_arguments(labels, label_mode, class_names, what):
    """Keras's checks of ``labels``/``label_mode``/``class_names``; ``(labels, label_mode)`` with both
    None when either says "no labels"."""
    if labels not in ("inferred", None):
        if not isinstance(labels, (list, tuple)):
            raise ValueError(f"`labels` must be 'inferred' (labels from the subdirectory names), None (no "
                             f"labels), or a list/tuple of integer labels, one per {what} file in the "
                             "directory (in alphanumeric order of the file paths). Received: "
                             f"labels={labels!r}")
        if class_names:
            raise ValueError(f"`class_names` can only be passed with labels='inferred'. Received: "
                             f"labels={labels!r}, and class_names={class_names!r}")
    if label_mode not in LABEL_MODES:
        raise ValueError(f"`label_mode` must be one of 'int', 'categorical', 'binary', or None. Received: "
                         f"label_mode={label_mode!r}")
    if labels is None or label_mode is None:
        return None, None
    return labels, label_mode


def check_validation_split_arg(validation_split, subset, shuffle, seed):
    """Keras's checks of ``validation_split``/``subset``/``seed`` (raises ValueError)."""
    if validation_split and not 0 < validation_split < 1:
        raise ValueError(f"`validation_split` must be between 0 and 1 (exclusive). Received: "
                         f"validation_split={validation_split!r}")
    if (validation_split or subset) and not (validation_split and subset):
        raise ValueError("`subset` and `validation_split` must be given together (or neither). Received: "
                         f"validation_split={validation_split!r}, subset={subset!r}")
    if subset not in ("training", "validation", "both", None):
        raise ValueError(f"`subset` must be 'training', 'validation' or 'both'. Received: subset={subset!r}")
    if validation_split and shuffle and seed is None:
        raise ValueError("With `validation_split` and shuffle=True, pass a `seed`, so that the training and "
                         "validation subsets do not overlap. Received: seed=None")


def index_directory(directory, labels, formats, class_names=None, shuffle=True, seed=None,
                    follow_links=False, verbose=True):
    """``(file_paths, labels, class_names)`` of the files under ``directory`` whose names end with one
    of ``formats`` (case-insensitive), as Keras's ``dataset_utils.index_directory``.

    With ``labels='inferred'`` each non-hidden subdirectory is a class (alphanumeric order, or the
    order of ``class_names``) and ``labels`` is an int32 array; with a list the files are indexed
    from ``directory`` down and ``class_names`` are the sorted distinct labels as strings; with None
    there are no labels nor class names. ``shuffle`` permutes paths and labels alike with
    ``np.random.RandomState(seed)`` (a random seed when None).
    """
    if labels == "inferred":
        subdirs = []
        for subdir in sorted(os.listdir(directory)):
            if os.path.isdir(os.path.join(directory, subdir)) and not subdir.startswith("."):
                subdirs.append(subdir)
        if class_names is not None:
            if not set(class_names).issubset(set(subdirs)):
                raise ValueError(f"The `class_names` passed do not match the names of the subdirectories of "
                                 f"{str(directory)!r}. Expected: {subdirs} (or a subset of it). Received: "
                                 f"class_names={list(class_names)}")
            subdirs = list(class_names)  # keeps the order given
    else:  # explicit labels or none: the files are indexed from `directory` down
        subdirs = [""]
        if class_names is not None:
            raise ValueError("`class_names` can only be passed with labels='inferred' (without labels there "
                             "are no classes; with a list of labels the class names are the sorted labels). "
                             f"Received: labels={'None' if labels is None else 'a list'}, "
                             f"class_names={class_names!r}")
    class_indices = {name: index for index, name in enumerate(subdirs)}
    filenames, label_parts = [], []
    for subdir in subdirs:
        names, indices = _index_subdirectory(os.path.join(directory, subdir), class_indices, follow_links,
                                             formats)
        filenames += names
        label_parts.append(indices)
    if labels == "inferred":
        class_names = subdirs
        labels = np.array([i for part in label_parts for i in part], dtype="int32")
    elif labels is None:
        class_names = None
    else:
        if len(labels) != len(filenames):
            raise ValueError(f"`labels` must have one label per file: found {len(filenames)} files in "
                             f"directory {str(directory)!r}. Received: {len(labels)} labels")
        labels = list(labels)  # shuffled below: the caller's list stays as it was
        class_names = [str(label) for label in sorted(set(labels))]
    if verbose:
        if labels is None:
            print(f"Found {len(filenames)} files.")
        else:
            print(f"Found {len(filenames)} files belonging to {len(class_names)} classes.")
    file_paths = [os.path.join(directory, name) for name in filenames]
    if shuffle:  # globally, to erase the class-by-class order
        if seed is None:
            seed = np.random.randint(1e6)
        np.random.RandomState(seed).shuffle(file_paths)
        if labels is not None:
            np.random.RandomState(seed).shuffle(labels)
    return file_paths, labels, class_names


def _index_subdirectory(directory, class_indices, follow_links, formats):
    """The paths (relative to ``directory``'s parent) of the files with an allowed extension under
    ``directory``, walked in sorted order, and their class index."""
    dirname = os.path.basename(directory)
    filenames, labels = [], []
    for root, _, files in sorted(os.walk(directory, followlinks=follow_links), key=lambda entry: entry[0]):
        for fname in sorted(files):
            if fname.lower().endswith(formats):
                labels.append(class_indices[dirname])
                filenames.append(os.path.join(dirname, os.path.relpath(os.path.join(root, fname), directory)))
    return filenames, labels


def split(samples, labels, validation_split, subset):
    """``(samples, labels)`` restricted to the ``subset`` ('training': all but the last
    ``int(validation_split * n)``, 'validation': those), with Keras's "Using N files" message."""
    if not validation_split:
        return samples, labels
    count = int(validation_split * len(samples))
    if subset == "training":
        print(f"Using {len(samples) - count} files for training.")
        return samples[:-count], None if labels is None else labels[:-count]
    if subset == "validation":
        print(f"Using {count} files for validation.")
        return samples[-count:], None if labels is None else labels[-count:]
    raise ValueError(f"`subset` must be 'training' or 'validation'. Received: subset={subset!r}")


def shuffle_buffer_size(batch_size):
    """Keras's shuffle buffer: 8 batches, or 1024 elements when unbatched."""
    return 1024 if batch_size is None else batch_size * 8


def labels_dataset(labels, label_mode, num_classes):
    """The labels as a Dataset: int32 (``'int'``), float32 ``[1]`` 0/1 (``'binary'``), or float32 one-hot
    rows of ``num_classes`` (``'categorical'``; a label outside ``[0, num_classes)`` gives zeros, as
    ``tf.one_hot``)."""
    values = _label_array(labels)
    if label_mode == "binary":
        values = values.astype("float32")[:, None]
    elif label_mode == "categorical":
        if values.dtype.kind not in "iu":
            raise ValueError(f"label_mode='categorical' needs integer labels. Received labels of dtype "
                             f"{values.dtype}")
        values = (values[:, None] == np.arange(num_classes)[None, :]).astype("float32")
    return Dataset.from_tensor_slices(constant(values))


def _label_array(labels):
    """The labels as TensorFlow converts the list: integers to int32 (int64 if one does not fit),
    floats to float32."""
    if isinstance(labels, np.ndarray):
        return labels
    values = np.asarray(labels)
    if values.dtype.kind in "iu":
        fits = values.size == 0 or (values.min() >= -2**31 and values.max() < 2**31)
        return values.astype("int32" if fits else "int64")
    if values.dtype.kind == "f":
        return values.astype("float32")
    if values.dtype.kind == "b":
        return values
    raise ValueError(f"`labels` must be numbers (integer class indices). Received labels of dtype "
                     f"{values.dtype}: {list(labels)[:3]!r}...")


def finish(dataset, batch_size):
    """Keras's last steps: ``batch(batch_size)`` (unless None), then ``prefetch(AUTOTUNE)``."""
    if batch_size is not None:
        dataset = dataset.batch(batch_size)
    return dataset.prefetch(AUTOTUNE)
