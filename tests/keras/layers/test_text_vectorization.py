"""TextVectorization against TF 2.21's recorded vocabularies and outputs."""

import numpy as np
import pytest

import companion as tf
from companion.keras import layers

TEXTS = ["The cat sat.", "The dog, the CAT!", "a bird"]


def test_adapt_and_int_sequences_as_tf():
    vectorize = layers.TextVectorization(max_tokens=8, output_sequence_length=5)
    vectorize.adapt(TEXTS)
    # TF 2.21: '' pads (0), '[UNK]' is 1, then tokens by frequency
    assert vectorize.get_vocabulary() == ["", "[UNK]", "the", "cat", "sat", "dog", "bird", "a"]
    out = vectorize(tf.constant(["the cat", "unknown bird sat the end"]))
    assert out.dtype == tf.int64 and out.numpy().tolist() == [[2, 3, 0, 0, 0], [1, 6, 4, 2, 1]]
    free = layers.TextVectorization()
    free.adapt(TEXTS)
    assert free(tf.constant(["the cat", "a"])).numpy().tolist() == [[2, 3], [7, 0]]  # padded to the longest
    assert vectorize(tf.constant("the cat")).numpy().tolist() == [2, 3, 0, 0, 0]


def test_modes_standardize_split_and_vocabulary():
    hot = layers.TextVectorization(output_mode="multi_hot")
    hot.adapt(TEXTS)
    assert hot(tf.constant(["the cat cat", "zzz"])).numpy().tolist() == [[0, 1, 1, 0, 0, 0, 0],
                                                                         [1, 0, 0, 0, 0, 0, 0]]
    count = layers.TextVectorization(output_mode="count", standardize=None)
    count.adapt(["A a b"])
    assert count.get_vocabulary() == ["[UNK]", "b", "a", "A"]  # case kept; ties: larger token first
    assert count(tf.constant(["a A a"])).numpy().tolist() == [[0, 0, 2, 1]]
    given = layers.TextVectorization(vocabulary=["x", "y"], output_sequence_length=3)
    assert given(tf.constant(["y x z x"])).numpy().tolist() == [[3, 2, 1]] and given.vocabulary_size() == 4
    whole = layers.TextVectorization(split=None, standardize="lower")
    whole.adapt(["Hello World", "hello world"])
    assert whole.get_vocabulary() == ["", "[UNK]", "hello world"]
    with pytest.raises(ValueError, match="ngrams"):
        layers.TextVectorization(ngrams=2)


def test_in_a_dataset_a_function_and_a_model():
    vectorize = layers.TextVectorization(max_tokens=8, output_sequence_length=5)
    vectorize.adapt(tf.data.Dataset.from_tensor_slices(TEXTS).batch(2))
    batches = tf.data.Dataset.from_tensor_slices(TEXTS).batch(2).map(vectorize)
    assert [b.numpy().tolist() for b in batches] == [[[2, 3, 4, 0, 0], [2, 5, 2, 3, 0]], [[7, 6, 0, 0, 0]]]
    staged = tf.function(lambda texts: vectorize(texts))
    np.testing.assert_array_equal(staged(tf.constant(TEXTS)).numpy(), vectorize(tf.constant(TEXTS)).numpy())
    inputs = tf.keras.Input(shape=(), dtype="string")
    outputs = layers.Dense(1)(layers.GlobalAveragePooling1D()(layers.Embedding(8, 4)(vectorize(inputs))))
    model = tf.keras.Model(inputs, outputs)
    assert model(tf.constant(TEXTS)).shape == (3, 1)


def test_a_text_model_fits_on_numpy_string_arrays():
    """String arrays cannot be gathered inside the compiled step: fit batches them through a Dataset."""
    vectorize = layers.TextVectorization(output_sequence_length=4)
    vectorize.adapt(["good movie", "bad film", "great movie"])
    inputs = tf.keras.Input(shape=(), dtype="string")
    hidden = layers.GlobalAveragePooling1D()(layers.Embedding(10, 4)(vectorize(inputs)))
    model = tf.keras.Model(inputs, layers.Dense(1, activation="sigmoid")(hidden))
    model.compile(optimizer=tf.keras.optimizers.Adam(0.05), loss="binary_crossentropy", metrics=["accuracy"])
    texts = np.array(["good movie", "bad film", "great movie", "bad movie"] * 8)
    labels = np.array([1, 0, 1, 0] * 8, np.float32)
    history = model.fit(texts, labels, epochs=20, batch_size=8, verbose=0, validation_split=0.25)
    assert sorted(history.history) == ["accuracy", "loss", "val_accuracy", "val_loss"]
    assert history.history["loss"][-1] < history.history["loss"][0]
    assert model.evaluate(texts, labels, verbose=0)[1] == 1.0
    assert model.predict(texts[:2], verbose=0).shape == (2, 1)
