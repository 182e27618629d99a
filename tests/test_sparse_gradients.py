"""Gradients of row lookups are `IndexedSlices`, as in TF; optimizers and clipping take them as Keras does.

Oracles: `jax.grad` of the same function (the dense gradient the slices must sum to), TF 2.21's
recorded types, dtypes and values (comments), and NumPy written-out Keras update rules.
"""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import companion as tf
from tests.distribute.replicas import run_with_devices

TABLE = np.linspace(0.5, 1.5, 8, dtype=np.float32).reshape(4, 2)


def _dense(grad):
    return tf.convert_to_tensor(grad).numpy()


def test_an_embedding_layers_gradient_is_indexed_slices():
    layer = tf.keras.layers.Embedding(6, 3, embeddings_initializer="ones")
    ids = tf.constant([[1, 2], [2, 5]])
    with tf.GradientTape() as tape:
        out = tf.reduce_sum(layer(ids) * 2.0)
    grad, = tape.gradient(out, layer.trainable_variables)
    # TF 2.21: IndexedSlices, int32 indices [1, 2, 2, 5], values (4, 3), dense_shape int32 [6, 3]
    assert isinstance(grad, tf.IndexedSlices)
    assert grad.indices.dtype == tf.int32 and grad.indices.numpy().tolist() == [1, 2, 2, 5]
    assert grad.values.shape == (4, 3) and grad.dense_shape.dtype == tf.int32
    assert grad.dense_shape.numpy().tolist() == [6, 3]
    ids = np.array([[1, 2], [2, 5]])
    expected = jax.grad(lambda t: jnp.sum(jnp.take(t, ids, axis=0) * 2.0))(jnp.ones((6, 3)))
    np.testing.assert_allclose(_dense(grad), expected)


def test_several_lookups_concatenate_and_a_dense_use_makes_the_gradient_dense():
    v = tf.Variable(TABLE)
    with tf.GradientTape(persistent=True) as tape:
        a = tf.gather(v, [0, 3])
        b = tf.gather(v, tf.constant([1], dtype=tf.int64))
        sparse_loss = tf.reduce_sum(a) + tf.reduce_sum(b * b)
        dense_loss = tf.reduce_sum(a) + tf.reduce_sum(v)  # reads v whole: not on sparse_loss's path
    sparse, dense = tape.gradient(sparse_loss, v), tape.gradient(dense_loss, v)
    # TF 2.21: IndexedSlices with int64 indices [0, 3, 1] (mixed index dtypes), then a dense EagerTensor
    assert isinstance(sparse, tf.IndexedSlices) and sparse.indices.dtype == tf.int64
    assert sparse.indices.numpy().tolist() == [0, 3, 1]
    oracle = jax.grad(lambda t: jnp.sum(t[jnp.array([0, 3])]) + jnp.sum(t[jnp.array([1])] ** 2))(TABLE)
    np.testing.assert_allclose(_dense(sparse), oracle)
    assert isinstance(dense, tf.Tensor)
    oracle = jax.grad(lambda t: jnp.sum(t[jnp.array([0, 3])]) + jnp.sum(t))(TABLE)
    np.testing.assert_allclose(dense.numpy(), oracle)


def test_other_axes_and_other_uses_keep_dense_gradients():
    v = tf.Variable(TABLE)
    x = tf.constant(TABLE)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        by_column = tf.reduce_sum(tf.gather(v, [1], axis=1))
        of_tensor = tf.reduce_sum(tf.gather(x, [0, 0]))
        of_product = tf.reduce_sum(tf.gather(x * 1.0, [0, 0]))
    assert isinstance(tape.gradient(by_column, v), tf.Tensor)  # TF: dense for axis != 0 too
    # TF 2.21: a watched tensor's row lookup is IndexedSlices too (indices [0 0]); a lookup of a
    # tensor computed from it is dense
    grad = tape.gradient(of_tensor, x)
    assert isinstance(grad, tf.IndexedSlices) and grad.indices.numpy().tolist() == [0, 0]
    assert isinstance(tape.gradient(of_product, x), tf.Tensor)


def test_inside_function_the_gradient_is_indexed_slices_too():
    layer = tf.keras.layers.Embedding(5, 2)
    layer.build((None,))

    @tf.function
    def rows(ids):
        with tf.GradientTape() as tape:
            out = tf.reduce_sum(layer(ids))
        grad = tape.gradient(out, layer.embeddings)
        return grad.values, grad.indices

    values, indices = rows(tf.constant([4, 0, 4]))
    assert values.shape == (3, 2) and indices.numpy().tolist() == [4, 0, 4]


def _adam_rows(table, ids, steps, lr=0.1, b1=0.9, b2=0.999, eps=1e-7):
    """Keras's Adam on sum(table[ids] ** 2) with its sparse square: v gets each slice squared, summed."""
    w, m, v = table.astype(np.float64), np.zeros_like(table, np.float64), np.zeros_like(table, np.float64)
    for t in range(1, steps + 1):
        slices = 2 * w[ids]
        g, g2 = np.zeros_like(w), np.zeros_like(w)
        np.add.at(g, ids, slices)
        np.add.at(g2, ids, slices ** 2)
        m += (g - m) * (1 - b1)
        v += (g2 - v) * (1 - b2)
        w -= lr * np.sqrt(1 - b2 ** t) / (1 - b1 ** t) * m / (np.sqrt(v) + eps)
    return w


@pytest.mark.parametrize("make", [lambda: tf.keras.optimizers.Adam(0.1),
                                  lambda: tf.keras.optimizers.SGD(0.1)], ids=["Adam", "SGD"])
def test_optimizers_apply_slices_as_keras_does_with_repeated_rows(make):
    ids = [1, 1, 3, 0, 1]
    opt, w = make(), tf.Variable(TABLE)
    for _ in range(3):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.square(tf.gather(w, ids)))
        grads = tape.gradient(loss, [w])
        assert isinstance(grads[0], tf.IndexedSlices)
        opt.apply_gradients(zip(grads, [w]))
    if isinstance(opt, tf.keras.optimizers.Adam):
        # TF 2.21 rows 0, 1 after 3 steps: [0.20487, 0.34601], [0.27619, 0.41641]
        np.testing.assert_allclose(w.numpy(), _adam_rows(TABLE, ids, 3), rtol=1e-4)
        np.testing.assert_allclose(w.numpy()[:2], [[0.20487, 0.34601], [0.27619, 0.41641]], atol=2e-5)
    else:
        counts = np.bincount(ids, minlength=4)[:, None]
        expected = TABLE * (1 - 0.2 * counts) ** 3  # SGD: the summed rows, exactly the dense step
        np.testing.assert_allclose(w.numpy(), expected, rtol=1e-5)


def test_clipping_keeps_slices_and_measures_their_values():
    v = tf.Variable(TABLE)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.gather(v, [0, 2, 2]) * 3.0)
    grad = tape.gradient(loss, v)
    values = grad.values.numpy()
    clipped = tf.clip_by_norm(grad, 1.0)
    assert isinstance(clipped, tf.IndexedSlices)
    np.testing.assert_allclose(clipped.values.numpy(), values / np.linalg.norm(values), rtol=1e-6)
    (global_clipped, none), norm = tf.clip_by_global_norm([grad, None], 1.0)
    assert isinstance(global_clipped, tf.IndexedSlices) and none is None
    np.testing.assert_allclose(float(norm), np.linalg.norm(values), rtol=1e-6)  # TF: the slices' norm
    np.testing.assert_allclose(float(tf.linalg.global_norm([grad])), np.linalg.norm(values), rtol=1e-6)


def test_is_tensor_counts_composite_tensors_as_tf_does():
    rows = tf.IndexedSlices(tf.constant([[1.0]]), tf.constant([0]), tf.constant([2, 1]))
    # TF 2.21: True for Tensor, Variable, IndexedSlices, RaggedTensor; False for NumPy and Python values
    assert tf.is_tensor(rows) and tf.is_tensor(tf.ragged.constant([[1], []]))
    assert tf.is_tensor(tf.Variable(1.0)) and tf.is_tensor(tf.constant(1.0))
    assert not tf.is_tensor(np.ones(2)) and not tf.is_tensor(1.0)
    with pytest.raises(TypeError):
        rows * 2.0  # TF 2.21: IndexedSlices has no arithmetic but negation
    np.testing.assert_array_equal(tf.multiply(rows, 2.0).numpy(), [[2.0], [0.0]])  # ops convert it


MIRRORED = """
import numpy as np, companion as tf
ids = np.array([[1, 2, 2], [3, 1, 0], [2, 2, 2], [4, 0, 1]])
y = np.array([1.0, 0.0, 1.0, 0.0], "float32")

def train(strategy):
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.Input((3,), dtype="int32"),
                                     tf.keras.layers.Embedding(5, 2, embeddings_initializer="ones"),
                                     tf.keras.layers.GlobalAveragePooling1D(),
                                     tf.keras.layers.Dense(1, kernel_initializer="ones")])
        optimizer = tf.keras.optimizers.Adam(0.1)
    batches = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((ids, y)).batch(4))

    @tf.function
    def step(batch):
        def replica(x, t):
            with tf.GradientTape() as tape:
                loss = tf.nn.compute_average_loss(tf.square(model(x)[:, 0] - t), global_batch_size=4)
            grads = tape.gradient(loss, model.trainable_variables)  # an IndexedSlices and dense ones
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
            return loss
        return strategy.reduce("SUM", strategy.run(replica, args=batch), axis=None)

    for _ in range(3):
        for batch in batches:
            step(batch)
    return [w.tolist() for w in model.get_weights()]

emit(one=train(tf.distribute.OneDeviceStrategy("/cpu:0")), mirrored=train(tf.distribute.MirroredStrategy()))
"""


def test_mirrored_replicas_apply_sparse_and_dense_gradients_like_one_device():
    """Each replica's slices are squared before the replicas' squares are summed (TF concatenates the
    replicas' slices), next to dense gradients: two replicas give one device's weights."""
    result = run_with_devices(MIRRORED, devices=2)
    assert len(result["one"]) == 3  # embeddings, kernel, bias
    for a, b in zip(result["one"], result["mirrored"]):
        np.testing.assert_allclose(b, a, rtol=1e-5, atol=1e-6)
