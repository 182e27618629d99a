import numpy as np
import tensorflow as tf

K = tf.keras.backend
rng = np.random.RandomState(0)
logits = rng.randn(3, 6, 5).astype("float32")
probs = np.exp(logits) / np.exp(logits).sum(-1, keepdims=True)
y_true = np.array([[1, 2, 2, 0], [3, 3, 0, 0], [0, 1, 2, 3]], "int32")
label_length = np.array([[3], [2], [4]], "int32")
input_length = np.array([[6], [5], [6]], "int32")

cost = K.ctc_batch_cost(y_true, probs, input_length, label_length)
print(cost.shape, cost.dtype, np.round(cost.numpy(), 4).tolist())
junk = np.array([[1, 2, 2, 7], [3, 3, 9, -1], [0, 1, 2, 3]], "int32")  # past each length: ignored
print(np.round(K.ctc_batch_cost(junk, probs, input_length, label_length).numpy(), 4).tolist())
cast = K.ctc_batch_cost(tf.constant(y_true, "float32"), tf.constant(probs),
                        tf.constant(input_length, "int64"), tf.constant(label_length, "int64"))
print(np.round(cast.numpy(), 4).tolist())
no_path = K.ctc_batch_cost(np.array([[1, 1, 1]]), probs[:1, :4], np.array([[4]]), np.array([[3]]))
print("no path", no_path.numpy())

decoded, log_prob = K.ctc_decode(probs, np.array([6, 5, 6]))
print(len(decoded), decoded[0].dtype, decoded[0].shape, decoded[0].numpy().tolist())
print(log_prob.dtype, log_prob.shape, np.round(log_prob.numpy(), 4).tolist())
decoded, log_prob = K.ctc_decode(probs, np.array([0, 3, 6]))
print(decoded[0].numpy().tolist(), np.round(log_prob.numpy(), 4).tolist())

variable = tf.Variable(probs)
with tf.GradientTape() as tape:
    total = tf.reduce_sum(K.ctc_batch_cost(y_true, variable, input_length, label_length))
print(np.round(tape.gradient(total, variable).numpy()[0, :2], 3).tolist())


@tf.function
def traced(labels, predictions, inputs, lengths):
    return K.ctc_batch_cost(labels, predictions, inputs, lengths)


print(np.round(traced(y_true, probs, input_length, label_length).numpy(), 4).tolist())

bad = {
    "zero label": (y_true, input_length, np.array([[0], [2], [4]])),
    "label is blank": (np.array([[4, 1, 0, 0]] * 3), input_length, label_length),
    "input too long": (y_true, np.array([[7], [5], [6]]), label_length),
    "label longer than input": (y_true, np.array([[2], [5], [6]]), label_length),
}
for name, (labels, inputs, lengths) in bad.items():
    for run in (K.ctc_batch_cost, traced):
        try:
            run(labels, probs, inputs, lengths)
            print(name, "no error")
        except tf.errors.InvalidArgumentError as e:
            print(name, type(e).__name__)
try:
    K.ctc_decode(probs, np.array([7, 5, 6]))
except tf.errors.OpError as e:
    print("decode too long", type(e).__name__)
