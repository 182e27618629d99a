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
