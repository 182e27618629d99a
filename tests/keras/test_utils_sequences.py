"""keras.utils.pad_sequences (also in keras.preprocessing.sequence) and normalize, as TF 2.21 gives them."""

import numpy as np
import pytest

import companion as tf

pad = tf.keras.utils.pad_sequences


def test_pad_sequences_pads_and_truncates_before_by_default():
    assert pad([[1, 2, 3, 4], [5], []]).tolist() == [[1, 2, 3, 4], [0, 0, 0, 5], [0, 0, 0, 0]]
    assert pad([[1, 2, 3, 4], [5]], maxlen=2).tolist() == [[3, 4], [0, 5]]
    assert pad([[1, 2, 3, 4], [5]], maxlen=2, truncating="post", padding="post", value=-1).tolist() == [
        [1, 2], [5, -1]]
    assert pad([[1.5, 2.5]], maxlen=3).dtype == np.int32
    assert pad([[1.5, 2.5]], maxlen=3, dtype="float32").tolist() == [[0.0, 1.5, 2.5]]
    assert pad([np.ones((2, 3)), np.ones((1, 3))]).shape == (2, 2, 3)
    assert pad([["a", "b"], ["c"]], dtype=object, value="").tolist() == [["a", "b"], ["", "c"]]
    assert tf.keras.preprocessing.sequence.pad_sequences([[1], [2, 3]]).tolist() == [[0, 1], [2, 3]]
    with pytest.raises(ValueError, match="list of sequences"):
        pad(5)
    with pytest.raises(ValueError, match="padding"):
        pad([[1]], padding="mid")


def test_normalize_numpy_and_tensors():
    np.testing.assert_allclose(tf.keras.utils.normalize(np.array([[3.0, 4.0], [0.0, 0.0]])),
                               [[0.6, 0.8], [0.0, 0.0]])
    # Keras 3 expands the norms along `axis or -1`: axis=0 divides rows by the column norms
    np.testing.assert_allclose(tf.keras.utils.normalize(np.array([[3.0, 4.0], [1.0, 1.0]]), axis=0, order=1),
                               [[0.75, 1.0], [0.2, 0.2]])
    tensor = tf.keras.utils.normalize(tf.constant([[3.0, 4.0]]))
    assert tf.is_tensor(tensor)
    np.testing.assert_allclose(tensor.numpy(), [[0.6, 0.8]], rtol=1e-6)


def _items(dataset):
    return [[np.asarray(p).tolist() for p in item] if isinstance(item, tuple) else np.asarray(item).tolist()
            for item in dataset.as_numpy_iterator()]


def test_timeseries_windows_as_tensorflow_gives_them():
    x = np.arange(20)
    windows = _items(tf.keras.utils.timeseries_dataset_from_array(x, None, 3, batch_size=4))
    assert len(windows) == 5 and windows[1] == [[4, 5, 6], [5, 6, 7], [6, 7, 8], [7, 8, 9]]
    strided = _items(tf.keras.utils.timeseries_dataset_from_array(x, x * 10, 4, sequence_stride=3,
                                                                  sampling_rate=2, batch_size=2))
    assert len(strided) == 3 and strided[0] == [[[0, 2, 4, 6], [3, 5, 7, 9]], [0, 30]]
    bounded = _items(tf.keras.utils.timeseries_dataset_from_array(x, x * 10, 5, start_index=3, end_index=15,
                                                                  batch_size=3))
    assert bounded[0] == [[[3, 4, 5, 6, 7], [4, 5, 6, 7, 8], [5, 6, 7, 8, 9]], [30, 40, 50]]
    unbatched = _items(tf.keras.utils.timeseries_dataset_from_array(x.reshape(10, 2), x[:10] * 10, 3,
                                                                    batch_size=None))
    assert len(unbatched) == 8 and unbatched[1] == [[[2, 3], [4, 5], [6, 7]], 10]
    shuffled = tf.keras.utils.timeseries_dataset_from_array(x, x * 10, 3, shuffle=True, seed=1, batch_size=4)
    labels = sorted(int(v) for _, batch in shuffled.as_numpy_iterator() for v in batch)
    assert labels == list(range(0, 180, 10))  # every window once, in another order
    with pytest.raises(ValueError, match="sequence_stride"):
        tf.keras.utils.timeseries_dataset_from_array(x, None, 3, sequence_stride=0)
