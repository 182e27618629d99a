"""Embedding output shape and mask_zero."""
import tensorflow as tf

emb = tf.keras.layers.Embedding(input_dim=10, output_dim=4, mask_zero=True)
x = tf.constant([[1, 2, 0, 0], [3, 0, 0, 0]])
y = emb(x)
print(y.shape, emb.count_params())
print(emb.compute_mask(x))
print(emb.embeddings.shape)
