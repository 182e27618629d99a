"""from_generator converts what the generator yields to the declared signature as TF 2.21 does.

Every expected value and error class below is what TensorFlow 2.21 gives for the same program
(recorded from tensorflow-cpu 2.21 with NumPy 2.4): tf.data flattens the yielded value up to
the signature's structure, converts each component with ``np.asarray(v).astype(dtype)`` and
raises ``InvalidArgumentError`` when the element is read if the structure, dtype or shape
does not fit.
"""

import numpy as np
import pytest

import companion as tf
from companion.data import Dataset


def _ds(items, signature):
    return Dataset.from_generator(lambda: iter(items), output_signature=signature)


def _numpy(ds):
    return list(ds.as_numpy_iterator())


def test_a_single_tensorspec_takes_the_yielded_value_whole():
    # TF 2.21: a yielded (1,) for TensorSpec((1,)) is the vector [1]; for TensorSpec(()) it is an error
    got = _numpy(_ds([(1,)], tf.TensorSpec((1,), tf.int32)))
    assert got[0].dtype == np.int32 and got[0].tolist() == [1]
    assert _numpy(_ds([(1, 2)], tf.TensorSpec((2,), tf.int32)))[0].tolist() == [1, 2]
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"shape \(1,\)"):
        _numpy(_ds([(1,)], tf.TensorSpec((), tf.int32)))


def test_lists_and_numpy_scalars_convert_to_the_signature_dtype():
    got = _numpy(_ds([[1, 2, 3], [4]], tf.TensorSpec((None,), tf.float32)))
    assert [g.tolist() for g in got] == [[1.0, 2.0, 3.0], [4.0]] and got[0].dtype == np.float32
    got = _numpy(_ds([np.float64(1.5), np.int32(3)], tf.TensorSpec((), tf.float32)))
    assert got == [np.float32(1.5), np.float32(3.0)] and all(type(g) is np.float32 for g in got)


def test_numbers_truncate_and_wrap_as_numpy_astype_does():
    # TF 2.21: 1.5 -> int32 1; 300 -> int8 44; 1 -> bool True; float64 array -> float32
    assert _numpy(_ds([1.5], tf.TensorSpec((), tf.int32))) == [1]
    assert _numpy(_ds([300], tf.TensorSpec((), tf.int8))) == [44]
    assert _numpy(_ds([1], tf.TensorSpec((), tf.bool))) == [True]
    got = _numpy(_ds([np.array([1.0, 2.0])], tf.TensorSpec((2,), tf.float32)))
    assert got[0].dtype == np.float32


def test_a_tuple_signature_needs_a_tuple_not_a_list():
    sig = (tf.TensorSpec((), tf.int64), tf.TensorSpec((), tf.float32))
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected structure"):
        _numpy(_ds([[1, 2.0]], sig))
    assert _numpy(_ds([(1, 2.0)], sig)) == [(1, 2.0)]


def test_one_tuple_and_nested_signatures():
    assert _numpy(_ds([(5,)], (tf.TensorSpec((), tf.int32),))) == [(5,)]
    with pytest.raises(tf.errors.InvalidArgumentError):
        _numpy(_ds([5], (tf.TensorSpec((), tf.int32),)))
    sig = ((tf.TensorSpec((), tf.int32), tf.TensorSpec((), tf.int32)), {"x": tf.TensorSpec((), tf.string)})
    assert _numpy(_ds([((1, 2), {"x": "s"})], sig)) == [((1, 2), {"x": b"s"})]


def test_dicts_must_have_exactly_the_signature_keys():
    sig = {"a": tf.TensorSpec((), tf.int32), "b": tf.TensorSpec((None,), tf.float32)}
    got = _numpy(_ds([{"a": 1, "b": [1.0, 2.0]}], sig))
    assert got[0]["a"] == 1 and got[0]["b"].tolist() == [1.0, 2.0]
    for wrong in ({"a": 1}, {"a": 1, "b": [1.0], "c": 3}):
        with pytest.raises(tf.errors.InvalidArgumentError, match="expected structure"):
            _numpy(_ds([wrong], sig))


def test_wrong_shape_rank_or_dtype_is_an_invalid_argument_error_when_read():
    cases = [([[1, 2]], tf.TensorSpec((3,), tf.int32)), ([1], tf.TensorSpec((None,), tf.int32)),
             (["a"], tf.TensorSpec((), tf.int32)), ([None], tf.TensorSpec((), tf.int32)),
             ([[[1, 2], [3]]], tf.TensorSpec((None, None), tf.int32)),
             ([(1, 2, 3)], (tf.TensorSpec((), tf.int32), tf.TensorSpec((), tf.int32)))]
    for items, sig in cases:
        ds = _ds(items, sig)  # building the dataset is fine: the error comes at iteration
        with pytest.raises(tf.errors.InvalidArgumentError):
            next(iter(ds))
    with pytest.raises(TypeError):  # companion's class is also a TypeError (what it raised before)
        _numpy(_ds([[1, 2]], tf.TensorSpec((3,), tf.int32)))


def test_strings_become_bytes_and_tensors_are_accepted():
    assert _numpy(_ds(["héllo", b"x"], tf.TensorSpec((), tf.string))) == ["héllo".encode(), b"x"]
    got = _numpy(_ds([tf.constant([1, 2])], tf.TensorSpec((None,), tf.int32)))
    assert got[0].tolist() == [1, 2]


def test_args_reach_the_generator_as_numpy_values():
    # TF 2.21: 3 -> np.int32(3), "hi" -> b'hi', 1.5 -> np.float32(1.5), [1, 2] -> int32 array
    seen = []

    def gen(n, s, f, v):
        seen.append((n, s, f, v))
        yield from range(int(n))

    ds = Dataset.from_generator(gen, args=(3, "hi", 1.5, [1, 2]),
                                output_signature=tf.TensorSpec((), tf.int64))
    assert _numpy(ds) == [0, 1, 2]
    n, s, f, v = seen[0]
    assert type(n) is np.int32 and n == 3 and s == b"hi" and type(s) is bytes
    assert type(f) is np.float32 and f == 1.5
    assert isinstance(v, np.ndarray) and v.dtype == np.int32 and v.tolist() == [1, 2]


def test_legacy_output_types_and_shapes():
    def gen():
        yield (1, [1.0, 2.0])

    spec = Dataset.from_generator(gen, output_types=(tf.int32, tf.float32)).element_spec
    assert repr(spec[0]) == "TensorSpec(shape=<unknown>, dtype=companion.int32, name=None)"
    ds = Dataset.from_generator(gen, output_types=(tf.int32, tf.float32), output_shapes=((), (None,)))
    assert [s.shape.as_list() for s in ds.element_spec] == [[], [None]]
    got = _numpy(ds)
    assert got[0][0] == 1 and got[0][1].tolist() == [1.0, 2.0]
    ds = Dataset.from_generator(lambda: iter([[1, 2]]), tf.int64, tf.TensorShape([2]))
    assert repr(ds.element_spec) == "TensorSpec(shape=(2,), dtype=companion.int64, name=None)"
    ds = Dataset.from_generator(lambda: iter([{"a": 1}]), output_types={"a": tf.int64},
                                output_shapes={"a": []})
    assert _numpy(ds) == [{"a": 1}]


def test_repr_names_tfs_dataset_class():
    ds = Dataset.from_generator(lambda: iter([1]), output_signature=tf.TensorSpec((), tf.int32))
    assert repr(ds) == "<_FlatMapDataset element_spec=TensorSpec(shape=(), dtype=companion.int32, name=None)>"
