"""CSV reading: io.decode_csv, data.experimental.CsvDataset and make_csv_dataset, checked against
Python's csv module reading the same files."""

import csv
import os

import numpy as np
import pytest

import companion as tf

ROWS = [["survived", "sex", "age", "fare", "note"],
        ["0", "male", "22.0", "7.25", "a, b"],
        ["1", "female", "38.0", "71.2833", ""],
        ["1", "female", "", "7.925", "x"],
        ["0", "male", "35", "8.05", 'say "hi"'],
        ["1", "male", "28", "13", "z"]]


@pytest.fixture
def titanic(tmp_path):
    path = tmp_path / "titanic.csv"
    with open(path, "w", newline="") as handle:
        csv.writer(handle, lineterminator="\n").writerows(ROWS)
    return str(path)


def test_decode_csv_types_defaults_and_quotes():
    ints, floats, words = tf.io.decode_csv(['1,2.5,"x,y"', '3,,z'], [[0], [-1.0], [""]])
    assert ints.dtype == tf.int32 and floats.dtype == tf.float32 and words.dtype == tf.string
    np.testing.assert_array_equal(ints.numpy(), [1, 3])
    np.testing.assert_array_equal(floats.numpy(), [2.5, -1.0])
    assert words.numpy().tolist() == [b"x,y", b"z"]
    grid = tf.io.decode_csv(tf.constant([["1;2"], ["3;4"]]), [[0], [0]], field_delim=";")
    assert grid[1].shape == (2, 1) and grid[1].numpy().tolist() == [[2], [4]]
    picked = tf.io.decode_csv(["1,2,3"], [[0], [0]], select_cols=[0, 2])
    assert [int(t[0]) for t in picked] == [1, 3]


def test_decode_csv_refuses_bad_records_clearly():
    with pytest.raises(tf.errors.InvalidArgumentError, match="expect 1 fields but have 2"):
        tf.io.decode_csv(["1,2"], [[0]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="required but missing"):
        tf.io.decode_csv([",1"], [tf.int32, [0]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="not a valid int32"):
        tf.io.decode_csv(["1.5"], [[0]])
    with pytest.raises(TypeError, match="float32, float64, int32, int64 or string"):
        tf.io.decode_csv(["1"], [[True]])


def test_csv_dataset_reads_every_record_as_pythons_csv_module_does(titanic):
    defaults = [tf.int32, ["?"], [0.0], [0.0], ["none"]]
    rows = list(tf.data.experimental.CsvDataset(titanic, defaults, header=True))
    expected = ROWS[1:]
    assert len(rows) == len(expected)
    for row, want in zip(rows, expected):
        assert int(row[0]) == int(want[0]) and row[1].numpy().decode() == want[1]
        assert float(row[2]) == pytest.approx(float(want[2] or 0.0))
        assert row[4].numpy().decode() == (want[4] or "none")
    fares = tf.data.experimental.CsvDataset(titanic, [[0.0]], header=True, select_cols=[3])
    np.testing.assert_allclose([float(f[0]) for f in fares], [float(r[3]) for r in expected], rtol=1e-6)


def test_make_csv_dataset_infers_types_batches_and_splits_the_label(titanic):
    ds = tf.data.experimental.make_csv_dataset(titanic, batch_size=2, label_name="survived", num_epochs=1,
                                               shuffle=False)
    spec_features, spec_label = ds.element_spec
    assert list(spec_features) == ["sex", "age", "fare", "note"]
    assert spec_features["age"].dtype == tf.float32 and spec_label.dtype == tf.int32
    assert spec_features["age"].shape.as_list() == [None]
    batches = list(ds)
    assert [len(label) for _, label in batches] == [2, 2, 1]
    ages = np.concatenate([f["age"].numpy() for f, _ in batches])
    np.testing.assert_allclose(ages, [22.0, 38.0, 0.0, 35.0, 28.0])
    labels = np.concatenate([label.numpy() for _, label in batches])
    np.testing.assert_array_equal(labels, [int(r[0]) for r in ROWS[1:]])


def test_make_csv_dataset_repeats_forever_by_default_and_drops_partial_batches(titanic):
    ds = tf.data.experimental.make_csv_dataset(titanic, batch_size=4, shuffle=False)
    first = [batch["fare"].shape[0] for batch in ds.take(5)]
    assert first == [4] * 5
    shuffled = tf.data.experimental.make_csv_dataset(titanic, batch_size=5, num_epochs=1, shuffle_seed=3)
    fares = sorted(np.concatenate([b["fare"].numpy() for b in shuffled]).tolist())
    np.testing.assert_allclose(fares, sorted(float(r[3]) for r in ROWS[1:]), rtol=1e-6)
    picked = tf.data.experimental.make_csv_dataset(titanic, batch_size=5, num_epochs=1, shuffle=False,
                                                   select_columns=["fare", "sex"])
    assert list(next(iter(picked))) == ["sex", "fare"]


def test_make_csv_dataset_explains_bad_arguments(titanic, tmp_path):
    with pytest.raises(ValueError, match="label_name"):
        tf.data.experimental.make_csv_dataset(titanic, 2, label_name="nope")
    with pytest.raises(ValueError, match="no files match"):
        tf.data.experimental.make_csv_dataset(os.path.join(tmp_path, "missing*.csv"), 2)
    with pytest.raises(ValueError, match="column_names"):
        tf.data.experimental.make_csv_dataset(titanic, 2, header=False)


def test_ignore_errors_drops_bad_records_and_failing_elements(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("a,b\n1,x\nbad,y\n3,z\n")
    rows = tf.data.experimental.CsvDataset(str(path), [[0], [""]], header=True)
    with pytest.raises(tf.errors.InvalidArgumentError, match="'bad' is not a valid int32"):
        list(rows)
    assert [int(a) for a, _ in rows.ignore_errors()] == [1, 3]
    assert [int(a) for a, _ in rows.apply(tf.data.experimental.ignore_errors())] == [1, 3]
    batch = next(iter(tf.data.experimental.make_csv_dataset(str(path), 5, column_defaults=[[0], [""]],
                                                            num_epochs=1, shuffle=False, ignore_errors=True)))
    np.testing.assert_array_equal(batch["a"].numpy(), [1, 3])
    values = tf.data.Dataset.from_tensor_slices([1.0, 0.0, 2.0, 0.0, 4.0])
    inverted = values.map(lambda x: tf.debugging.check_numerics(1.0 / x, "inf"))
    assert [float(x) for x in inverted.ignore_errors()] == [1.0, 0.5, 0.25]
    parallel = values.map(lambda x: tf.debugging.check_numerics(1.0 / x, "inf"), num_parallel_calls=2)
    assert [float(x) for x in parallel.ignore_errors()] == [1.0, 0.5, 0.25]
    words = tf.data.Dataset.from_tensor_slices(["1", "x", "3"]).map(tf.strings.to_number)
    assert [float(x) for x in words.ignore_errors()] == [1.0, 3.0]
