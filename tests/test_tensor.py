"""Tensor: construction, Python protocols, operators, indexing and reprs."""

import numpy as np
import pytest

import companion as tf


def test_str_and_repr_read_like_tensorflow():
    t = tf.constant([4, 6])
    assert str(t) == "companion.Tensor([4 6], shape=(2,), dtype=int32)"
    assert repr(t) == "<companion.Tensor: shape=(2,), dtype=int32, numpy=array([4, 6], dtype=int32)>"
    assert repr(tf.constant(1.0)) == "<companion.Tensor: shape=(), dtype=float32, numpy=1.0>"
    assert str(tf.constant([[1, 2], [3, 4]])) == (
        "companion.Tensor(\n[[1 2]\n [3 4]], shape=(2, 2), dtype=int32)")


def test_repr_puts_a_multiline_value_on_its_own_lines():
    # TF 2.21: repr(tf.constant([[1, 2], [3, 4]])) and a Variable's repr start NumPy's repr on a new line
    t = tf.constant([[1, 2], [3, 4]])
    assert repr(t) == ("<companion.Tensor: shape=(2, 2), dtype=int32, numpy=\n"
                       "array([[1, 2],\n       [3, 4]], dtype=int32)>")
    v = tf.Variable(tf.zeros((2, 2)))
    assert repr(v).endswith("dtype=float32, numpy=\narray([[0., 0.],\n       [0., 0.]], dtype=float32)>")
    assert "numpy=array([[1., 2.]]" in repr(tf.Variable([[1.0, 2.0]]))  # one line stays inline


def test_shape_and_numpy():
    t = tf.constant(np.arange(6).reshape(2, 3))
    assert t.shape == (2, 3) and t.shape == [2, 3]
    assert t.shape.as_list() == [2, 3] and t.shape.rank == 2 and t.ndim == 2
    assert isinstance(t.numpy(), np.ndarray) and t.numpy().dtype == np.int64
    assert isinstance(tf.constant(1.5).numpy(), np.float32)
    np.testing.assert_array_equal(np.asarray(t), np.arange(6).reshape(2, 3))
    assert len(t) == 2


def test_numpy_returns_a_writable_copy():
    t = tf.constant([1.0, 2.0])
    array = t.numpy()
    array[0] = 5.0
    assert t.numpy()[0] == 1.0


def test_scalar_conversions():
    assert bool(tf.constant(True)) is True
    assert int(tf.constant(7)) == 7
    assert float(tf.constant(2.5)) == 2.5
    assert [10, 20, 30][tf.constant(1)] == 20
    with pytest.raises(ValueError, match="^The truth value of an array with more than one element"):
        bool(tf.constant([1, 2]))
    with pytest.raises(TypeError, match="len\\(\\) is not defined for a scalar"):
        len(tf.constant(1))


def test_iteration_yields_rows():
    rows = list(tf.constant([[1, 2], [3, 4]]))
    assert len(rows) == 2 and all(isinstance(r, tf.Tensor) for r in rows)
    np.testing.assert_array_equal(rows[1].numpy(), [3, 4])


def test_iteration_makes_rows_one_at_a_time_with_one_program_per_shape():
    from companion._ops._indexing import _row

    x = tf.constant(np.arange(3000.0).reshape(1000, 3))
    assert next(iter(x)).numpy().tolist() == [0.0, 1.0, 2.0]
    compiled = _row._eager._cache_size()
    rows = list(x)
    np.testing.assert_array_equal(np.stack([r.numpy() for r in rows]), np.arange(3000.0).reshape(1000, 3))
    list(tf.constant(np.ones((1000, 3))))
    assert _row._eager._cache_size() == compiled, "iterating the same shape again compiled a new program"


def test_iteration_over_a_variable_on_a_tape_gives_gradients():
    v = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        total = tf.constant(0.0)
        for row in v:
            total += row * row
    np.testing.assert_allclose(tape.gradient(total, v).numpy(), [2.0, 4.0, 6.0])


def test_iteration_inside_a_function_unrolls_the_rows():
    @tf.function
    def total(x):
        result = tf.constant(0.0)
        for row in x:
            result += row
        return result

    assert float(total(tf.constant([1.0, 2.0, 4.0]))) == 7.0


def test_matplotlib_plots_tensors_and_lists_of_scalar_tensors():
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    xs = tf.constant(np.linspace(-1.0, 1.0, 500, dtype=np.float32))
    ax = Figure().subplots()
    points = ax.scatter(xs, 3.0 * xs + 2.0)
    (line,) = ax.plot([tf.constant(1.5), tf.constant(0.5)])
    # 3x + 2 may run fused (one rounding, as XLA's multiply-add) or op by op: equal to float32 rounding
    np.testing.assert_allclose(points.get_offsets(), np.stack([xs.numpy(), 3.0 * xs.numpy() + 2.0], axis=1),
                               rtol=0, atol=1e-6)
    np.testing.assert_allclose(line.get_ydata(), [1.5, 0.5])


@pytest.mark.parametrize("op, ref", [
    (lambda a, b: a + b, np.add), (lambda a, b: a - b, np.subtract), (lambda a, b: a * b, np.multiply),
    (lambda a, b: a / b, np.true_divide), (lambda a, b: a // b, np.floor_divide),
    (lambda a, b: a % b, np.mod),
    (lambda a, b: a ** b, np.power), (lambda a, b: a < b, np.less), (lambda a, b: a >= b, np.greater_equal),
    (lambda a, b: a == b, np.equal), (lambda a, b: a != b, np.not_equal),
])
@pytest.mark.filterwarnings("ignore:invalid value encountered in power")
def test_binary_operators_match_numpy(op, ref):
    a = np.array([[1.5, -2.0, 3.0]], np.float32)
    b = np.array([[2.0], [0.5]], np.float32)
    np.testing.assert_allclose(op(tf.constant(a), tf.constant(b)).numpy(), ref(a, b), rtol=1e-6)
    np.testing.assert_allclose(op(tf.constant(a), 2.0).numpy(), ref(a, np.float32(2.0)), rtol=1e-6)
    np.testing.assert_allclose(op(2.0, tf.constant(a)).numpy(), ref(np.float32(2.0), a), rtol=1e-6)


def test_numpy_array_on_the_left_defers_to_tensor():
    result = np.array([1.0, 2.0], np.float32) + tf.constant([1.0, 1.0])
    assert isinstance(result, tf.Tensor)


def test_unary_bitwise_and_matmul_operators():
    a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_allclose((a @ a).numpy(), np.array([[7, 10], [15, 22]]))
    np.testing.assert_allclose((-a).numpy(), -a.numpy())
    np.testing.assert_allclose(abs(-a).numpy(), a.numpy())
    m = tf.constant([True, False])
    np.testing.assert_array_equal((~m).numpy(), [False, True])
    np.testing.assert_array_equal((m & tf.constant([True, True])).numpy(), [True, False])
    np.testing.assert_array_equal((tf.constant([6]) & 3).numpy(), [2])
    np.testing.assert_array_equal((tf.constant([6]) | 1).numpy(), [7])


@pytest.mark.parametrize("key", [
    0, -1, slice(1, None), (Ellipsis, 0), (None, 1), (slice(None), [0, 2]), (0, slice(None, None, -1)),
])
def test_indexing_matches_numpy(key):
    array = np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(tf.constant(array)[key].numpy(), array[key])


def test_boolean_mask_and_tensor_index():
    array = np.arange(6.0)
    t = tf.constant(array)
    np.testing.assert_array_equal(t[t > 2.0].numpy(), array[array > 2.0])
    np.testing.assert_array_equal(t[tf.constant([4, 1])].numpy(), array[[4, 1]])


def test_indexing_gradient_flows():
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x[1] * x[1] + x[0:2][0]
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [1.0, 4.0, 0.0])


def test_strings():
    s = tf.constant("hello")
    assert s.dtype == tf.string and s.numpy() == b"hello"
    assert str(s) == "companion.Tensor(b'hello', shape=(), dtype=string)"
    words = tf.constant(["a", "bc"])
    assert words.shape == (2,) and list(words.numpy()) == [b"a", b"bc"]


def test_constant_shape_reshapes_or_fills():
    np.testing.assert_array_equal(tf.constant(7, shape=(2, 2)).numpy(), np.full((2, 2), 7))
    np.testing.assert_array_equal(tf.constant([1, 2, 3, 4], shape=(2, 2)).numpy(), [[1, 2], [3, 4]])
    with pytest.raises(TypeError, match="3 elements but shape=\\(2, 2\\) needs 4"):  # TF 2.21: TypeError
        tf.constant([1, 2, 3], shape=(2, 2))


def test_tensors_are_unhashable_but_have_refs():
    t = tf.constant(1)
    with pytest.raises(TypeError, match="ref\\(\\)"):
        hash(t)
    assert {t.ref(): 1}[t.ref()] == 1 and t.ref().deref() is t


def test_is_tensor_and_convert():
    assert tf.is_tensor(tf.constant(1)) and tf.is_tensor(tf.Variable(1.0)) and not tf.is_tensor(1)
    t = tf.convert_to_tensor([1.0, 2.0])
    assert tf.convert_to_tensor(t) is t
    with pytest.raises(tf.InvalidArgumentError, match="Expected a tensor of dtype int32"):
        tf.convert_to_tensor(t, dtype=tf.int32)
    assert tf.convert_to_tensor(3, dtype_hint=tf.float32).dtype == tf.float32


def test_conversion_error_for_unsupported_objects():
    with pytest.raises(TypeError, match="A value of type object cannot be a tensor"):
        tf.constant(object())
    with pytest.raises(ValueError, match=r"^Attempt to convert a value \(None\) with an unsupported type"):
        tf.constant(None)
    # TF 2.21's first lines, companion's advice on the next
    with pytest.raises(ValueError, match="^Can't convert non-rectangular Python sequence to Tensor.\n.*ragg"):
        tf.constant([[1], [2, 3]])
    with pytest.raises(ValueError, match="^Can't convert Python sequence with mixed types to Tensor.\n"):
        tf.constant([1, "a"])


def test_device_string():
    """A new eager tensor lives on the first accelerator when there is one (as in TF), else on CPU:0."""
    kind = "GPU" if tf.config.list_physical_devices("GPU") else "CPU"
    if tf.config.list_physical_devices("TPU"):
        kind = "TPU"
    assert tf.constant(1.0).device == f"/job:localhost/replica:0/task:0/device:{kind}:0"


def test_string_tensors_compare_reshape_index_and_join():
    words = tf.constant(["hello", "x"])
    np.testing.assert_array_equal((words == tf.constant("hello")).numpy(), [True, False])
    np.testing.assert_array_equal((words != "x").numpy(), [True, False])
    assert words[1].numpy() == b"x" and words[1].dtype == tf.string
    assert tf.reshape(words, [2, 1]).shape == (2, 1)
    assert list(tf.concat([words, words], 0).numpy()) == [b"hello", b"x", b"hello", b"x"]
    assert [w.numpy() for w in words] == [b"hello", b"x"]
    assert list(tf.gather(words, [1, 0]).numpy()) == [b"x", b"hello"]


def test_string_tensors_join_with_plus_and_have_no_other_arithmetic():
    assert (tf.constant("a") + tf.constant("b")).numpy() == b"ab"  # TF 2.21: b'ab'
    with pytest.raises(TypeError, match="multiply does not support string tensors"):
        tf.constant("a") * tf.constant("b")


def test_incompatible_broadcast_is_an_invalid_argument_error():
    with pytest.raises(tf.InvalidArgumentError, match=r"shapes \(2, 3\) and \(2,\) cannot be broadcast"):
        tf.ones((2, 3)) + tf.ones((2,))


def test_newaxis_inserts_an_axis():
    # TF 2.21: tf.newaxis is None; x[:, tf.newaxis, 1] of a (3, 4) tensor has shape (3, 1)
    x = tf.reshape(tf.range(12), (3, 4))
    assert tf.newaxis is None
    assert x[:, tf.newaxis, 1].shape == (3, 1)
    assert x[tf.newaxis].shape == (1, 3, 4)


def test_a_known_tensorshape_converts_to_its_sizes_and_a_partial_one_is_refused():
    np.testing.assert_array_equal(tf.constant(tf.TensorShape([4, 2])).numpy(), np.array([4, 2], np.int32))
    assert tf.convert_to_tensor(tf.TensorShape([])).dtype == tf.int32
    assert tf.convert_to_tensor(tf.TensorShape([3]), dtype=tf.int64).dtype == tf.int64
    assert tf.constant(tf.TensorShape([2**31])).dtype == tf.int64  # too large for int32, as in TF
    with pytest.raises(ValueError, match=r"partially known TensorShape \(None, 3\)"):
        tf.constant(tf.TensorShape([None, 3]))


@pytest.mark.parametrize("values, dtype, expected", [  # each dtype and value as TF 2.21 gives them
    ([np.float64(1.5)], "float64", [1.5]),
    (list(np.array([1.0, 2.0])), "float64", [1.0, 2.0]),
    ([np.int32(1), 2.5], "float32", [1.0, 2.5]),
    ([np.int64(1), 2], "int32", [1, 2]),
    (list(np.arange(3)), "int32", [0, 1, 2]),
    ([np.int8(1), 2], "int32", [1, 2]),
    ([np.float32(1), np.float64(2)], "float32", [1.0, 2.0]),
    ([np.int64(2**40), 1], "int64", [2**40, 1]),
    ([[np.float64(1)], [2.0]], "float64", [[1.0], [2.0]]),
])
def test_lists_of_numpy_scalars_take_tensorflows_dtype(values, dtype, expected):
    tensor = tf.constant(values)
    assert tensor.dtype.name == dtype and tensor.numpy().tolist() == expected


def test_ranges_and_python_number_lists_convert_as_tf():
    # TF 2.21: tf.constant(range(3)) is int32 [0 1 2]; tf.stack([1, 2.5]) is float32 [1. 2.5]
    assert tf.constant(range(3)).numpy().tolist() == [0, 1, 2] and tf.constant(range(3)).dtype == tf.int32
    stacked = tf.stack([1, 2.5])
    assert stacked.dtype == tf.float32 and stacked.numpy().tolist() == [1.0, 2.5]


def test_a_list_holding_tensors_packs_to_the_first_tensors_dtype_as_in_tf():
    # TF 2.21's auto-packing: the first tensor's dtype; Python numbers convert to it
    got = tf.convert_to_tensor([2, tf.constant(1.0)])
    assert got.dtype == tf.float32 and got.numpy().tolist() == [2.0, 1.0]
    assert tf.convert_to_tensor([np.float64(1.5), tf.constant(1.0)]).dtype == tf.float32
    assert tf.convert_to_tensor([[1, 2], [tf.constant(1.0), 3]]).dtype == tf.float32
    assert tf.convert_to_tensor([tf.constant(1.0), tf.constant(2.0, tf.float64)], dtype=tf.float64).dtype \
        == tf.float64
    pack_error = r"^cannot compute Pack as input #1\(zero-based\) was expected to be a int32 tensor"
    with pytest.raises(tf.errors.InvalidArgumentError, match=pack_error):
        tf.convert_to_tensor((tf.constant(1), tf.constant(2.0)))
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected to be a float tensor but is a int32"):
        tf.reduce_sum([tf.Variable(1.0), tf.constant(1)])
    with pytest.raises(TypeError):
        tf.convert_to_tensor([2.5, tf.constant(1)])


def test_constant_refuses_a_list_holding_tensors_as_tf_does():
    # TF 2.21: ValueError, its first line depending on the first element
    cases = [([tf.constant([1.0]), tf.constant([2.0])], "TypeError: Scalar tensor has no `len()`"),
             ([1.0, tf.constant(2.0)], "Can't convert Python sequence with mixed types to Tensor."),
             ([tf.Variable(1.0), 2.0], "TypeError: object of type 'ResourceVariable' has no len()")]
    for value, first_line in cases:
        with pytest.raises(ValueError) as info:
            tf.constant(value)
        assert str(info.value).split("\n")[0] == first_line


def test_python_conversions_follow_numpy_rules_as_tf_does():
    # TF 2.21 (NumPy 2): rank-0 only for int/float/complex, at most one element for bool,
    # an integer rank-0 tensor for an index; round() fails; a Variable is no index
    for convert in (int, float, complex, lambda t: "%f" % t):
        for value in (tf.constant([3]), tf.constant([[1.5]]), tf.constant([])):
            with pytest.raises(TypeError, match="^only 0-dimensional arrays can be converted"):
                convert(value)
    with pytest.raises(TypeError, match="^%d format: a real number is required"):
        "%d" % tf.constant([3])  # noqa: B018
    assert bool(tf.constant([])) is False and bool(tf.constant([[2]])) is True
    for value in (tf.constant([1]), tf.constant([1.5])):
        with pytest.raises(TypeError, match="^only integer scalar arrays can be converted to a scalar index"):
            [0, 1][value]  # noqa: B018
    for value, name in ((tf.constant(1.5), "float32"), (tf.constant(True), "bool"),
                        (tf.constant(1.5, tf.float64), "float64")):
        with pytest.raises(AttributeError, match=f"^'numpy.{name}' object has no attribute '__index__'"):
            hex(value)
    with pytest.raises(AttributeError, match="^EagerTensor object has no attribute 'astype'"):
        round(tf.constant(2.5))
    v = tf.Variable(2)
    with pytest.raises(TypeError, match="cannot be interpreted as an integer"):
        range(v)
    assert tf.constant([1, 2, 3, 4])[:v].numpy().tolist() == [1, 2]
    assert "%d %.1f" % (tf.constant(3), tf.Variable(1.25)) == "3 1.2"
