"""conv1d/2d/3d_transpose as the adjoint of the convolution, and the Keras ConvNDTranspose layers."""

import numpy as np
import pytest

import companion as tf

RNG = np.random.default_rng(3)


@pytest.mark.parametrize("strides, padding, kernel, size", [
    (2, "SAME", 3, 10), (2, "VALID", 3, 11), (2, "SAME", 4, 10), (1, "VALID", 2, 6), (3, "SAME", 3, 15)])
def test_conv2d_transpose_is_the_adjoint_of_conv2d(strides, padding, kernel, size):
    filters = RNG.normal(size=(kernel, kernel, 4, 3)).astype(np.float32)
    x = RNG.normal(size=(2, size, size, 4)).astype(np.float32)
    forward = tf.nn.conv2d(x, filters, strides, padding)
    y = RNG.normal(size=forward.shape).astype(np.float32)
    back = tf.nn.conv2d_transpose(y, filters, x.shape, strides, padding)
    assert back.shape == x.shape
    # <conv(x), y> == <x, conv_transpose(y)> for every x, y: the defining property
    np.testing.assert_allclose(np.sum(forward.numpy() * y), np.sum(x * back.numpy()), rtol=1e-4)


def test_conv1d_and_conv3d_transpose_shapes_and_a_bad_output_shape():
    y = tf.ones([1, 5, 2])
    assert tf.nn.conv1d_transpose(y, tf.ones([3, 4, 2]), [1, 10, 4], 2).shape == (1, 10, 4)
    assert tf.nn.conv3d_transpose(tf.ones([1, 2, 2, 2, 1]), tf.ones([2, 2, 2, 3, 1]), [1, 4, 4, 4, 3], 2,
                                  "VALID").shape == (1, 4, 4, 4, 3)
    with pytest.raises(tf.errors.InvalidArgumentError, match="output_shape"):
        tf.nn.conv2d_transpose(tf.ones([1, 5, 5, 3]), tf.ones([3, 3, 4, 3]), [1, 12, 12, 4], 2, "SAME")


@pytest.mark.parametrize("kwargs, shape", [
    (dict(filters=4, kernel_size=3, strides=2), (2, 11, 11, 4)),
    (dict(filters=2, kernel_size=3, strides=2, padding="same"), (2, 10, 10, 2)),
    (dict(filters=2, kernel_size=3, strides=2, output_padding=1), (2, 12, 12, 2)),
    (dict(filters=3, kernel_size=3, dilation_rate=2), (2, 9, 9, 3))])
def test_conv2d_transpose_layer_shapes_and_values(kwargs, shape):
    x = RNG.normal(size=(2, 5, 5, 3)).astype(np.float32)
    layer = tf.keras.layers.Conv2DTranspose(**kwargs, use_bias=False)
    y = layer(x)
    assert y.shape == shape and layer.compute_output_shape((None, 5, 5, 3)) == (None,) + shape[1:]
    assert layer.kernel.shape == (*layer.kernel_size, kwargs["filters"], 3)
    # the layer is conv2d_transpose of its kernel to its output shape
    expected = tf.nn.conv2d_transpose(x, layer.kernel, y.shape, layer.strides, layer.padding.upper(),
                                      dilations=layer.dilation_rate)
    np.testing.assert_allclose(y.numpy(), expected.numpy(), rtol=1e-5, atol=1e-5)


def test_values_tensorflow_gives_for_a_transposed_convolution():
    # what TF 2.21 printed for these two
    out = tf.nn.conv2d_transpose(tf.ones([1, 2, 2, 1]), tf.ones([2, 2, 1, 1]), [1, 4, 4, 1], 2, "VALID")
    np.testing.assert_array_equal(out.numpy()[0, :, :, 0], np.ones((4, 4)))
    out = tf.nn.conv2d_transpose(tf.ones([1, 2, 2, 1]), tf.ones([3, 3, 1, 1]), [1, 4, 4, 1], 2, "SAME")
    expected = [[1, 1, 2, 1], [1, 1, 2, 1], [2, 2, 4, 2], [1, 1, 2, 1]]
    np.testing.assert_array_equal(out.numpy()[0, :, :, 0], expected)


def test_a_decoder_of_transposed_convolutions_trains():
    model = tf.keras.Sequential([
        tf.keras.Input((7, 7, 8)),
        tf.keras.layers.Conv2DTranspose(4, 3, strides=2, padding="same", activation="relu"),
        tf.keras.layers.Conv2DTranspose(1, 3, strides=2, padding="same")])
    assert [tuple(layer.output.shape) for layer in model.layers] == [(None, 14, 14, 4), (None, 28, 28, 1)]
    assert model.count_params() == 3 * 3 * 8 * 4 + 4 + 3 * 3 * 4 * 1 + 1
    x = RNG.normal(size=(16, 7, 7, 8)).astype(np.float32)
    target = RNG.normal(size=(16, 28, 28, 1)).astype(np.float32)
    model.compile(optimizer="adam", loss="mse")
    losses = model.fit(x, target, epochs=5, batch_size=8, verbose=0).history["loss"]
    assert losses[-1] < losses[0]
