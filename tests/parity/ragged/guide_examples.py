"""The Ragged tensors guide: the query-embedding example, strings ops, constructors, sparse, merge_dims."""
import tensorflow as tf

digits = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])
words = tf.ragged.constant([["So", "long"], ["thanks", "for", "all", "the", "fish"]])
print(tf.strings.substr(words, 0, 2))
print(tf.strings.upper(words), tf.strings.length(words))
print(tf.reduce_mean(digits, axis=1))

queries = tf.ragged.constant([["Who", "is", "Dan", "Smith"], ["Pause"],
                              ["Will", "it", "rain", "later", "today"]])
num_buckets = 1024
embedding_table = tf.Variable(tf.ones([num_buckets, 4]) * tf.range(num_buckets, dtype=tf.float32)[:, None])
word_buckets = tf.strings.to_hash_bucket_fast(queries, num_buckets)
print(word_buckets)
word_embeddings = tf.nn.embedding_lookup(embedding_table, word_buckets)
print(word_embeddings.shape)
marker = tf.fill([queries.nrows(), 1], "#")
padded = tf.concat([marker, queries, marker], axis=1)
print(padded)
bigrams = tf.strings.join([padded[:, :-1], padded[:, 1:]], separator="+")
print(bigrams)
bigram_buckets = tf.strings.to_hash_bucket_fast(bigrams, num_buckets)
bigram_embeddings = tf.nn.embedding_lookup(embedding_table, bigram_buckets)
all_embeddings = tf.concat([word_embeddings, bigram_embeddings], axis=1)
print(tf.reduce_mean(all_embeddings, axis=1))

rt = tf.RaggedTensor.from_nested_row_splits(
    flat_values=[10, 11, 12, 13, 14, 15, 16, 17, 18, 19],
    nested_row_splits=([0, 1, 1, 5], [0, 3, 3, 5, 9, 10]))
print(rt, rt.shape, rt.ragged_rank)
print(tf.RaggedTensor.from_nested_row_lengths([1, 2, 3, 4], ([2, 1], [1, 0, 3])))
print(tf.RaggedTensor.from_nested_value_rowids([1, 2, 3], ([0, 0, 1], [0, 2, 2]), (3, 3)))
rt = tf.RaggedTensor.from_uniform_row_length(
    values=tf.RaggedTensor.from_row_splits(values=[10, 11, 12, 13, 14, 15, 16, 17, 18, 19],
                                           row_splits=[0, 3, 5, 9, 10]),
    uniform_row_length=2)
print(rt, rt.shape, rt.ragged_rank)

ragged_sentences = tf.ragged.constant([["Hi"], ["Welcome", "to", "the", "fair"], ["Have", "fun"]])
print(ragged_sentences.to_sparse())
st = tf.SparseTensor(indices=[[0, 0], [2, 0], [2, 1]], values=["a", "b", "c"], dense_shape=[3, 3])
print(tf.RaggedTensor.from_sparse(st))
ragged_x = tf.ragged.constant([["John"], ["a", "big", "dog"], ["my", "cat"]])
ragged_y = tf.ragged.constant([["fell", "asleep"], ["barked"], ["is", "fuzzy"]])
sparse_result = tf.sparse.concat(sp_inputs=[ragged_x.to_sparse(), ragged_y.to_sparse()], axis=1)
print(tf.sparse.to_dense(sparse_result, ""))

a = tf.ragged.constant([[1, 2], [3]])
n = tf.ragged.constant([[[1, 2], [3]], [[4, 5, 6]]])
print(a.merge_dims(0, 1), n.merge_dims(1, 2), n.merge_dims(0, 1), n.merge_dims(0, -1))
u = tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)
print(u.merge_dims(1, 2), u.merge_dims(0, 1))
