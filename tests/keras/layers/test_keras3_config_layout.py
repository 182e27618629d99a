"""Layers' and initializers' get_config in Keras 3.15's layout: keys, their order and values (TF 2.21)."""

from companion import keras

POLICY = {"module": "keras", "class_name": "DTypePolicy", "config": {"name": "float32"},
          "registered_name": None}


def _init(name, config):
    return {"module": "keras.initializers", "class_name": name, "config": config, "registered_name": None}


GLOROT = _init("GlorotUniform", {"seed": None, "input_axes": None, "output_axes": None})
ZEROS, ONES = _init("Zeros", {}), _init("Ones", {})


def test_dense_config_as_tensorflow_prints_it():
    assert keras.layers.Dense(2, name="d").get_config() == {
        "name": "d", "trainable": True, "dtype": POLICY, "units": 2, "activation": "linear", "use_bias": True,
        "kernel_initializer": GLOROT, "bias_initializer": ZEROS, "kernel_regularizer": None,
        "bias_regularizer": None, "kernel_constraint": None, "bias_constraint": None,
        "quantization_config": None}
    config = keras.layers.Dense(3, activity_regularizer="l2", name="r").get_config()
    assert list(config)[:5] == ["name", "trainable", "dtype", "activity_regularizer", "units"]
    assert "activity_regularizer" not in list(config)[5:]
    assert keras.layers.Dense.from_config(config).get_config() == config


def test_key_orders_of_common_layers():
    assert list(keras.layers.Dropout(0.5).get_config())[3:] == ["rate", "seed", "noise_shape"]
    assert list(keras.layers.BatchNormalization().get_config())[-4:] == [
        "synchronized", "renorm", "renorm_clipping", "renorm_momentum"]
    assert list(keras.layers.LayerNormalization().get_config())[3:8] == [
        "axis", "epsilon", "center", "scale", "rms_scaling"]
    embedding = keras.layers.Embedding(5, 2).get_config()
    assert embedding["embeddings_initializer"]["config"] == {"seed": None, "minval": -0.05, "maxval": 0.05}
    assert list(embedding)[-2:] == ["mask_zero", "quantization_config"]
    assert keras.layers.Flatten().get_config()["data_format"] == "channels_last"
    for layer in (keras.layers.BatchNormalization(), keras.layers.LayerNormalization(),
                  keras.layers.Embedding(5, 2), keras.layers.Dropout(0.1)):
        assert type(layer).from_config(layer.get_config()).get_config()["name"] == layer.name


def test_initializer_configs_put_the_seed_first():
    assert keras.initializers.RandomNormal().get_config() == {"seed": None, "mean": 0.0, "stddev": 0.05}
    assert list(keras.initializers.TruncatedNormal(seed=1).get_config()) == ["seed", "mean", "stddev"]
    assert list(keras.initializers.RandomUniform().get_config()) == ["seed", "minval", "maxval"]
    assert keras.initializers.Orthogonal().get_config() == {"seed": None, "gain": 1.0}
    assert keras.initializers.Identity().get_config() == {}


def test_recurrent_configs_list_the_rnn_arguments_first():
    rnn_keys = ["return_sequences", "return_state", "go_backwards", "stateful", "unroll",
                "zero_output_for_mask", "units"]
    lstm = keras.layers.LSTM(2).get_config()
    assert list(lstm)[3:10] == rnn_keys
    assert list(lstm)[15:17] == ["bias_initializer", "unit_forget_bias"] and list(lstm)[-1] == "seed"
    assert list(keras.layers.GRU(2).get_config())[-3:] == ["recurrent_dropout", "reset_after", "seed"]
    simple = keras.layers.SimpleRNN(2).get_config()
    assert list(simple)[-1] == "recurrent_dropout" and "recurrent_activation" not in simple
    bidirectional = keras.layers.Bidirectional(keras.layers.LSTM(2, name="l")).get_config()
    assert list(bidirectional)[3:] == ["merge_mode", "layer", "backward_layer"]
    assert bidirectional["layer"]["config"]["name"] == "forward_l"
    assert keras.layers.Bidirectional.from_config(bidirectional).forward_layer.name == "forward_l"
