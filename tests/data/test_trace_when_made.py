"""Dataset functions are traced once, when the transformation is made, as in TF.

Oracle: TF 2.21, observed on the same programs: a ``print`` in a map/filter/scan function shows
once, at ``map()``/``filter()``/``scan()`` time, with the graph's input names ``args_0``,
``args_1``... and the element spec's shapes (``(None,)`` after ``batch``), however often the
dataset is iterated; a function whose trace fails raises at ``map()``, even on an empty dataset.
"""

import pytest

import companion as tf
from companion._ops._py_function import py_function
from companion.data import Dataset


def test_map_prints_once_when_made_with_tf_input_names(capsys):
    ds = Dataset.from_tensor_slices({"a": [1, 2, 3], "b": [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]})

    def f(d):
        print("map", d["a"], d["b"])
        y = d["a"] * 2
        print("y", y)
        return y, d["b"]

    mapped = ds.map(f)
    assert capsys.readouterr().out == (
        'map Tensor("args_0:0", shape=(), dtype=int32) Tensor("args_1:0", shape=(2,), dtype=float32)\n'
        'y Tensor("mul:0", shape=(), dtype=int32)\n')
    assert [int(y) for y, _ in mapped] == [2, 4, 6]
    assert [int(y) for y, _ in mapped.batch(2).unbatch()] == [2, 4, 6]
    assert list(mapped.as_numpy_iterator())[2][0] == 6
    assert capsys.readouterr().out == ""


def test_batched_map_shows_the_unknown_batch_dimension(capsys):
    ds = Dataset.range(3).batch(2).map(lambda x: (print("batched", x), x * 2)[1])
    assert capsys.readouterr().out == 'batched Tensor("args_0:0", shape=(None,), dtype=int64)\n'
    assert [list(x) for x in ds.as_numpy_iterator()] == [[0, 2], [4]]
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize("parallel", [None, tf.data.AUTOTUNE])
def test_filter_take_while_scan_and_parallel_map_trace_once(capsys, parallel):
    kept = Dataset.range(6).filter(lambda x: (print("pred", x), x % 2 == 0)[1])
    taken = Dataset.range(6).take_while(lambda x: (print("tw", x), x < 3)[1])
    scanned = Dataset.range(4).scan(tf.constant(0, tf.int64),
                                    lambda s, x: (print("scan", s, x), (s + x, s * x))[1])
    mapped = Dataset.range(4).map(lambda x: (print("pm", x), x + 1)[1], num_parallel_calls=parallel)
    assert capsys.readouterr().out.splitlines() == [
        'pred Tensor("args_0:0", shape=(), dtype=int64)',
        'tw Tensor("args_0:0", shape=(), dtype=int64)',
        'scan Tensor("args_0:0", shape=(), dtype=int64) Tensor("args_1:0", shape=(), dtype=int64)',
        'pm Tensor("args_0:0", shape=(), dtype=int64)']
    for _ in range(2):
        assert [int(x) for x in kept] == [0, 2, 4]
        assert [int(x) for x in taken] == [0, 1, 2]
        assert [int(x) for x in scanned] == [0, 0, 2, 9]
        assert [int(x) for x in mapped] == [1, 2, 3, 4]
    assert capsys.readouterr().out == ""


def test_reduce_names_its_inputs_as_tf(capsys):
    total = Dataset.range(4).reduce(tf.constant(0, tf.int64), lambda s, x: (print("red", s, x), s + x)[1])
    assert int(total) == 6
    assert capsys.readouterr().out == (
        'red Tensor("args_0:0", shape=(), dtype=int64) Tensor("args_1:0", shape=(), dtype=int64)\n')


def test_reduce_traces_its_function_before_the_first_element():
    # TF 2.21: Dataset.range(4).reduce(0, lambda s, x: s + x) raises TypeError (int32 state + int64
    # element, found by the trace), also for an empty dataset; eagerly the add is InvalidArgumentError
    for n in (4, 0):
        with pytest.raises(TypeError) as info:
            Dataset.range(n).reduce(0, lambda s, x: s + x)
        assert type(info.value).__name__ == "TypeError"


def test_a_function_tf_cannot_trace_raises_when_the_transformation_is_made():
    with pytest.raises(TypeError, match="Cannot convert 'a'"):
        Dataset.range(3).map(lambda x: x + "a")
    with pytest.raises(TypeError):  # TF raises there too, though no element ever reaches it
        Dataset.range(0).map(lambda x: x + "a")
    with pytest.raises(NameError):
        Dataset.range(3).map(lambda x: undefined_name)  # noqa: F821
    with pytest.raises(TypeError):  # two parameters for one component
        Dataset.range(3).map(lambda x, y: x)


def test_a_function_companion_cannot_trace_still_runs_on_elements(capsys):
    # TF's AutoGraph turns int(x) into a cast; companion's trace fails on it and runs the elements
    ds = Dataset.range(3).map(lambda x: (print("value", x), int(x) * 2)[1])
    assert [int(x) for x in ds] == [0, 2, 4]
    assert [int(x) for x in ds] == [0, 2, 4]
    assert ds.element_spec == tf.TensorSpec([], tf.int32)
    # the trace printed before it failed on int(); the runs on elements are quiet
    assert capsys.readouterr().out == 'value Tensor("args_0:0", shape=(), dtype=int64)\n'


def test_making_a_transformation_runs_no_element():
    calls = []

    def note(x):
        calls.append(int(x))
        return x

    # the first map's output spec needs elements (a py_function without shapes): the second
    # map is not traced when made rather than running the first map on elements
    ds = Dataset.range(5).map(lambda x: py_function(note, [x], tf.int64)).map(lambda x: x * 2)
    ds = ds.filter(lambda x: x > 0).scan(tf.constant(0, tf.int64), lambda s, x: (s + x, s))
    assert calls == []
    assert [int(x) for x in ds] == [0, 2, 6, 12]
    assert calls == [0, 1, 2, 3, 4]


def test_an_element_that_fails_still_fails_at_iteration():
    ds = Dataset.from_tensor_slices([1.0, -1.0]).map(
        lambda x: tf.debugging.assert_non_negative(x) or x)
    with pytest.raises(tf.errors.InvalidArgumentError):
        list(ds)


# -- flat_map and interleave (oracle: TF 2.21 on the same programs) --------------------------------------

def test_flat_map_prints_the_symbolic_argument_once_when_made(capsys):
    ds = Dataset.from_tensor_slices([[1, 2, 3], [4, 5, 6], [7, 8, 9]])

    def f(x):
        print("flat_map got", x)
        return Dataset.from_tensor_slices(x * 2)

    flat = ds.flat_map(f)
    assert capsys.readouterr().out == 'flat_map got Tensor("args_0:0", shape=(3,), dtype=int32)\n'
    assert repr(flat.element_spec) == "TensorSpec(shape=(), dtype=companion.int32, name=None)"
    for _ in range(2):
        assert [int(v) for v in flat] == [2, 4, 6, 8, 10, 12, 14, 16, 18]
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize("parallel", [None, 2, tf.data.AUTOTUNE])
def test_interleave_traces_once_with_any_cycle_block_and_parallelism(capsys, parallel):
    def g(x):
        print("interleave got", x)
        return Dataset.from_tensors(x).repeat(2)

    ds = Dataset.range(1, 4).interleave(g, cycle_length=2, block_length=1, num_parallel_calls=parallel,
                                        deterministic=True)
    assert capsys.readouterr().out == 'interleave got Tensor("args_0:0", shape=(), dtype=int64)\n'
    assert [int(v) for v in ds] == [1, 2, 1, 2, 3, 3]
    assert capsys.readouterr().out == ""


def test_window_arguments_are_variant_datasets(capsys):
    windows = Dataset.range(7).window(3, shift=2, drop_remainder=True)

    def h(window):
        print("window got", window)
        return window.batch(3)

    ds = windows.flat_map(h)
    assert capsys.readouterr().out == (
        "window got <_VariantDataset element_spec=TensorSpec(shape=(), dtype=companion.int64, name=None)>\n")
    assert repr(ds.element_spec) == "TensorSpec(shape=(None,), dtype=companion.int64, name=None)"
    assert [v.numpy().tolist() for v in ds] == [[0, 1, 2], [2, 3, 4], [4, 5, 6]]
    assert repr(next(iter(windows))) == (
        "<_VariantDataset element_spec=TensorSpec(shape=(), dtype=companion.int64, name=None)>")


def test_nested_datasets_in_the_function_trace_with_it(capsys):
    def nested(x):
        print("outer", x)
        return Dataset.range(x).map(lambda y: (print("inner", y), y * 2)[1])

    ds = Dataset.range(4).flat_map(nested)
    assert capsys.readouterr().out == ('outer Tensor("args_0:0", shape=(), dtype=int64)\n'
                                       'inner Tensor("args_0:0", shape=(), dtype=int64)\n')
    assert [int(v) for v in ds] == [0, 0, 2, 0, 2, 4]
    assert capsys.readouterr().out == ""


def test_dict_and_tuple_arguments_are_named_in_flat_order(capsys):
    ds = Dataset.from_tensor_slices(({"a": [1, 2]}, [3.0, 4.0]))

    def k(d, y):
        print("dict", d, y)
        return Dataset.from_tensors((d["a"], y))

    out = ds.flat_map(k)
    assert capsys.readouterr().out == (
        "dict {'a': <companion.Tensor 'args_0:0' shape=() dtype=int32>} "
        'Tensor("args_1:0", shape=(), dtype=float32)\n')
    assert [(int(a), float(b)) for a, b in out] == [(1, 3.0), (2, 4.0)]


def test_flat_map_and_interleave_errors_raise_when_made():
    with pytest.raises(TypeError, match="must return a `Dataset` object. Got a Tensor"):
        Dataset.range(3).flat_map(lambda x: x + 1)
    with pytest.raises(TypeError, match="must return a `Dataset` object. Got a tuple"):
        Dataset.range(3).interleave(lambda x: [x])
    with pytest.raises(TypeError):
        Dataset.range(3).interleave(lambda x: Dataset.range(x + "a"))


def test_an_unknown_dimension_of_the_argument_stays_unknown():
    ds = Dataset.range(5).batch(2).flat_map(lambda x: Dataset.from_tensors(x))
    assert repr(ds.element_spec) == "TensorSpec(shape=(None,), dtype=companion.int64, name=None)"
    assert [v.numpy().tolist() for v in ds] == [[0, 1], [2, 3], [4]]
