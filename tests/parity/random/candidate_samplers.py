"""random.log_uniform_candidate_sampler / uniform_candidate_sampler (word2vec's negative sampling):
shapes, dtypes, ranges, uniqueness, the expected counts that do not depend on the draw, errors."""
import numpy as np
import tensorflow as tf

classes = tf.constant([[1], [5], [40]], tf.int64)
sampled, true_count, sampled_count = tf.random.log_uniform_candidate_sampler(classes, 1, 6, False, 50, seed=3)
print(sampled.dtype.name, sampled.shape, true_count.dtype.name, true_count.shape, sampled_count.shape)
print(np.round(true_count.numpy().ravel(), 5))  # p(k) * num_sampled, whatever was drawn
k = sampled.numpy().astype(np.float64)
print(bool(np.allclose(sampled_count.numpy(), 6 * np.log((k + 2) / (k + 1)) / np.log(51), rtol=1e-5)))
print(bool(((sampled.numpy() >= 0) & (sampled.numpy() < 50)).all()))

sampled, true_count, sampled_count = tf.random.log_uniform_candidate_sampler(classes, 1, 20, True, 45, seed=3)
print(len(set(sampled.numpy().tolist())), bool((true_count.numpy() > 0).all()), sampled_count.shape)
sampled, true_count, _ = tf.random.uniform_candidate_sampler(tf.constant([[1, 2]], tf.int64), 2, 4, False, 10)
print(sampled.shape, np.round(true_count.numpy(), 5).tolist())
sampled, _, _ = tf.random.uniform_candidate_sampler(tf.constant([[1, 2]], tf.int64), 2, 10, True, 10, seed=1)
print(sorted(sampled.numpy().tolist()))

for bad in (lambda: tf.random.log_uniform_candidate_sampler(classes, 1, 60, True, 50),
            lambda: tf.random.log_uniform_candidate_sampler(tf.constant([[1]]), 1, 6, True, 50),
            lambda: tf.random.log_uniform_candidate_sampler(classes, 2, 6, True, 50),
            lambda: tf.random.log_uniform_candidate_sampler(classes, 1, 6, True, 0),
            lambda: tf.random.log_uniform_candidate_sampler(classes, 1, 6, True, 40)):
    try:
        bad()
        print("no error")
    except Exception as e:
        print(type(e).__name__)
