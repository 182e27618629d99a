import tensorflow as tf

m = tf.reshape(tf.range(12), [3, 4])
for key in ([0, 2], [1], [2, -1], (1, 2)):
    print(key, m[key].numpy().tolist())
v = tf.Variable(m)
print(v[[1, 3]].numpy())
try:
    m[[0, 5]]
except Exception as e:
    print(type(e).__name__)
