"""TensorShape and TF 1's Dimension: merging, compatibility, rank checks and their ValueErrors,
indexing, concatenation and equality, against TF 2.21's observed values and messages."""

import pytest

import companion as tf

S = tf.TensorShape
A, B, U = S([2, None, 3]), S([None, 4, 3]), S(None)


def test_reprs_and_basic_queries():
    assert (repr(U), str(U), repr(A), str(A), repr(S([]))) == (
        "TensorShape(None)", "<unknown>", "TensorShape([2, None, 3])", "(2, None, 3)", "TensorShape([])")
    assert (A.rank, U.rank, S([]).rank, A.ndims, U.ndims) == (3, None, 0, 3, None)
    assert (A.is_fully_defined(), S([1, 2]).is_fully_defined(), U.is_fully_defined()) == (False, True, False)
    assert (A.num_elements(), S([2, 3]).num_elements(), U.num_elements(), S([]).num_elements()) == (
        None, 6, None, 1)
    assert (bool(A), bool(S([])), bool(U)) == (True, True, False)
    with pytest.raises(ValueError, match=r"as_list\(\) is not defined on an unknown TensorShape"):
        U.as_list()
    with pytest.raises(ValueError, match="Cannot take the length of shape with unknown rank"):
        len(U)


def test_dims_are_dimensions_and_indexing_gives_ints():
    assert repr(A.dims) == "[Dimension(2), Dimension(None), Dimension(3)]" and U.dims is None
    assert A[0] == 2 and type(A[0]) is int and A[1] is None
    assert (A[1:], A[-2:], A[::2]) == (S([None, 3]), S([None, 3]), S([2, 3]))
    assert U[0] is None and repr(U[1:]) == "TensorShape(None)"
    with pytest.raises(IndexError):
        A[5]


def test_merge_concatenate_and_compatibility():
    assert A.merge_with(B) == [2, 4, 3] and A.merge_with([2, 4, None]) == [2, 4, 3]
    assert A.merge_with(U) is A and U.merge_with(A) == A
    for other in ([3, 4, 3], [2, 3]):
        with pytest.raises(ValueError, match=r"Shapes \(2, None, 3\) and .* are not compatible"):
            A.merge_with(other)
    assert A.concatenate(B) == [2, None, 3, None, 4, 3] and repr(A.concatenate(U)) == "TensorShape(None)"
    assert A + [1] == [2, None, 3, 1] and [1] + A == [1, 2, None, 3] and (1,) + A == [1, 2, None, 3]
    assert S([]).concatenate(S([])) == []
    assert (A.is_compatible_with(B), A.is_compatible_with([3, 4, 3]), A.is_compatible_with(U)) == (
        True, False, True)
    assert A.most_specific_compatible_shape(B) == [None, None, 3]
    assert repr(S([2, 3]).most_specific_compatible_shape([2, 4, 1])) == "TensorShape(None)"
    assert S([2, 3]).is_subtype_of(S([None, 3])) and not S([None, 3]).is_subtype_of(S([2, 3]))
    assert S([2, 3]).most_specific_common_supertype([S([2, 4])]) == [2, None]


def test_rank_checks_raise_tf_messages():
    assert A.with_rank(3) == A and U.with_rank(2) == [None, None]
    assert A.with_rank_at_least(2) is A and U.with_rank_at_least(4) is U and A.with_rank_at_most(3) is A
    cases = [(lambda: A.with_rank(2), r"Shape \(2, None, 3\) must have rank 2"),
             (lambda: A.with_rank_at_least(4), "must have rank at least 4"),
             (lambda: A.with_rank_at_most(2), "must have rank at most 2"),
             (lambda: A.assert_has_rank(2), "must have rank 2"),
             (lambda: A.assert_same_rank([1, 2]),
              r"Shapes \(2, None, 3\) and \(1, 2\) must have the same rank"),
             (lambda: A.assert_is_fully_defined(), r"Shape \(2, None, 3\) is not fully defined"),
             (lambda: A.assert_is_compatible_with([3, 4, 3]),
              r"Shapes \(2, None, 3\) and \[3, 4, 3\] are incompatible")]
    for fn, message in cases:
        with pytest.raises(ValueError, match=message):
            fn()
    assert A.assert_is_compatible_with(B) is None


def test_equality_and_bad_dimensions():
    assert S([1, 2]) == [1, 2] and S([1, 2]) == (1, 2) and S([1, None]) == [1, None]
    assert U == S(None) and not (U != S(None)) and S([1, 2]) != [1, 3] and not (S([1, 2]) == 3)
    with pytest.raises(TypeError, match="Dimension value must be integer or None"):
        S([1.5])
    with pytest.raises(ValueError, match="Dimension -2 must be >= 0"):
        S([-2])
    assert S([tf.compat.v1.Dimension(3), None]) == [3, None]


def test_dimension_and_compat_helpers():
    D = tf.compat.v1.Dimension
    d, n = D(3), D(None)
    assert (repr(d), repr(n), str(d), str(n), d.value, n.value) == (
        "Dimension(3)", "Dimension(None)", "3", "?", 3, None)
    assert (d == 3, d == D(3), d == 4, n == 3, d != 3, n != 3) == (True, True, False, None, False, None)
    assert (d + 1, 1 + d, d * 2, d // 2, d % 2, d - 1) == (D(4), D(4), D(6), D(1), D(1), D(2))
    assert repr(d + n) == "Dimension(None)" and (d < 4, d >= 4, n < 3) == (True, False, None)
    assert d.merge_with(3) == 3 and n.merge_with(4) == 4 and [0, 1, 2, 3][d] == 3
    with pytest.raises(ValueError, match="Dimensions 3 and 4 are not compatible"):
        d.merge_with(4)
    with pytest.raises(TypeError, match="please use // instead"):
        d / 2
    with pytest.raises(TypeError, match="unhashable"):
        hash(d)
    assert (tf.compat.dimension_value(A[0]), tf.compat.dimension_value(A.dims[1]),
            tf.compat.dimension_value(D(4)), tf.compat.dimension_value(5)) == (2, None, 4, 5)
    assert repr(tf.compat.dimension_at_index(A, 0)) == "Dimension(2)"
    assert repr(tf.compat.dimension_at_index(U, 3)) == "Dimension(None)"
