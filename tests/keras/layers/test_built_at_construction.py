"""Keras 3 builds its weightless layers in ``__init__``: ``built`` is True at once, a call never
builds them (no build_config), and a subclass with its own ``build`` is built by its first call.
The lists are what TF 2.21 / Keras 3.15 printed for each layer right after construction."""

import pytest

import companion as tf
from companion.keras import layers as L

BUILT_AT_INIT = {
    "Dropout": (0.2,), "SpatialDropout1D": (0.2,), "SpatialDropout2D": (0.2,), "SpatialDropout3D": (0.2,),
    "AlphaDropout": (0.1,), "GaussianNoise": (0.1,), "GaussianDropout": (0.1,), "Identity": (),
    "Activation": ("relu",), "ReLU": (), "LeakyReLU": (), "ELU": (), "Softmax": (), "Masking": (),
    "Reshape": ((2, 2),), "UnitNormalization": (), "ActivityRegularization": (),
    "MaxPooling1D": (), "MaxPooling2D": (), "MaxPooling3D": (), "AveragePooling1D": (2,),
    "AveragePooling2D": (2,), "AveragePooling3D": (2,), "GlobalAveragePooling1D": (),
    "GlobalAveragePooling2D": (), "GlobalAveragePooling3D": (), "GlobalMaxPooling1D": (),
    "GlobalMaxPooling2D": (), "GlobalMaxPooling3D": (),
}
BUILT_ON_CALL = {
    "Flatten": (), "Permute": ((2, 1),), "RepeatVector": (2,), "Lambda": (lambda x: x,), "Cropping1D": (),
    "Cropping2D": (), "UpSampling1D": (), "UpSampling2D": (), "ZeroPadding1D": (), "ZeroPadding3D": (),
    "Rescaling": (2.0,), "CenterCrop": (2, 2), "RandomFlip": (), "Solarization": (), "PReLU": (),
    "Dense": (2,), "Conv1D": (2, 3), "DepthwiseConv2D": (3,), "BatchNormalization": (),
    "LayerNormalization": (), "Embedding": (5, 2), "LSTM": (2,), "GRUCell": (2,), "Add": (),
    "Concatenate": (), "Attention": (), "MultiHeadAttention": (2, 3), "Layer": (),
    "AdaptiveAveragePooling1D": (2,), "Hashing": (4,), "Normalization": (),
}


@pytest.mark.parametrize("name", sorted(BUILT_AT_INIT))
def test_weightless_layers_are_built_by_their_constructor(name):
    layer = getattr(L, name)(*BUILT_AT_INIT[name])
    assert layer.built and layer.weights == [] and layer.count_params() == 0
    assert repr(layer).endswith("built=True>")


@pytest.mark.parametrize("name", sorted(BUILT_ON_CALL))
def test_other_layers_wait_for_their_first_call(name):
    layer = getattr(L, name)(*BUILT_ON_CALL[name])
    assert not layer.built
    with pytest.raises(ValueError, match="isn't built. You can build it manually"):
        layer.count_params()


def test_a_call_does_not_record_a_build_config_but_build_does():
    drop = L.Dropout(0.2)
    drop(tf.ones((2, 3)))
    assert drop.get_build_config() is None
    drop.build((None, 3))
    assert drop.get_build_config() == {"input_shape": (None, 3)}
    inputs = tf.keras.Input((4,))
    outputs = L.Reshape((3, 1))(L.Dropout(0.1)(L.Dense(3)(inputs)))
    entries = tf.keras.Model(inputs, outputs).get_config()["layers"]
    assert ["build_config" in entry for entry in entries] == [False, True, False, False]


def test_a_subclass_with_its_own_build_is_built_by_its_first_call():
    seen = []

    class LoudDropout(L.Dropout):
        def build(self, input_shape):
            seen.append(tuple(input_shape))
            super().build(input_shape)

    loud = LoudDropout(0.1)
    assert not loud.built
    loud(tf.ones((2, 3)))
    assert seen == [(2, 3)] and loud.built and loud.get_build_config() == {"input_shape": (2, 3)}


def test_reshape_is_built_at_init_even_when_subclassed_with_a_build():
    class LoudReshape(L.Reshape):
        def build(self, input_shape):
            raise AssertionError("Keras 3 never calls it")

    reshape = LoudReshape((3, 1))
    assert reshape.built
    assert reshape(tf.ones((2, 3))).shape == (2, 3, 1) and reshape.get_build_config() is None


def test_summary_of_an_unbuilt_model_counts_built_layers_as_zero(capsys):
    model = tf.keras.Sequential([L.Dense(2), L.Dropout(0.2), L.Flatten(), L.ReLU()])
    assert [layer.built for layer in model.layers] == [False, True, False, True]
    model.summary()
    params = [line.rsplit("│", 2)[1].strip() for line in capsys.readouterr().out.splitlines()
              if line.startswith("│")]
    assert params == ["0 (unbuilt)", "0", "0 (unbuilt)", "0"]


@pytest.mark.parametrize("name", ["AveragePooling1D", "AveragePooling2D", "AveragePooling3D"])
def test_average_pooling_needs_a_pool_size(name):
    with pytest.raises(TypeError, match=rf"{name}.__init__\(\) missing 1 required positional argument: "
                                        "'pool_size'"):
        getattr(L, name)()
