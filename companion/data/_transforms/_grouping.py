"""`group_by_window`, `bucket_by_sequence_length` and `unique`: elements regrouped by a key."""

import numpy as np

from companion.data import _structure, _values
from companion.data._autotune import UNKNOWN_CARDINALITY
from companion.data._functions import ElementFunction, call_args
from companion.data._node import Node, first_element, node_of, wrap


class GroupingMethods:
    """`Dataset.group_by_window`, `Dataset.bucket_by_sequence_length`, `Dataset.unique`."""

    def group_by_window(self, key_func, reduce_func, window_size=None, window_size_func=None, name=None):
        """Groups elements by ``key_func(element)`` (an int64 scalar) into windows, each reduced to a dataset.

        A window is complete when it holds ``window_size`` elements (or
        ``window_size_func(key)``); ``reduce_func(key, window_dataset)`` turns it into a dataset
        whose elements are yielded. At the end, the unfinished windows are reduced too (in the
        order their keys first appeared).

        Example:
            >>> import companion as tf
            >>> ds = tf.data.Dataset.range(10).group_by_window(
            ...     key_func=lambda x: x % 2, reduce_func=lambda k, w: w.batch(3), window_size=3)
            >>> [b.numpy().tolist() for b in ds]
            [[0, 2, 4], [1, 3, 5], [6, 8], [7, 9]]
        """
        if (window_size is None) == (window_size_func is None):
            raise ValueError("group_by_window needs exactly one of window_size and window_size_func.")
        size_of = (lambda key: int(window_size)) if window_size is not None else (
            lambda key: int(window_size_func(_values.to_tensor(np.asarray(key, np.int64)))))
        return wrap(GroupByWindowNode(self._node, ElementFunction(key_func, "group_by_window", compile=False),
                                      reduce_func, size_of))

    def bucket_by_sequence_length(self, element_length_func, bucket_boundaries, bucket_batch_sizes,
                                  padded_shapes=None, padding_values=None, pad_to_bucket_boundary=False,
                                  no_padding=False, drop_remainder=False, name=None):
        """Batches elements of similar length together, padding each batch (``padded_batch``).

        Bucket ``i`` holds lengths in ``[bucket_boundaries[i-1], bucket_boundaries[i])``; it is
        emitted as a batch of ``bucket_batch_sizes[i]`` elements.

        Example:
            >>> import companion as tf
            >>> elements = [[0], [1, 2, 3, 4], [5, 6, 7], [7, 8, 9, 10, 11], [13, 14, 15, 16], [21, 22]]
            >>> ds = tf.data.Dataset.from_generator(lambda: elements, tf.int64, output_shapes=[None])
            >>> ds = ds.bucket_by_sequence_length(lambda e: tf.shape(e)[0], [3, 5], [2, 2, 2])
            >>> [b.numpy().tolist() for b in ds][0]
            [[1, 2, 3, 4], [5, 6, 7, 0]]
        """
        boundaries = [int(b) for b in bucket_boundaries]
        sizes = [int(s) for s in bucket_batch_sizes]
        if len(sizes) != len(boundaries) + 1:
            raise ValueError(f"bucket_by_sequence_length needs len(bucket_batch_sizes) == "
                             f"len(bucket_boundaries) + 1. Received {len(sizes)} batch sizes for "
                             f"{len(boundaries)} boundaries.")
        length_fn = ElementFunction(element_length_func, "bucket_by_sequence_length", compile=False)

        def key_func(*args):
            length = int(np.asarray(length_fn(args, 0)))
            return np.int64(sum(length >= b for b in boundaries))

        def reduce_func(key, window):
            key = int(key)
            if no_padding:
                return window.batch(sizes[key], drop_remainder=drop_remainder)
            shapes = padded_shapes
            if pad_to_bucket_boundary:
                if key == len(boundaries):
                    raise ValueError("pad_to_bucket_boundary=True needs every length below the last "
                                     "bucket boundary.")
                def bucket_shape(s):
                    return [boundaries[key] - 1] + [None] * (s.shape.rank - 1)
                shapes = _structure.map_structure(bucket_shape, window.element_spec)
            return window.padded_batch(sizes[key], padded_shapes=shapes, padding_values=padding_values,
                                       drop_remainder=drop_remainder)

        return self.group_by_window(key_func, reduce_func, window_size_func=lambda key: sizes[int(key)])

    def unique(self, name=None):
        """The elements without repeats, in the order they first appear (scalar int or string elements).

        Example:
            >>> import companion as tf
            >>> [int(x) for x in tf.data.Dataset.from_tensor_slices([1, 1, 2, 3, 2]).unique()]
            [1, 2, 3]
        """
        spec = self._node.spec
        if _structure.is_structure(spec) or spec.shape.rank != 0 or not (
                spec.dtype.is_integer or spec.dtype.name == "string"):
            raise TypeError(f"Dataset.unique needs scalar integer or string elements. Received elements of "
                            f"spec {spec!r}.")
        return wrap(UniqueNode(self._node))


class GroupByWindowNode(Node):
    kind = "_GroupByWindowDataset"

    def __init__(self, node, key_fn, reduce_func, size_of):
        super().__init__(node)
        self._key_fn, self._reduce, self._size_of = key_fn, reduce_func, size_of

    def _compute_spec(self):
        element = first_element(self.inputs[0], "Dataset.group_by_window")
        return self._reduced(self._key(element, 0), [element]).spec

    def cardinality(self):
        return UNKNOWN_CARDINALITY

    def _key(self, element, index):
        key = np.asarray(self._key_fn(call_args(element), index))
        if key.shape != () or key.dtype != np.int64:
            raise TypeError(f"The key_func of group_by_window must return a scalar int64 tensor. It returned "
                            f"dtype {key.dtype} with shape {list(key.shape)}; cast it with "
                            "companion.cast(key, companion.int64).")
        return int(key)

    def _reduced(self, key, elements):
        window = wrap(_WindowNode(elements, self.inputs[0].spec))
        result = self._reduce(_values.to_tensor(np.asarray(key, np.int64)), window)
        return node_of(result, "the reduce_func of group_by_window")

    def _iterate(self, ctx):
        windows = {}
        for index, element in enumerate(self.inputs[0].iterate(ctx)):
            key = self._key(element, index)
            window = windows.setdefault(key, [])
            window.append(element)
            if len(window) >= self._size_of(key):
                del windows[key]
                yield from self._reduced(key, window).iterate(ctx)
        for key, window in windows.items():
            yield from self._reduced(key, window).iterate(ctx)


class _WindowNode(Node):
    """The elements of one window (kept as they came: they may differ in shape), with the input's spec."""

    kind = "_WindowDataset"

    def __init__(self, elements, spec):
        super().__init__()
        self._elements, self._spec = elements, spec

    def cardinality(self):
        return len(self._elements)

    def _iterate(self, ctx):
        yield from self._elements


class UniqueNode(Node):
    kind = "_UniqueDataset"

    def cardinality(self):
        return UNKNOWN_CARDINALITY

    def _iterate(self, ctx):
        seen = set()
        for element in self.inputs[0].iterate(ctx):
            value = np.asarray(element).item()
            if value not in seen:
                seen.add(value)
                yield element


