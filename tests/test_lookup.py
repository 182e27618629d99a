"""companion.lookup tables against Python dicts, and the out-of-vocabulary ids against TF's hash."""

import numpy as np
import pytest

import companion as tf


def test_static_hash_table_is_a_dict_lookup_with_a_default():
    words = ["apple", "banana", "cherry", "date"]
    ids = tf.constant([3, 1, 4, 1], tf.int64)
    table = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(words, ids), -1)
    reference = dict(zip(words, [3, 1, 4, 1]))
    query = np.array([["date", "fig"], ["apple", "cherry"]], dtype=object)
    expected = [[reference.get(w, -1) for w in row] for row in query.tolist()]
    assert table.lookup(tf.constant(query)).numpy().tolist() == expected
    assert int(table.size()) == 4 and table.key_dtype == tf.string and table.value_dtype == tf.int64
    keys, values = table.export()
    assert dict(zip(keys.numpy().tolist(), values.numpy().tolist())) == {w.encode(): v
                                                                        for w, v in reference.items()}
    with pytest.raises(TypeError, match="key dtype string"):
        table.lookup(tf.constant([1, 2]))


def test_numeric_tables_run_inside_function_on_computed_keys():
    keys = np.array([40, 10, 30, 20], np.int64)
    values = np.array([4.0, 1.0, 3.0, 2.0], np.float32)
    table = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(keys, values), -1.0)

    @tf.function
    def doubled(x):
        return table.lookup(x * 10) * 2.0

    np.testing.assert_array_equal(doubled(tf.constant([1, 5, 3], tf.int64)).numpy(), [2.0, -2.0, 6.0])
    np.testing.assert_array_equal(table[tf.constant([20, 21], tf.int64)].numpy(), [2.0, -1.0])


def test_vocabulary_table_gives_oov_ids_from_tf_farmhash():
    init = tf.lookup.KeyValueTensorInitializer(["a", "b"], tf.constant([0, 1], tf.int64))
    table = tf.lookup.StaticVocabularyTable(init, num_oov_buckets=3)
    ids = table.lookup(tf.constant(["b", "zebra", "a", "kiwi"])).numpy()
    buckets = tf.strings.to_hash_bucket_fast(tf.constant(["zebra", "kiwi"]), 3).numpy()
    np.testing.assert_array_equal(ids, [1, 2 + buckets[0], 0, 2 + buckets[1]])
    assert int(table.size()) == 5
    numbers = tf.constant([10, 20], tf.int64)
    ints = tf.lookup.StaticVocabularyTable(
        tf.lookup.KeyValueTensorInitializer(numbers, tf.constant([0, 1], tf.int64)), 4)
    oov = tf.strings.to_hash_bucket_fast(tf.constant(["7"]), 4).numpy()[0]
    assert ints.lookup(tf.constant([20, 7], tf.int64)).numpy().tolist() == [1, 2 + oov]
    with pytest.raises(ValueError, match="num_oov_buckets must be > 0"):
        tf.lookup.StaticVocabularyTable(init, 0)


def test_text_file_initializer_reads_lines_and_numbers(tmp_path):
    path = tmp_path / "vocab.txt"
    path.write_text("red\tR\ngreen\tG\nblue\tB\n")
    by_word = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
        str(path), tf.string, 0, tf.int64, tf.lookup.TextFileIndex.LINE_NUMBER), -1)
    assert by_word.lookup(tf.constant(["blue", "red", "pink"])).numpy().tolist() == [2, 0, -1]
    by_line = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
        str(path), tf.int64, tf.lookup.TextFileIndex.LINE_NUMBER, tf.string, 1), "?")
    assert by_line.lookup(tf.constant([1, 5], tf.int64)).numpy().tolist() == [b"G", b"?"]
    with pytest.raises(tf.errors.NotFoundError):
        tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
            str(tmp_path / "missing.txt"), tf.string, 0, tf.int64, -1), -1)


def test_mutable_hash_table_inserts_removes_and_exports():
    table = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, default_value=-1)
    table.insert(tf.constant(["a", "b"]), tf.constant([1, 2], tf.int64))
    table.insert(tf.constant(["b"]), tf.constant([5], tf.int64))
    assert table.lookup(tf.constant(["a", "b", "c"])).numpy().tolist() == [1, 5, -1]
    table.remove(tf.constant(["a", "zzz"]))
    assert int(table.size()) == 1 and table.lookup(tf.constant(["a"])).numpy().tolist() == [-1]
    with pytest.raises(tf.errors.InvalidArgumentError, match="keys' shape"):
        table.insert(tf.constant(["x"]), tf.constant([1, 2], tf.int64))


def test_tables_in_dataset_map():
    table = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(["x", "y"], [7, 8]), 0)
    mapped = tf.data.Dataset.from_tensor_slices(["y", "q", "x"]).map(table.lookup)
    assert [int(v) for v in mapped] == [8, 0, 7]
