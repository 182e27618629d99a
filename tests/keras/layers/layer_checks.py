"""`check_layer`: the shared layer test (shape, weights, config round trip, finite differences)."""

import numpy as np

import companion as tf

_EPS = 1e-6


def check_layer(layer, inputs, output_shape, num_weights, expected=None, call_kwargs=None,
                gradients=True, rtol=1e-6):
    """Calls ``layer`` on ``inputs`` and checks it as Keras's ``run_layer_test`` does.

    Checks the output shape (and values, against ``expected`` from an oracle), the weight
    count, that ``from_config(get_config())`` rebuilds a layer with the same config that
    gives the same outputs with the same weights, and (``gradients``) that the gradients of
    a random projection of the output with respect to the float inputs and the trainable
    weights match central finite differences, computed on a float64 copy of the layer.
    Returns the output as a NumPy array.
    """
    call_kwargs = call_kwargs or {}
    output = np.asarray(layer(inputs, **call_kwargs))
    assert output.shape == tuple(output_shape), (output.shape, output_shape)
    assert len(layer.weights) == num_weights, [w.name for w in layer.weights]
    if expected is not None:
        np.testing.assert_allclose(output, expected, rtol=rtol, atol=rtol)
    config = layer.get_config()
    clone = type(layer).from_config(config)
    assert clone.get_config() == config
    clone(inputs, **call_kwargs)
    clone.set_weights(layer.get_weights())
    np.testing.assert_allclose(np.asarray(clone(inputs, **call_kwargs)), output, rtol=1e-6, atol=1e-6)
    if gradients:
        _check_gradients(type(layer).from_config({**config, "dtype": "float64"}), layer, inputs,
                         call_kwargs)
    return output


def _check_gradients(layer64, layer, inputs, call_kwargs):
    inputs = np.asarray(inputs)
    x = inputs.astype(np.float64) if np.issubdtype(inputs.dtype, np.floating) else inputs
    layer64(x, **call_kwargs)
    layer64.set_weights([w.astype(np.float64) if np.issubdtype(w.dtype, np.floating) else w
                         for w in layer.get_weights()])
    rng = np.random.default_rng(0)
    projection = rng.normal(size=np.asarray(layer64(x, **call_kwargs)).shape)

    def loss(x_value):
        return float(np.sum(np.asarray(layer64(x_value, **call_kwargs)) * projection))

    x_tensor = tf.constant(x)
    params = layer64.trainable_weights
    with tf.GradientTape() as tape:
        tape.watch(x_tensor)
        value = tf.reduce_sum(layer64(x_tensor, **call_kwargs) * projection)
    grads = tape.gradient(value, [x_tensor] + params)
    if np.issubdtype(x.dtype, np.floating):
        _compare(grads[0], _numeric(lambda v: loss(v), x, rng))
    for var, grad in zip(params, grads[1:]):
        original = var.numpy().copy()

        def loss_at(v, var=var):
            var.assign(v)
            return loss(x)

        numeric = _numeric(loss_at, original, rng)
        var.assign(original)
        _compare(grad, numeric)


def _numeric(fn, point, rng, samples=25):
    """Central differences of ``fn`` at up to ``samples`` random elements of ``point``."""
    flat = point.ravel()
    picks = rng.choice(flat.size, size=min(samples, flat.size), replace=False)
    estimates = {}
    for i in picks:
        up, down = flat.copy(), flat.copy()
        up[i] += _EPS
        down[i] -= _EPS
        estimates[i] = (fn(up.reshape(point.shape)) - fn(down.reshape(point.shape))) / (2 * _EPS)
    return estimates


def _compare(grad, numeric):
    analytic = np.zeros(1) if grad is None else tf.convert_to_tensor(grad).numpy().ravel()  # IndexedSlices
    for i, value in numeric.items():
        got = 0.0 if grad is None else analytic[i]
        np.testing.assert_allclose(got, value, rtol=1e-5, atol=1e-6)
