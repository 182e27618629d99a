"""SpatialDropout1D/2D: whole channels dropped together, Keras 3's shapes, configs and errors."""

import numpy as np
import pytest

import companion as tf
from companion.keras import layers


def test_spatial_dropout_1d_drops_whole_channels():
    layer = layers.SpatialDropout1D(0.5, seed=3)
    out = layer(tf.ones([4, 6, 8]), training=True).numpy()
    assert (out == out[:, :1, :]).all()
    assert set(np.unique(out).tolist()) == {0.0, 2.0}
    np.testing.assert_array_equal(layer(tf.ones([4, 6, 8])).numpy(), np.ones([4, 6, 8]))


@pytest.mark.parametrize("data_format, shape, kept", [
    ("channels_last", (3, 4, 5, 6), np.s_[:, :1, :1, :]),
    ("channels_first", (3, 6, 4, 5), np.s_[:, :, :1, :1]),
])
def test_spatial_dropout_2d_drops_whole_feature_maps(data_format, shape, kept):
    out = layers.SpatialDropout2D(0.5, data_format=data_format, seed=1)(tf.ones(shape), training=True).numpy()
    assert (out == out[kept]).all()
    assert set(np.unique(out).tolist()) == {0.0, 2.0}


def test_spatial_dropout_config_and_rank_check():
    # Keras 3.15: {'rate': 0.3, 'seed': None, 'name': ..., 'dtype': ..., 'data_format': 'channels_last'}
    config = layers.SpatialDropout2D(0.3).get_config()
    assert config["rate"] == 0.3 and config["seed"] is None and config["data_format"] == "channels_last"
    assert "noise_shape" not in config
    assert "noise_shape" not in layers.SpatialDropout1D(0.3).get_config()
    # Keras 3.15: ValueError "... expected ndim=3, found ndim=2. Full shape received: (2, 3)"
    with pytest.raises(ValueError, match="expected ndim=3, found ndim=2"):
        layers.SpatialDropout1D(0.5)(tf.ones([2, 3]))
