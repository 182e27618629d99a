"""Keras 3's warnings for the Keras 2 ways of giving an input shape (texts, class and location
observed under TF 2.21 / Keras 3.15)."""

import warnings

import pytest

from companion import keras

INPUT_SHAPE_TEXT = ("Do not pass an `input_shape`/`input_dim` argument to a layer. When using Sequential "
                    "models, prefer using an `Input(shape)` object as the first layer in the model instead.")


def _caught(make):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = make()
    return result, [(w.category, str(w.message)) for w in caught], caught


@pytest.mark.parametrize("make", [
    lambda: keras.layers.Dense(3, input_shape=(4,)),
    lambda: keras.layers.Dense(3, input_dim=4),
    lambda: keras.layers.Conv2D(2, 3, input_shape=(8, 8, 1)),
    lambda: keras.layers.LSTM(2, input_shape=(8, 1)),
    lambda: keras.layers.Flatten(input_shape=(8, 1)),
    lambda: keras.Sequential([keras.layers.Dense(3, input_shape=(4,))]),
])
def test_input_shape_or_input_dim_warns_once(make):
    _, seen, _ = _caught(make)
    assert seen == [(UserWarning, INPUT_SHAPE_TEXT)]


def test_the_shape_still_builds_a_sequential_model():
    model, _, _ = _caught(lambda: keras.Sequential([keras.layers.Dense(3, input_dim=4)]))
    assert model.built and model.output_shape == (None, 3)


@pytest.mark.parametrize("make", [
    lambda: keras.layers.Dense(3),
    lambda: keras.layers.Dense(3, input_shape=None),
    lambda: keras.layers.InputLayer(shape=(4,)),
    lambda: keras.Input(shape=(4,)),
    lambda: keras.Sequential([keras.Input(shape=(4,)), keras.layers.Dense(3)]),
])
def test_no_warning_without_the_argument(make):
    assert _caught(make)[1] == []


class _Custom(keras.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)  # the warning points here, as in Keras 3 (stacklevel 2)


def test_the_warning_points_at_the_subclass_super_init_call():
    _, _, caught = _caught(lambda: _Custom(input_shape=(2,)))
    assert len(caught) == 1
    assert caught[0].filename == __file__
    with open(__file__) as f:
        assert "super().__init__(**kwargs)" in f.read().splitlines()[caught[0].lineno - 1]


def test_input_layer_input_shape_is_deprecated_for_shape():
    layer, seen, _ = _caught(lambda: keras.layers.InputLayer(input_shape=(3,)))
    assert seen == [(UserWarning, "Argument `input_shape` is deprecated. Use `shape` instead.")]
    assert tuple(layer.output.shape.as_list()) == (None, 3)


def test_embedding_input_length_is_deprecated_and_ignored():
    model, seen, _ = _caught(lambda: keras.Sequential([keras.layers.Embedding(10, 3, input_length=5),
                                                       keras.layers.Flatten()]))
    assert seen == [(UserWarning, "Argument `input_length` is deprecated. Just remove it.")]
    assert not model.built  # Keras 3: the length gives no input shape
    layer, _, _ = _caught(lambda: keras.layers.Embedding(10, 3, input_length=5))
    assert "input_length" not in layer.get_config()
