"""`text_dataset_from_directory`: a `Dataset` of the contents of ``.txt`` files (and labels).

Keras 3's pipeline: the files are indexed and shuffled as TensorFlow does (`_directory_index`),
then each file is read as one string when the dataset is iterated.
"""

import numpy as np

from companion._core._convert import constant
from companion.data import AUTOTUNE, Dataset
from companion.io import read_file
from companion.keras.utils import _directory_index


def text_dataset_from_directory(directory, labels="inferred", label_mode="int", class_names=None,
                                batch_size=32, max_length=None, shuffle=True, seed=None,
                                validation_split=None, subset=None, follow_links=False, format="tf",
                                verbose=True):
    """A `Dataset` of strings (and labels): the contents of the ``.txt`` files under ``directory``.

    With ``labels="inferred"``, each subdirectory of ``directory`` is a class (``class_a/``,
    ``class_b/`` give labels 0 and 1, in alphanumeric order), searched recursively.

    Args:
        directory: the folder of the data.
        labels: ``"inferred"`` (from the subdirectory names), None (texts only), or a list/tuple
            of integer labels, one per text file in the alphanumeric order of the file paths.
        label_mode: ``"int"`` (int32 labels), ``"categorical"`` (float32 one-hot rows),
            ``"binary"`` (float32 ``[1]`` of 0 or 1; exactly 2 classes), or None (no labels).
        class_names: with ``labels="inferred"``, the subdirectories to use and their order.
        batch_size: texts per batch (None: single strings).
        max_length: keep at most this many bytes of each text (None: all of it).
        shuffle: shuffle the files (a seeded global permutation, then a buffer of 8 batches while
            iterating); False keeps the alphanumeric order.
        seed: the seed of both shuffles (needed with ``validation_split`` and ``shuffle``).
        validation_split, subset: keep the last ``int(validation_split * n)`` files for
            ``subset="validation"``, the others for ``"training"``; ``"both"`` returns the pair
            ``[training, validation]``.
        follow_links: also walk into symlinked subdirectories.
        format: ``"tf"`` only (a companion Dataset).
        verbose: print how many files and classes were found.

    Returns:
        A `Dataset` of ``(texts, labels)`` (``texts`` alone with no labels), ``texts`` string
        tensors of shape ``[batch]``. It has the attribute ``class_names``.

    Raises:
        ValueError: an invalid argument, no text files found, or a ``label_mode="binary"`` with
            other than 2 classes.
        NotImplementedError: ``format="grain"``.

    Example:
        >>> import os, tempfile
        >>> import companion as tf
        >>> root = tempfile.mkdtemp()
        >>> for name, text in (("neg", "bad film"), ("pos", "great film")):
        ...     os.mkdir(os.path.join(root, name))
        ...     with open(os.path.join(root, name, "review.txt"), "w") as file:
        ...         _ = file.write(text)
        >>> ds = tf.keras.utils.text_dataset_from_directory(root, shuffle=False, max_length=5)
        Found 2 files belonging to 2 classes.
        >>> texts, labels = next(iter(ds))
        >>> texts.numpy().tolist(), labels.numpy().tolist(), ds.class_names
        ([b'bad f', b'great'], [0, 1], ['neg', 'pos'])
    """
    labels, label_mode = _directory_index.check_arguments(labels, label_mode, class_names, "text")
    if format == "grain":
        raise NotImplementedError("format='grain' (a grain.IterDataset) is not available in companion; use "
                                  "format='tf' for a companion.data.Dataset.")
    if format != "tf":
        raise ValueError(f"`format` must be 'tf' or 'grain'. Received: format={format!r}")
    integer = isinstance(max_length, (int, np.integer)) and not isinstance(max_length, bool)
    if max_length is not None and (not integer or max_length < 0):
        raise ValueError(f"`max_length` must be None or a non-negative integer (a number of bytes). "
                         f"Received: max_length={max_length!r}")
    _directory_index.check_validation_split_arg(validation_split, subset, shuffle, seed)
    if seed is None:
        seed = np.random.randint(1e6)
    file_paths, labels, class_names = _directory_index.index_directory(
        directory, labels, formats=(".txt",), class_names=class_names, shuffle=shuffle, seed=seed,
        follow_links=follow_links, verbose=verbose)
    if label_mode == "binary" and len(class_names) != 2:
        raise ValueError(f"label_mode='binary' needs exactly 2 classes. Received: class_names={class_names}")
    num_classes = len(class_names) if class_names else 0
    buffer = _directory_index.shuffle_buffer_size(batch_size)
    if subset == "both":
        parts = [(*_directory_index.split(file_paths, labels, validation_split, name), name)
                 for name in ("training", "validation")]
        for paths, _, name in parts:
            if not paths:
                raise ValueError(f"No {name} text files found in directory {str(directory)!r}. Allowed "
                                 "format: .txt")
        parts = [(paths, part_labels, shuffle if name == "training" else False)
                 for paths, part_labels, name in parts]
    else:
        paths, part_labels = _directory_index.split(file_paths, labels, validation_split, subset)
        if not paths:
            raise ValueError(f"No text files found in directory {str(directory)!r}. Allowed format: .txt")
        parts = [(paths, part_labels, shuffle)]
    datasets = []
    for paths, part_labels, shuffled in parts:
        dataset = Dataset.from_tensor_slices(paths)
        if label_mode:
            dataset = Dataset.zip((dataset, _directory_index.labels_dataset(part_labels, label_mode,
                                                                            num_classes)))
        if shuffled:
            dataset = dataset.shuffle(buffer_size=buffer, seed=seed)
        reader = _TextReader(max_length)
        if label_mode:
            dataset = dataset.map(lambda path, label, read=reader: (read(path), label),
                                  num_parallel_calls=AUTOTUNE)
        else:
            dataset = dataset.map(reader, num_parallel_calls=AUTOTUNE)
        dataset = _directory_index.finish(dataset, batch_size)
        dataset.class_names = class_names
        datasets.append(dataset)
    return datasets if subset == "both" else datasets[0]


class _TextReader:
    """A file → its contents as a string tensor, the first ``max_length`` bytes (``tf.strings.substr``)."""

    def __init__(self, max_length):
        self.max_length = max_length

    def __call__(self, path):
        text = read_file(path)
        if self.max_length is None:
            return text
        return constant(text.numpy()[:self.max_length])
