"""``element_spec`` after each transformation, as TF 2.21 reports it.

The expected reprs were recorded from TF 2.21 (``tf.`` written for ``companion.``).
"""

import numpy as np

import companion as tf
from companion.data import Dataset


def _r(ds):
    return repr(ds.element_spec).replace("companion.", "tf.")


def _t(shape, dtype):
    return f"TensorSpec(shape={shape}, dtype=tf.{dtype}, name=None)"


def test_batch_dimension_is_static_only_with_drop_remainder():
    ds = Dataset.range(10)
    assert _r(ds.batch(3)) == _t("(None,)", "int64")
    assert _r(ds.batch(3, drop_remainder=True)) == _t("(3,)", "int64")
    assert _r(ds.batch(3).batch(2, drop_remainder=True)) == _t("(2, None)", "int64")
    rows = Dataset.from_tensor_slices(np.zeros((10, 4), np.float32))
    assert _r(rows.batch(4)) == _t("(None, 4)", "float32")
    assert _r(rows.batch(4, True)) == _t("(4, 4)", "float32")


def test_padded_batch():
    ds = Dataset.range(1, 5).map(lambda x: tf.fill([x], x))
    assert _r(ds) == _t("(None,)", "int64")  # the length depends on the value: unknown, as in TF
    assert _r(ds.padded_batch(2)) == _t("(None, None)", "int64")
    assert _r(ds.padded_batch(2, drop_remainder=True)) == _t("(2, None)", "int64")
    assert _r(ds.padded_batch(2, padded_shapes=[5])) == _t("(None, 5)", "int64")
    assert _r(ds.padded_batch(2, padded_shapes=(6,), drop_remainder=True)) == _t("(2, 6)", "int64")


def test_from_tensor_slices_of_dicts_and_tuples():
    ds = Dataset.from_tensor_slices({"a": np.zeros((3, 2)), "b": ["x", "y", "z"], "c": [1, 2, 3]})
    assert _r(ds) == ("{'a': " + _t("(2,)", "float64") + ", 'b': " + _t("()", "string") + ", 'c': "
                      + _t("()", "int32") + "}")
    ds = Dataset.from_tensor_slices(([1, 2], ([3., 4.], [[5], [6]])))
    assert _r(ds) == f"({_t('()', 'int32')}, ({_t('()', 'float32')}, {_t('(1,)', 'int32')}))"


def test_map_outputs():
    ds = Dataset.range(5)
    pair = ds.map(lambda x: (x, tf.cast(x, tf.float32) * 2.0))
    assert _r(pair) == f"({_t('()', 'int64')}, {_t('()', 'float32')})"
    assert _r(ds.map(lambda x: [x, x])) == f"({_t('()', 'int64')}, {_t('()', 'int64')})"
    assert _r(ds.map(lambda x: tf.fill([x], 1.0))) == _t("(None,)", "float32")
    assert _r(ds.batch(2).map(lambda x: x * 2)) == _t("(None,)", "int64")
    assert _r(ds.batch(2, True).map(lambda x: tf.reshape(x, [-1, 1]))) == _t("(2, 1)", "int64")
    assert _r(ds.batch(2).map(lambda x: tf.reshape(x, [-1, 1]))) == _t("(None, 1)", "int64")
    assert _r(ds.map(lambda x: (x, 2.5))) == f"({_t('()', 'int64')}, {_t('()', 'float32')})"


def test_unknown_shape_after_py_function_and_numpy_function_unless_ensured():
    ds = Dataset.range(3)
    py = ds.map(lambda x: tf.py_function(lambda v: v * 2, [x], tf.int64))
    assert _r(py) == _t("<unknown>", "int64")
    assert [int(v) for v in py] == [0, 2, 4]
    assert _r(py.batch(2)) == _t("<unknown>", "int64")
    two = ds.map(lambda x: tf.numpy_function(lambda v: (v, v), [x], (tf.int64, tf.int64)))
    assert _r(two) == f"({_t('<unknown>', 'int64')}, {_t('<unknown>', 'int64')})"
    ensured = ds.map(lambda x: tf.ensure_shape(tf.py_function(lambda v: v * 2, [x], tf.int64), []))
    assert _r(ensured) == _t("()", "int64")
    mixed = ds.map(lambda x: (x, tf.py_function(lambda v: v + 1, [x], tf.int64)))
    assert _r(mixed) == f"({_t('()', 'int64')}, {_t('<unknown>', 'int64')})"


def test_ensure_shape_in_map_sets_the_static_shape():
    rows = Dataset.from_tensor_slices(np.zeros((4, 3), np.float32))
    assert _r(rows.map(lambda x: tf.ensure_shape(x, [3]))) == _t("(3,)", "float32")
    batched = rows.batch(3).map(lambda x: tf.ensure_shape(x, [3, 3]))
    assert _r(batched) == _t("(3, 3)", "float32")


def test_unbatch_window_flat_map():
    ds = Dataset.from_tensor_slices(np.zeros((6, 2, 3), np.float32))
    assert _r(ds.unbatch()) == _t("(3,)", "float32")
    assert _r(ds.batch(2).unbatch()) == _t("(2, 3)", "float32")
    r = Dataset.range(7)
    assert _r(r.window(3)) == f"DatasetSpec({_t('()', 'int64')}, TensorShape([]))"
    assert _r(r.window(3).flat_map(lambda w: w.batch(3))) == _t("(None,)", "int64")
    windows = r.window(3, drop_remainder=True).flat_map(lambda w: w.batch(3, drop_remainder=True))
    assert _r(windows) == _t("(3,)", "int64")
    flat = Dataset.range(3).flat_map(lambda x: Dataset.from_tensor_slices(tf.fill([x + 1], x)))
    assert _r(flat) == _t("()", "int64") and [int(v) for v in flat] == [0, 1, 1, 2, 2, 2]


def test_zip_and_enumerate():
    a, b = Dataset.range(3), Dataset.from_tensor_slices([1.0, 2.0])
    assert _r(Dataset.zip((a, b))) == f"({_t('()', 'int64')}, {_t('()', 'float32')})"
    assert _r(Dataset.zip({"a": a, "b": b})) == f"{{'a': {_t('()', 'int64')}, 'b': {_t('()', 'float32')}}}"
    nested = Dataset.zip(a, (b, a))
    assert _r(nested) == f"({_t('()', 'int64')}, ({_t('()', 'float32')}, {_t('()', 'int64')}))"
    assert int(Dataset.zip((a, b)).cardinality()) == 2
    pairs = Dataset.from_tensor_slices(([1, 2], [3, 4])).enumerate(5)
    assert _r(pairs) == f"({_t('()', 'int64')}, ({_t('()', 'int32')}, {_t('()', 'int32')}))"


def test_concatenate_takes_the_most_specific_compatible_shape():
    a = Dataset.from_tensor_slices(np.zeros((3, 2), np.float32))
    b = Dataset.from_tensor_slices(np.zeros((3, 4), np.float32))
    c = Dataset.from_tensor_slices(np.zeros((3, 2, 2), np.float32))
    assert _r(a.concatenate(b)) == _t("(None,)", "float32")
    assert _r(a.concatenate(c)) == _t("<unknown>", "float32")
    assert _r(a.batch(2).concatenate(a.batch(2, drop_remainder=True))) == _t("(None, 2)", "float32")
    assert _r(a.batch(2, True).concatenate(a.batch(2, drop_remainder=True))) == _t("(2, 2)", "float32")
    assert int(a.concatenate(b).cardinality()) == 6


def test_scan_range_dtype_and_tensorspec_repr():
    ds = Dataset.range(5).scan(tf.constant(0, tf.int64), lambda s, x: (s + x, tf.cast(s, tf.float32)))
    assert _r(ds) == _t("()", "float32")
    assert [float(v) for v in ds] == [0.0, 0.0, 1.0, 3.0, 6.0]
    assert _r(Dataset.range(3, output_type=tf.int32)) == _t("()", "int32")
    spec = tf.TensorSpec([None, 3], tf.float32, name="x")
    assert repr(spec).replace("companion.", "tf.") == (
        "TensorSpec(shape=(None, 3), dtype=tf.float32, name='x')")
    assert spec.name == "x" and repr(spec.shape) == "TensorShape([None, 3])"
    assert repr(tf.TensorSpec(None, tf.int32)) == (
        "TensorSpec(shape=<unknown>, dtype=companion.int32, name=None)")


def test_set_shape_after_py_function_gives_the_static_shape():
    # TF 2.21: y = tf.py_function(...); y.set_shape([]) -> TensorSpec(shape=(), ...); an eager
    # set_shape with an incompatible shape raises ValueError
    def fix(x):
        y = tf.py_function(lambda v: v * 2, [x], tf.int64)
        y.set_shape([])
        return y

    assert _r(Dataset.range(3).map(fix)) == _t("()", "int64")
    assert tf.zeros([2, 3]).set_shape([None, 3]) is None
    try:
        tf.zeros([2, 3]).set_shape([None, 4])
    except ValueError as error:
        assert "not compatible" in str(error)
    else:
        raise AssertionError("set_shape accepted an incompatible shape")


def test_decoded_images_and_split_text_have_tfs_unknown_sizes(tmp_path):
    # TF 2.21's static shapes: decode_png -> (None, None, channels or None), decode_image (GIF
    # animations expanded) -> unknown rank, scalar strings.split -> (None,); the first elements'
    # sizes (4 x 4 twice here) must not become the spec
    for i, (h, w) in enumerate([(4, 4), (4, 4), (6, 3)]):
        tf.io.write_file(str(tmp_path / f"{i}.png"), tf.io.encode_png(tf.zeros([h, w, 3], tf.uint8)))
    files = tf.data.Dataset.list_files(str(tmp_path / "*.png"), shuffle=False)
    decode = files.map(lambda p: tf.io.decode_png(tf.io.read_file(p), channels=3))
    assert decode.element_spec.shape.as_list() == [None, None, 3]
    assert files.map(lambda p: tf.io.decode_png(tf.io.read_file(p))).element_spec.shape.as_list() == [
        None, None, None]
    assert files.map(lambda p: tf.io.decode_image(tf.io.read_file(p))).element_spec.shape.rank is None
    words = tf.data.Dataset.from_tensor_slices(["a b", "c d", "e"]).map(tf.strings.split)
    assert words.element_spec.shape.as_list() == [None]
