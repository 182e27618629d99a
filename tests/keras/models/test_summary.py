"""`model.summary()`: Keras 3's box table, compared with what TF 2.21 / Keras 3.15 printed (rich's
text when the output is not a terminal, 80 columns: tables 76 wide)."""

import numpy as np
import pytest

import companion as tf

keras = tf.keras


@pytest.fixture(autouse=True)
def _eighty_columns(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    keras.backend.clear_session()


def _text(model, **kwargs):
    calls = []
    model.summary(print_fn=calls.append, **kwargs)
    assert len(calls) == 1  # Keras 3 hands print_fn the whole text at once
    return calls[0]


def _lecture_model():
    return keras.Sequential([keras.layers.Flatten(input_shape=(28, 28)),
                             keras.layers.Dense(128, activation="relu"), keras.layers.Dropout(0.2),
                             keras.layers.Dense(10)])


def test_sequential_lecture_model():
    assert _text(_lecture_model()) == LECTURE


def test_printed_to_stdout_without_print_fn(capsys):
    assert _lecture_model().summary() is None
    assert capsys.readouterr().out == LECTURE


def test_shared_layer_lists_every_connection():
    a, b = keras.Input(shape=(4,)), keras.Input(shape=(4,))
    shared = keras.layers.Dense(3, name="shared")
    model = keras.Model([a, b], keras.layers.Add()([shared(a), shared(b)]))
    assert _text(model) == SHARED


def test_unbuilt_then_built_by_a_call_keeps_the_batch_size():
    model = keras.Sequential([keras.layers.Dense(3), keras.layers.BatchNormalization()])
    assert _text(model) == UNBUILT
    model(np.ones((2, 5), np.float32))
    assert model.input_shape == (2, 5)  # Keras 3 builds on the first batch's shape
    assert _text(model) == CALLED
    assert _text(model, show_trainable=True) == CALLED_TRAINABLE


def test_subclassed_model_shapes_from_build_and_unknown_for_custom_layers():
    class Sq(keras.layers.Layer):
        def call(self, x):
            return x * x

    class TwoLayers(keras.Model):
        def __init__(self):
            super().__init__()
            self.hidden = keras.layers.Dense(5, activation="relu")
            self.sq = Sq()

        def call(self, x):
            return self.sq(self.hidden(x))

    model = TwoLayers()
    model(np.ones((2, 3), np.float32))
    assert _text(model) == SUBCLASSED


def test_nested_model_expand_nested_line_length_and_layer_range():
    inner = keras.Sequential([keras.Input((16,)), keras.layers.Dense(1000), keras.layers.Dense(1000)],
                             name="inner")
    x = keras.Input((16,), name="x")
    outer = keras.Model(x, keras.layers.Dense(1)(inner(x)))
    assert _text(outer) == NESTED
    assert _text(outer, expand_nested=True, line_length=60) == NESTED_EXPANDED_60
    assert _text(outer, layer_range=["inner", "dense.*"]) == NESTED_RANGE


def test_optimizer_params_after_fit():
    model = keras.Sequential([keras.Input((10,), dtype="int32"), keras.layers.Embedding(1000, 64),
                              keras.layers.GlobalAveragePooling1D(), keras.layers.Dense(1)])
    model.compile("adam", "mse")
    assert not model.optimizer.built
    model.fit(np.zeros((4, 10), "int32"), np.zeros((4, 1)), verbose=0)
    assert model.optimizer.built
    assert _text(model) == AFTER_FIT


def test_a_layer_with_several_outputs():
    keras.Input((3,))  # unused: it takes the name input_layer
    x = keras.Input((5, 2))
    seq, h, _ = keras.layers.LSTM(4, return_sequences=True, return_state=True)(x)
    assert _text(keras.Model(x, [seq, h])) == MULTI_OUTPUT


def test_columns_narrower_than_four_are_refused():
    with pytest.raises(ValueError, match="Insufficient console width"):
        _lecture_model().summary(positions=[0.01, 0.5, 1.0])


def test_lines_wider_than_the_console_are_cut(monkeypatch):
    x = keras.Input((2, 3, 5))
    model = keras.Model(x, keras.layers.Flatten()(x))
    lines = _text(model, line_length=120).splitlines()
    # TF 2.21: the table is 120 wide, rich cuts its lines at the console's 80 columns
    assert lines[1] == "┏" + "━" * 53 + "┳" + "━" * 25
    assert lines[4] == "│ input_layer (InputLayer)" + " " * 28 + "│ (None, 2, 3, 5)" + " " * 9
    monkeypatch.setenv("COLUMNS", "200")
    assert len(_text(model, line_length=120).splitlines()[1]) == 120


def test_wrapped_headers_sit_on_the_bottom_line_and_narrow_columns_cut_words():
    x = keras.Input((2, 3, 5))
    model = keras.Model(x, keras.layers.Flatten()(x))
    assert _text(model, positions=[0.5, 0.7, 1.0]) == WRAPPED_HEADER
    assert _text(model, line_length=50, show_trainable=True) == NARROW


LECTURE = """\
Model: "sequential"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┓
┃ Layer (type)                    ┃ Output Shape           ┃       Param # ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━┩
│ flatten (Flatten)               │ (None, 784)            │             0 │
├─────────────────────────────────┼────────────────────────┼───────────────┤
│ dense (Dense)                   │ (None, 128)            │       100,480 │
├─────────────────────────────────┼────────────────────────┼───────────────┤
│ dropout (Dropout)               │ (None, 128)            │             0 │
├─────────────────────────────────┼────────────────────────┼───────────────┤
│ dense_1 (Dense)                 │ (None, 10)             │         1,290 │
└─────────────────────────────────┴────────────────────────┴───────────────┘
 Total params: 101,770 (397.54 KB)
 Trainable params: 101,770 (397.54 KB)
 Non-trainable params: 0 (0.00 B)
"""

SHARED = """\
Model: "functional"
┏━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━┓
┃ Layer (type)        ┃ Output Shape      ┃    Param # ┃ Connected to      ┃
┡━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━┩
│ input_layer         │ (None, 4)         │          0 │ -                 │
│ (InputLayer)        │                   │            │                   │
├─────────────────────┼───────────────────┼────────────┼───────────────────┤
│ input_layer_1       │ (None, 4)         │          0 │ -                 │
│ (InputLayer)        │                   │            │                   │
├─────────────────────┼───────────────────┼────────────┼───────────────────┤
│ shared (Dense)      │ (None, 3)         │         15 │ input_layer[0][0… │
│                     │                   │            │ input_layer_1[0]… │
├─────────────────────┼───────────────────┼────────────┼───────────────────┤
│ add (Add)           │ (None, 3)         │          0 │ shared[0][0],     │
│                     │                   │            │ shared[1][0]      │
└─────────────────────┴───────────────────┴────────────┴───────────────────┘
 Total params: 15 (60.00 B)
 Trainable params: 15 (60.00 B)
 Non-trainable params: 0 (0.00 B)
"""

UNBUILT = """\
Model: "sequential"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┓
┃ Layer (type)                    ┃ Output Shape           ┃       Param # ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━┩
│ dense (Dense)                   │ ?                      │   0 (unbuilt) │
├─────────────────────────────────┼────────────────────────┼───────────────┤
│ batch_normalization             │ ?                      │   0 (unbuilt) │
│ (BatchNormalization)            │                        │               │
└─────────────────────────────────┴────────────────────────┴───────────────┘
 Total params: 0 (0.00 B)
 Trainable params: 0 (0.00 B)
 Non-trainable params: 0 (0.00 B)
"""

CALLED = """\
Model: "sequential"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┓
┃ Layer (type)                    ┃ Output Shape           ┃       Param # ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━┩
│ dense (Dense)                   │ (2, 3)                 │            18 │
├─────────────────────────────────┼────────────────────────┼───────────────┤
│ batch_normalization             │ (2, 3)                 │            12 │
│ (BatchNormalization)            │                        │               │
└─────────────────────────────────┴────────────────────────┴───────────────┘
 Total params: 30 (120.00 B)
 Trainable params: 24 (96.00 B)
 Non-trainable params: 6 (24.00 B)
"""

CALLED_TRAINABLE = """\
Model: "sequential"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━┳━━━━━━━┓
┃ Layer (type)                ┃ Output Shape          ┃    Param # ┃ Trai… ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━╇━━━━━━━┩
│ dense (Dense)               │ (2, 3)                │         18 │   Y   │
├─────────────────────────────┼───────────────────────┼────────────┼───────┤
│ batch_normalization         │ (2, 3)                │         12 │   Y   │
│ (BatchNormalization)        │                       │            │       │
└─────────────────────────────┴───────────────────────┴────────────┴───────┘
 Total params: 30 (120.00 B)
 Trainable params: 24 (96.00 B)
 Non-trainable params: 6 (24.00 B)
"""

SUBCLASSED = """\
Model: "two_layers"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┓
┃ Layer (type)                    ┃ Output Shape           ┃       Param # ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━┩
│ dense (Dense)                   │ (2, 5)                 │            20 │
├─────────────────────────────────┼────────────────────────┼───────────────┤
│ sq (Sq)                         │ ?                      │             0 │
└─────────────────────────────────┴────────────────────────┴───────────────┘
 Total params: 20 (80.00 B)
 Trainable params: 20 (80.00 B)
 Non-trainable params: 0 (0.00 B)
"""

NESTED = """\
Model: "functional_1"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┓
┃ Layer (type)                    ┃ Output Shape           ┃       Param # ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━┩
│ x (InputLayer)                  │ (None, 16)             │             0 │
├─────────────────────────────────┼────────────────────────┼───────────────┤
│ inner (Sequential)              │ (None, 1000)           │     1,018,000 │
├─────────────────────────────────┼────────────────────────┼───────────────┤
│ dense_2 (Dense)                 │ (None, 1)              │         1,001 │
└─────────────────────────────────┴────────────────────────┴───────────────┘
 Total params: 1,019,001 (3.89 MB)
 Trainable params: 1,019,001 (3.89 MB)
 Non-trainable params: 0 (0.00 B)
"""

NESTED_EXPANDED_60 = """\
Model: "functional_1"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━┓
┃ Layer (type)             ┃ Output Shape      ┃   Param # ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━┩
│ x (InputLayer)           │ (None, 16)        │         0 │
├──────────────────────────┼───────────────────┼───────────┤
│ inner (Sequential)       │ (None, 1000)      │ 1,018,000 │
├──────────────────────────┼───────────────────┼───────────┤
│    └ dense (Dense)       │ (None, 1000)      │    17,000 │
├──────────────────────────┼───────────────────┼───────────┤
│    └ dense_1 (Dense)     │ (None, 1000)      │ 1,001,000 │
├──────────────────────────┼───────────────────┼───────────┤
│ dense_2 (Dense)          │ (None, 1)         │     1,001 │
└──────────────────────────┴───────────────────┴───────────┘
 Total params: 1,019,001 (3.89 MB)
 Trainable params: 1,019,001 (3.89 MB)
 Non-trainable params: 0 (0.00 B)
"""

NESTED_RANGE = """\
Model: "functional_1"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┓
┃ Layer (type)                    ┃ Output Shape           ┃       Param # ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━┩
│ inner (Sequential)              │ (None, 1000)           │     1,018,000 │
├─────────────────────────────────┼────────────────────────┼───────────────┤
│ dense_2 (Dense)                 │ (None, 1)              │         1,001 │
└─────────────────────────────────┴────────────────────────┴───────────────┘
 Total params: 1,019,001 (3.89 MB)
 Trainable params: 1,019,001 (3.89 MB)
 Non-trainable params: 0 (0.00 B)
"""

AFTER_FIT = """\
Model: "sequential"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┓
┃ Layer (type)                    ┃ Output Shape           ┃       Param # ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━┩
│ embedding (Embedding)           │ (None, 10, 64)         │        64,000 │
├─────────────────────────────────┼────────────────────────┼───────────────┤
│ global_average_pooling1d        │ (None, 64)             │             0 │
│ (GlobalAveragePooling1D)        │                        │               │
├─────────────────────────────────┼────────────────────────┼───────────────┤
│ dense (Dense)                   │ (None, 1)              │            65 │
└─────────────────────────────────┴────────────────────────┴───────────────┘
 Total params: 192,197 (750.77 KB)
 Trainable params: 64,065 (250.25 KB)
 Non-trainable params: 0 (0.00 B)
 Optimizer params: 128,132 (500.52 KB)
"""

MULTI_OUTPUT = """\
Model: "functional"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┓
┃ Layer (type)                    ┃ Output Shape           ┃       Param # ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━┩
│ input_layer_1 (InputLayer)      │ (None, 5, 2)           │             0 │
├─────────────────────────────────┼────────────────────────┼───────────────┤
│ lstm (LSTM)                     │ [(None, 5, 4), (None,  │           112 │
│                                 │ 4), (None, 4)]         │               │
└─────────────────────────────────┴────────────────────────┴───────────────┘
 Total params: 112 (448.00 B)
 Trainable params: 112 (448.00 B)
 Non-trainable params: 0 (0.00 B)
"""


WRAPPED_HEADER = """\
Model: "functional"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━┓
┃                                     ┃ Output      ┃                      ┃
┃ Layer (type)                        ┃ Shape       ┃              Param # ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━┩
│ input_layer (InputLayer)            │ (None, 2,   │                    0 │
│                                     │ 3, 5)       │                      │
├─────────────────────────────────────┼─────────────┼──────────────────────┤
│ flatten (Flatten)                   │ (None, 30)  │                    0 │
└─────────────────────────────────────┴─────────────┴──────────────────────┘
 Total params: 0 (0.00 B)
 Trainable params: 0 (0.00 B)
 Non-trainable params: 0 (0.00 B)
"""

NARROW = """\
Model: "functional"
┏━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┳━━━━━━━┳━━━━┓
┃                   ┃               ┃ Param ┃    ┃
┃ Layer (type)      ┃ Output Shape  ┃     # ┃ T… ┃
┡━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━╇━━━━━━━╇━━━━┩
│ input_layer       │ (None, 2, 3,  │     0 │ -  │
│ (InputLayer)      │ 5)            │       │    │
├───────────────────┼───────────────┼───────┼────┤
│ flatten (Flatten) │ (None, 30)    │     0 │ -  │
└───────────────────┴───────────────┴───────┴────┘
 Total params: 0 (0.00 B)
 Trainable params: 0 (0.00 B)
 Non-trainable params: 0 (0.00 B)
"""
