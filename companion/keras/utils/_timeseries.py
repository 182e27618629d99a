"""`timeseries_dataset_from_array`: sliding windows over a time series as a batched `Dataset`."""

import numpy as np

from companion._core._convert import constant


def timeseries_dataset_from_array(data, targets, sequence_length, sequence_stride=1, sampling_rate=1,
                                  batch_size=128, shuffle=False, seed=None, start_index=None,
                                  end_index=None):
    """Windows of ``sequence_length`` time steps (every ``sampling_rate``-th step) of ``data``, a window
    starting every ``sequence_stride`` steps, paired with the ``targets`` entry at each window's start.

    Args:
        data: an array of time steps (first axis: time).
        targets: an array aligned with ``data`` (window ``i`` gets ``targets[start_i]``), or None
            for windows alone.
        sequence_length, sequence_stride, sampling_rate: the window length (in samples), the step
            between window starts and between samples.
        batch_size: windows per batch (None: unbatched).
        shuffle, seed: shuffle the window starts (NumPy's ``RandomState(seed)``, as Keras), and
            the windows in a buffer of ``8 * batch_size``.
        start_index, end_index: use ``data[start_index:end_index]`` only.

    Example:
        >>> import numpy as np
        >>> import companion as tf
        >>> ds = tf.keras.utils.timeseries_dataset_from_array(np.arange(10), None, 3, batch_size=2)
        >>> next(iter(ds)).numpy().tolist()
        [[0, 1, 2], [1, 2, 3]]
    """
    # deferred: companion.data is built on the core this package imports (an upward import is a cycle)
    from companion.data import Dataset

    data = np.asarray(data)
    start, end = _bounds(len(data), start_index, end_index)
    for name, value in (("sampling_rate", sampling_rate), ("sequence_stride", sequence_stride)):
        if value <= 0 or value >= len(data):
            raise ValueError(f"`{name}` must be higher than 0 and lower than the length of the data "
                             f"({len(data)}). Received: {name}={value}")
    count = end - start - (sequence_length - 1) * sampling_rate
    if targets is not None:
        targets = np.asarray(targets)
        count = min(count, len(targets))
    positions = np.arange(0, max(count, 0), sequence_stride, dtype=np.int32)
    if shuffle:
        rng = np.random.RandomState(np.random.randint(1e6) if seed is None else seed)
        rng.shuffle(positions)
    windows = positions[:, None] + np.arange(sequence_length, dtype=np.int32)[None, :] * sampling_rate
    steps = constant(data[start:end])
    dataset = Dataset.from_tensor_slices(windows).map(lambda index: _gather(steps, index))
    if targets is not None:
        labels = constant(targets[start:end])
        aligned = Dataset.from_tensor_slices(positions).map(lambda i: _gather(labels, i))
        dataset = Dataset.zip((dataset, aligned))
    if batch_size is None:
        return dataset.shuffle(1024, seed=seed) if shuffle else dataset
    if shuffle:
        dataset = dataset.shuffle(batch_size * 8, seed=seed)
    return dataset.batch(batch_size)


def _gather(values, index):
    # deferred: the op layer is built on this module's package (an upward import is a cycle)
    from companion._ops._select import gather

    return gather(values, index)


def _bounds(length, start_index, end_index):
    if start_index and not 0 <= start_index < length:
        raise ValueError(f"`start_index` must be 0 or greater and lower than the length of the data "
                         f"({length}). Received: start_index={start_index}")
    if end_index and (end_index >= length or end_index <= 0 or (start_index and end_index <= start_index)):
        raise ValueError(f"`end_index` must be higher than 0 and than `start_index`, and lower than the "
                         f"length of the data ({length}). Received: start_index={start_index}, "
                         f"end_index={end_index}")
    return start_index or 0, end_index or length
