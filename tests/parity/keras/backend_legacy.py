"""tf.keras.backend: the legacy backend functions, settings and dtype helpers on fixed values."""
import numpy as np
import tensorflow as tf

K = tf.keras.backend


def show(name, value):
    if isinstance(value, (tf.Tensor, tf.Variable)):
        value = value.numpy()
    if isinstance(value, np.ndarray):
        rounded = np.round(value, 4) if value.dtype.kind == "f" else value
        print(name, value.dtype, value.shape, rounded.tolist())
    else:
        print(name, value)


def error(name, fn):
    try:
        fn()
        print(name, "no error")
    except Exception as e:  # noqa: BLE001
        print(name, type(e).__name__, isinstance(e, ValueError), isinstance(e, TypeError))


# settings and dtypes
print(K.backend(), K.floatx(), K.image_data_format(), K.epsilon())
K.set_floatx("float32")
K.set_image_data_format("channels_last")
error("set_floatx bad", lambda: K.set_floatx("int8"))
error("set_image_data_format bad", lambda: K.set_image_data_format("nchw"))
print(K.standardize_dtype("float16"), K.standardize_dtype(tf.int8), K.standardize_dtype(int),
      K.standardize_dtype(float), K.standardize_dtype(None), K.standardize_dtype(np.float64),
      K.standardize_dtype(bool), K.standardize_dtype(np.dtype("uint8")))
error("standardize_dtype bad", lambda: K.standardize_dtype("float7"))
print(K.is_float_dtype("bfloat16"), K.is_float_dtype(tf.int32), K.is_int_dtype("uint16"),
      K.is_int_dtype(float))
print(K.result_type("int32", "float32"), K.result_type("int8", int), K.result_type("uint8", "int8"),
      K.result_type(float, "int64"), K.result_type("float16", float), K.result_type(int, float),
      K.result_type("bool", "int16"), K.result_type(), K.result_type("uint32", "int32"),
      K.result_type("bfloat16", "float16"), K.result_type("int64", "uint64"), K.result_type(bool, int))
error("result_type float8", lambda: K.result_type("float8_e4m3fn", "float32"))
print(K.dtype(tf.constant([1, 2])), K.dtype(tf.Variable(1.0)), K.dtype(tf.constant(1, tf.int64)))
show("cast", K.cast(tf.constant([1.7, -1.7]), "int32"))
show("cast_to_floatx list", K.cast_to_floatx([1, 2]))
show("cast_to_floatx tensor", K.cast_to_floatx(tf.constant([1, 2])))
print(type(K.cast_to_floatx([1, 2])).__name__)

# element-wise math and comparisons
x = tf.constant([[-1.5, 0.0, 2.5], [3.0, -0.5, 1.0]])
y = tf.constant([[1.0, 0.0, -2.0], [3.0, 1.0, 0.5]])
for name in ["abs", "exp", "square", "sqrt", "cos", "sin", "sign", "round", "tanh", "sigmoid", "softplus",
             "softsign", "hard_sigmoid"]:
    show(name, getattr(K, name)(x))
show("log", K.log(tf.constant([1.0, 2.0, 10.0])))
show("pow", K.pow(x, 2))
show("pow3", K.pow(tf.constant([2.0, 3.0]), 3))
for name in ["maximum", "minimum", "equal", "not_equal", "greater", "greater_equal", "less", "less_equal"]:
    show(name, getattr(K, name)(x, y))
show("clip", K.clip(x, -1.0, 1.0))
show("clip none", K.clip(x, None, 1.0))
show("clip swapped", K.clip(x, 1.0, 0.0))
show("round halves", K.round(tf.constant([0.5, 1.5, 2.5, -0.5, -2.5])))

# reductions
for name in ["sum", "mean", "prod", "max", "min", "std", "var"]:
    fn = getattr(K, name)
    show(name, fn(x))
    show(name + " axis0", fn(x, axis=0))
    show(name + " axis1 keep", fn(x, axis=1, keepdims=True))
show("all", K.all(tf.constant([[1, 0], [2, 3]]), axis=1))
show("any", K.any(tf.constant([[0, 0], [0, 3]]), axis=1))
show("all none", K.all(tf.constant([1.0, 2.0])))
show("any keep", K.any(tf.constant([[0.0, 0.0]]), axis=1, keepdims=True))
show("argmax", K.argmax(x))
show("argmin axis0", K.argmin(x, axis=0))
show("mean bool", K.mean(tf.constant([True, False, True, True])))
show("std bool", K.std(tf.constant([True, False])))
show("var bool", K.var(tf.constant([True, False, False, False])))
show("cumsum", K.cumsum(x))
show("cumsum axis1", K.cumsum(x, axis=1))
show("cumprod", K.cumprod(tf.constant([[1, 2], [3, 4]])))
show("cumprod axis1", K.cumprod(tf.constant([[1, 2], [3, 4]]), axis=1))

# activations
a = tf.constant([-3.0, -1.0, 0.0, 0.5, 2.0, 7.0])
show("relu", K.relu(a))
show("relu alpha", K.relu(a, alpha=0.1))
show("relu max6", K.relu(a, max_value=6.0))
show("relu max3", K.relu(a, max_value=3.0))
show("relu threshold", K.relu(a, threshold=1.0))
show("relu all", K.relu(a, alpha=0.2, max_value=5.0, threshold=0.5))
show("relu alpha max6", K.relu(a, alpha=0.3, max_value=6))
show("elu", K.elu(a))
show("elu alpha", K.elu(a, alpha=0.5))
show("softmax", K.softmax(x))
show("softmax axis0", K.softmax(x, axis=0))
show("softmax tuple", K.softmax(tf.reshape(tf.range(8.0), [2, 2, 2]), axis=(1, 2)))
error("softmax 1d", lambda: K.softmax(tf.constant([1.0, 2.0])))

# losses
t = tf.constant([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]])
p = tf.constant([[0.1, 0.7, 0.2], [0.5, 0.3, 0.2]])
logits = tf.constant([[1.0, 2.0, 0.5], [0.3, -1.0, 2.0]])
show("bce", K.binary_crossentropy(t, p))
show("bce logits", K.binary_crossentropy(t, logits, from_logits=True))
show("bce edge", K.binary_crossentropy(tf.constant([1.0, 0.0]), tf.constant([1.0, 0.0])))
show("bfce", K.binary_focal_crossentropy(t, p))
show("bfce balanced", K.binary_focal_crossentropy(t, p, apply_class_balancing=True, alpha=0.4, gamma=1.5))
show("bfce logits", K.binary_focal_crossentropy(t, logits, from_logits=True))
show("cce", K.categorical_crossentropy(t, p))
show("cce unnormalized", K.categorical_crossentropy(t, p * 3.0))
show("cce logits", K.categorical_crossentropy(t, logits, from_logits=True))
show("cce axis0", K.categorical_crossentropy(tf.transpose(t), tf.transpose(p), axis=0))
error("cce shapes", lambda: K.categorical_crossentropy(t, tf.ones([2, 4])))
show("cfce", K.categorical_focal_crossentropy(t, p))
show("cfce logits", K.categorical_focal_crossentropy(t, logits, alpha=0.5, gamma=1.0, from_logits=True))
labels = tf.constant([1, 0])
show("scce", K.sparse_categorical_crossentropy(labels, p))
show("scce logits", K.sparse_categorical_crossentropy(labels, logits, from_logits=True))
show("scce column labels", K.sparse_categorical_crossentropy(tf.constant([[1], [0]]), p))
seq = tf.reshape(tf.range(1.0, 13.0), [2, 2, 3]) / 13.0
show("scce seq", K.sparse_categorical_crossentropy(tf.constant([[0, 2], [1, 1]]), seq))
show("scce axis1", K.sparse_categorical_crossentropy(tf.constant([[0, 2], [1, 1]]),
                                                      tf.transpose(seq, [0, 2, 1]), axis=1))
show("scce ignore", K.sparse_categorical_crossentropy(tf.constant([1, 2, 0]), tf.constant(
    [[0.1, 0.7, 0.2], [0.5, 0.3, 0.2], [0.6, 0.2, 0.2]]), ignore_class=2))

# shapes and arrays
m = tf.reshape(tf.range(24), [2, 3, 4])
print(K.int_shape(m), K.ndim(m), K.count_params(m), K.int_shape(tf.Variable([1.0])),
      K.int_shape(np.zeros((3, 2))))
print(K.int_shape(tf.keras.Input((5, 2))))
show("shape", K.shape(m))
show("reshape", K.reshape(m, (4, -1)))
show("flatten", K.flatten(tf.constant([[1, 2], [3, 4]])))
show("batch_flatten", K.batch_flatten(m))
show("expand_dims", K.expand_dims(tf.constant([1, 2])))
show("expand_dims 0", K.expand_dims(tf.constant([1, 2]), 0))
show("squeeze", K.squeeze(tf.zeros([2, 1, 3]), 1))
show("transpose", K.transpose(tf.constant([[1, 2, 3], [4, 5, 6]])))
show("permute", K.permute_dimensions(m, (2, 0, 1)))
show("concat", K.concatenate([tf.constant([[1, 2]]), tf.constant([[3, 4]])]))
show("concat 0", K.concatenate([tf.constant([[1, 2]]), tf.constant([[3, 4]])], axis=0))
show("concat -2", K.concatenate([tf.ones([1, 2, 2]), tf.zeros([1, 1, 2])], axis=-2))
show("stack", K.stack([tf.constant([1, 2]), tf.constant([3, 4])]))
show("stack 1", K.stack([tf.constant([1, 2]), tf.constant([3, 4])], axis=1))
show("tile", K.tile(tf.constant([[1, 2]]), (2, 3)))
show("tile int", K.tile(tf.constant([1, 2]), 2))
show("repeat", K.repeat(tf.constant([[1, 2], [3, 4]]), 2))
error("repeat rank", lambda: K.repeat(tf.constant([1, 2]), 2))
show("repeat_elements", K.repeat_elements(tf.constant([[1, 2], [3, 4]]), 3, axis=1))
show("repeat_elements 0", K.repeat_elements(tf.constant([[1, 2], [3, 4]]), 2, axis=0))
show("reverse", K.reverse(m, 2))
show("reverse axes", K.reverse(m, [0, 1]))
show("gather", K.gather(tf.constant([[1, 2], [3, 4], [5, 6]]), [2, 0, 2]))
show("one_hot", K.one_hot(tf.constant([0, 2, 1]), 3))
show("one_hot 2d", K.one_hot(tf.constant([[0], [1]]), 2))

# products
show("dot", K.dot(tf.constant([[1.0, 2.0]]), tf.constant([[3.0], [4.0]])))
d = K.dot(tf.reshape(tf.range(24.0), [2, 3, 4]), tf.reshape(tf.range(40.0), [2, 4, 5]))
show("dot nd", d)
show("dot 2x3d", K.dot(tf.reshape(tf.range(6.0), [2, 3]), tf.reshape(tf.range(24.0), [2, 3, 4])))
bx = tf.reshape(tf.range(12.0), [2, 3, 2])
by = tf.reshape(tf.range(16.0), [2, 2, 4])
show("batch_dot", K.batch_dot(bx, by))
show("batch_dot axes", K.batch_dot(bx, tf.reshape(tf.range(18.0), [2, 3, 3]), axes=(1, 2)))
show("batch_dot 2d", K.batch_dot(tf.constant([[1.0, 2.0], [3.0, 4.0]]),
                                 tf.constant([[5.0, 6.0], [7.0, 8.0]])))
show("batch_dot 2d axes1", K.batch_dot(tf.constant([[1.0, 2.0], [3.0, 4.0]]),
                                       tf.constant([[5.0, 6.0], [7.0, 8.0]]), axes=1))
show("batch_dot 2d 3d", K.batch_dot(tf.constant([[1.0, 2.0], [3.0, 4.0]]), by))
show("batch_dot 4d", K.batch_dot(tf.reshape(tf.range(24.0), [2, 2, 3, 2]),
                                 tf.reshape(tf.range(12.0), [2, 2, 3]), axes=(3, 1)))
print(K.int_shape(K.batch_dot(tf.ones([32, 20, 1]), tf.ones([32, 30, 20]), axes=(1, 2))))
error("batch_dot axis0", lambda: K.batch_dot(bx, by, axes=0))
error("batch_dot rank1", lambda: K.batch_dot(tf.ones([2]), by))
error("batch_dot sizes", lambda: K.batch_dot(bx, tf.ones([2, 3, 4]), axes=(2, 1)))

# layer helpers
img = tf.reshape(tf.range(32.0), [1, 4, 4, 2]) / 10.0
show("bias_add", K.bias_add(img, tf.constant([1.0, -1.0])))
show("bias_add nd", K.bias_add(tf.zeros([1, 2, 2]), tf.constant([[1.0, 2.0], [3.0, 4.0]])))
show("bias_add first", K.bias_add(tf.zeros([1, 2, 3]), tf.constant([1.0, 2.0]), data_format="channels_first"))
show("bias_add first nd", K.bias_add(tf.zeros([1, 2, 3]), tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]),
                                     data_format="channels_first"))
error("bias_add rank", lambda: K.bias_add(img, tf.ones([2, 2])))
error("bias_add format", lambda: K.bias_add(img, tf.ones([2]), data_format="nhwc"))
show("batch_normalization", K.batch_normalization(x, tf.constant([1.0, 0.0, 0.5]),
                                                  tf.constant([4.0, 1.0, 0.25]), tf.constant(0.5),
                                                  tf.constant([2.0, 1.0, 1.0])))
show("l2_normalize", K.l2_normalize(x))
show("l2_normalize axis", K.l2_normalize(x, axis=1))
show("in_top_k", K.in_top_k(p, tf.constant([1, 2]), 1))
show("in_top_k 2", K.in_top_k(p, tf.constant([2, 2]), 2))
dropped = K.dropout(tf.ones([200]), 0.5, seed=3).numpy()
print("dropout", sorted(set(dropped.tolist())), dropped.shape)

# convolutions and pooling
kernel = tf.reshape(tf.range(8.0), [2, 2, 2, 1]) / 8.0
show("conv2d", K.conv2d(img, kernel))
show("conv2d same strides", K.conv2d(img, kernel, strides=(2, 2), padding="same"))
show("conv2d dilation", K.conv2d(img, kernel, dilation_rate=(2, 2)))
error("conv2d padding", lambda: K.conv2d(img, kernel, padding="full"))
error("conv2d format", lambda: K.conv2d(img, kernel, data_format="nchw"))
seq_in = tf.reshape(tf.range(10.0), [1, 5, 2])
k1 = tf.reshape(tf.range(12.0), [3, 2, 2]) / 10.0
show("conv1d", K.conv1d(seq_in, k1))
show("conv1d same", K.conv1d(seq_in, k1, padding="same"))
show("conv1d causal", K.conv1d(seq_in, k1, padding="causal"))
show("conv1d causal dilated", K.conv1d(seq_in, k1, padding="causal", dilation_rate=2))
show("conv1d strides", K.conv1d(seq_in, k1, strides=2))
vol = tf.reshape(tf.range(54.0), [1, 3, 3, 3, 2]) / 10.0
show("conv3d", K.conv3d(vol, tf.ones([2, 2, 2, 2, 1])))
show("conv3d same", K.conv3d(vol, tf.ones([2, 2, 2, 2, 1]), padding="same"))
tk = tf.reshape(tf.range(24.0), [2, 2, 3, 2]) / 10.0
show("conv2d_transpose", K.conv2d_transpose(img, tk, (1, 8, 8, 3), strides=(2, 2), padding="same"))
show("conv2d_transpose none", K.conv2d_transpose(img, tk, (None, 5, 5, 3)))
show("conv2d_transpose dilated", K.conv2d_transpose(img, tk, (1, 6, 6, 3), dilation_rate=(2, 2)))
error("conv2d_transpose rates", lambda: K.conv2d_transpose(img, tk, (1, 6, 6, 3), dilation_rate=(1, 2)))
dk = tf.reshape(tf.range(16.0), [2, 2, 2, 2]) / 10.0
show("depthwise_conv2d", K.depthwise_conv2d(img, dk))
show("depthwise_conv2d same", K.depthwise_conv2d(img, dk, strides=(2, 2), padding="same"))
show("separable_conv2d", K.separable_conv2d(img, dk, tf.ones([1, 1, 4, 2])))
error("separable strides", lambda: K.separable_conv2d(img, dk, tf.ones([1, 1, 4, 2]), strides=(1,)))
show("pool2d max", K.pool2d(img, (2, 2), strides=(2, 2)))
show("pool2d avg", K.pool2d(img, (2, 2), strides=(1, 1), pool_mode="avg"))
show("pool2d same", K.pool2d(img, (3, 3), strides=(2, 2), padding="same", pool_mode="avg"))
error("pool2d mode", lambda: K.pool2d(img, (2, 2), pool_mode="sum"))
error("pool2d size", lambda: K.pool2d(img, (2, 2, 2)))
show("pool3d max", K.pool3d(vol, (2, 2, 2)))
show("pool3d avg", K.pool3d(vol, (2, 2, 2), strides=(1, 1, 1), padding="same", pool_mode="avg"))

# padding and resizing
show("temporal_padding", K.temporal_padding(seq_in))
show("temporal_padding 02", K.temporal_padding(seq_in, (0, 2)))
error("temporal_padding bad", lambda: K.temporal_padding(seq_in, (1, 2, 3)))
small = tf.reshape(tf.range(4.0), [1, 2, 2, 1])
show("spatial_2d_padding", K.spatial_2d_padding(small))
show("spatial_2d_padding asym", K.spatial_2d_padding(small, ((0, 1), (2, 0))))
show("spatial_2d_padding first", K.spatial_2d_padding(small, ((1, 0), (0, 1)), data_format="channels_first"))
error("spatial_2d_padding bad", lambda: K.spatial_2d_padding(small, ((1, 1),)))
show("spatial_3d_padding", K.spatial_3d_padding(tf.ones([1, 1, 1, 1, 1])))
show("spatial_3d_padding asym", K.spatial_3d_padding(tf.ones([1, 1, 2, 1, 1]), ((0, 1), (1, 0), (0, 0))))
error("spatial_3d_padding bad", lambda: K.spatial_3d_padding(small, ((1, 1), (1, 1))))
show("resize_images", K.resize_images(small, 2, 3, "channels_last"))
show("resize_images first", K.resize_images(tf.reshape(tf.range(4.0), [1, 1, 2, 2]), 2, 1, "channels_first"))
show("resize_images bilinear", K.resize_images(small, 2, 2, "channels_last", interpolation="bilinear"))
show("resize_images int", K.resize_images(tf.reshape(tf.range(4), [1, 2, 2, 1]), 2, 2, "channels_last"))
error("resize_images format", lambda: K.resize_images(small, 2, 2, None))
error("resize_images interpolation",
      lambda: K.resize_images(small, 2, 2, "channels_last", interpolation="cubic"))
show("resize_volumes", K.resize_volumes(tf.reshape(tf.range(2.0), [1, 1, 1, 2, 1]), 2, 1, 2, "channels_last"))
error("resize_volumes format", lambda: K.resize_volumes(tf.ones([1, 1, 1, 1, 1]), 1, 1, 1, "nhwc"))

# creation and variables
show("constant", K.constant(2, shape=(2, 2)))
show("constant int", K.constant([1, 2], dtype="int32"))
show("arange", K.arange(5))
show("arange negative", K.arange(-3))
show("arange step", K.arange(1, 10, 3))
show("arange float", K.arange(1, 4, dtype="float32"))
show("arange float start", K.arange(2.5))
z = K.zeros((2, 3))
o = K.ones((2,), dtype="int32")
e = K.eye(3)
print(isinstance(z, tf.Variable), isinstance(o, tf.Variable), isinstance(e, tf.Variable))
show("zeros", z)
show("ones", o)
show("eye", e)
show("eye int", K.eye(2, dtype="int32"))
empty = K.zeros((0, 3))
print(isinstance(empty, tf.Variable), empty.shape)
show("zeros_like", K.zeros_like(tf.constant([1, 2])))
show("ones_like", K.ones_like(tf.constant([1, 2]), dtype="float32"))
v = K.variable([[1, 2], [3, 4]])
print(isinstance(v, tf.Variable), v.dtype.name, v.shape)
show("variable", v)
show("variable int", K.variable([1, 2], dtype="int64"))
show("get_value", K.get_value(v))
print(K.get_value(3.0), K.eval(tf.constant([1, 2])).tolist())
print([np.asarray(val).tolist() for val in K.batch_get_value([v, tf.constant([5, 6])])])
K.set_value(v, [[5, 6], [7, 8]])
show("set_value", v)
K.set_value(v, np.ones((2, 2), np.float64) * 2.5)
show("set_value float64", v)
w = tf.Variable(0, dtype=tf.int32)
K.batch_set_value([(v, [[0, 0], [1, 1]]), (w, 7)])
show("batch_set_value", v)
show("batch_set_value int", w)
show("update", K.update(v, [[1.0, 1.0], [2.0, 2.0]]))
show("update_add", K.update_add(v, [[0.5, 0.5], [0.5, 0.5]]))
show("update_sub", K.update_sub(v, [[1.0, 1.0], [1.0, 1.0]]))
mv = tf.Variable([10.0, 20.0])
show("moving_average_update", K.moving_average_update(mv, tf.constant([0.0, 10.0]), 0.9))
show("after moving average", mv)
print("count_params variable", K.count_params(tf.Variable(tf.zeros([3, 4]))))

# random (shapes, dtypes and seed-free facts)
ru = K.random_uniform((3, 4), minval=2.0, maxval=3.0, seed=1)
print("random_uniform", ru.shape, ru.dtype.name, bool(np.all((ru.numpy() >= 2.0) & (ru.numpy() < 3.0))))
rn = K.random_normal((2, 5), mean=1.0, stddev=0.5, seed=2)
print("random_normal", rn.shape, rn.dtype.name)
tn = K.truncated_normal((1000,), stddev=2.0, seed=3)
print("truncated_normal", tn.shape, tn.dtype.name, bool(np.all(np.abs(tn.numpy()) <= 4.0)))
rb = K.random_bernoulli((4, 4), p=1.0, seed=4)
print("random_bernoulli", rb.shape, rb.dtype.name, sorted(set(rb.numpy().ravel().tolist())))
rb0 = K.random_bernoulli((10,), p=0.0, dtype="float64", seed=5)
print("random_bernoulli 0", rb0.dtype.name, rb0.numpy().tolist())
ruv = K.random_uniform_variable((2, 3), 0.0, 1.0, seed=6)
rnv = K.random_normal_variable((2, 3), 0.0, 1.0, dtype="float64", seed=7)
print("random variables", isinstance(ruv, tf.Variable), isinstance(rnv, tf.Variable), ruv.shape,
      rnv.dtype.name)
print("random int", K.random_uniform((3,), 0, 10, dtype="int32", seed=8).dtype.name)

# control flow, gradients, names
show("switch scalar", K.switch(tf.constant(True), lambda: tf.constant(1), lambda: tf.constant(2)))
show("switch scalar values", K.switch(tf.constant(0), tf.constant([1.0]), tf.constant([2.0])))
show("switch vector", K.switch(tf.constant([True, False]), tf.constant([1, 2]), tf.constant([3, 4])))
show("switch 2d", K.switch(tf.constant([[True], [False]]), tf.constant([[1, 2], [3, 4]]),
                           tf.constant([[5, 6], [7, 8]])))
show("switch broadcast", K.switch(tf.constant([True, False]), tf.constant([[1, 2], [3, 4]]),
                                  tf.constant([[5, 6], [7, 8]])))
error("switch rank", lambda: K.switch(tf.constant([[True]]), tf.constant([1]), tf.constant([2])))
show("map_fn", K.map_fn(lambda r: tf.reduce_sum(r), tf.constant([[1, 2], [3, 4]])))
show("map_fn dtype", K.map_fn(lambda r: tf.cast(r[0], tf.float32) * 0.5, tf.constant([[1, 2], [3, 4]]),
                              dtype=tf.float32))
show("foldl", K.foldl(lambda acc, e: acc * 10 + e, tf.constant([1, 2, 3])))
show("foldr", K.foldr(lambda acc, e: acc * 10 + e, tf.constant([1, 2, 3])))
show("foldl init", K.foldl(lambda acc, e: acc + e, tf.constant([1.0, 2.0]), initializer=tf.constant(10.0)))
gv = tf.Variable([1.0, 2.0])
with tf.GradientTape() as tape:
    out = tf.reduce_sum(gv * K.stop_gradient(gv))
show("stop_gradient", tape.gradient(out, gv))
print(type(K.stop_gradient([tf.constant(1.0)])).__name__)
error("gradients eager", lambda: K.gradients(tf.constant(1.0), [gv]))
with K.name_scope("outer"):
    print("name_scope", tf.get_current_name_scope())
K.clear_session()
print("get_uid", K.get_uid("thing"), K.get_uid("thing"), K.get_uid(), K.get_uid("dense"))
print("layer name", tf.keras.layers.Dense(1).name)
K.clear_session()
print("get_uid after clear", K.get_uid("thing"))
print("is_keras_tensor", K.is_keras_tensor(tf.keras.Input((2,))), K.is_keras_tensor(tf.zeros([2])))
sp = tf.SparseTensor(indices=[[0, 1], [1, 0]], values=[5.0, 6.0], dense_shape=[2, 2])
print("is_sparse", K.is_sparse(sp), K.is_sparse(tf.zeros([2])))
show("to_dense", K.to_dense(sp))
show("to_dense dense", K.to_dense(tf.constant([1.0])))
show("eval sparse", K.eval(sp))
show("concat sparse", tf.sparse.to_dense(K.concatenate([sp, sp], axis=0)))
print(K.is_sparse(K.concatenate([sp, sp], axis=-1)))
show("concat mixed", K.concatenate([sp, tf.ones([2, 1])]))
st = K.ctc_label_dense_to_sparse(tf.constant([[1, 2, 0], [3, 0, 0]]), tf.constant([2, 1]))
print("ctc_label_dense_to_sparse", st.indices.numpy().tolist(), st.values.numpy().tolist(),
      st.dense_shape.numpy().tolist(), st.indices.dtype.name)

# learning rate of a compiled model
model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1, kernel_initializer="ones")])
model.compile(optimizer=tf.keras.optimizers.SGD(learning_rate=0.1), loss="mse")
print("lr", round(float(K.get_value(model.optimizer.learning_rate)), 6))
model.optimizer.learning_rate = 0.05
print("lr assigned", round(float(K.get_value(model.optimizer.learning_rate)), 6))
model.fit(np.ones((4, 2)), np.zeros((4, 1)), epochs=1, verbose=0)
print("kernel", np.round(K.get_value(model.layers[0].kernel), 4).tolist())

# rnn
def step(inputs_t, states):
    total = states[0] * 0.5 + inputs_t
    return total * 2.0, [total]


r_in = tf.reshape(tf.range(1.0, 13.0), [2, 3, 2])
r_init = [tf.zeros([2, 2])]
for unroll in (False, True):
    last, outs, new_states = K.rnn(step, r_in, r_init, unroll=unroll)
    show(f"rnn last {unroll}", last)
    show(f"rnn outputs {unroll}", outs)
    show(f"rnn states {unroll}", new_states[0])
    last, outs, new_states = K.rnn(step, r_in, r_init, go_backwards=True, unroll=unroll)
    show(f"rnn backwards {unroll}", outs)
    show(f"rnn backwards states {unroll}", new_states[0])
    r_mask = tf.constant([[True, False, True], [True, True, False]])
    last, outs, new_states = K.rnn(step, r_in, r_init, mask=r_mask, unroll=unroll)
    show(f"rnn mask last {unroll}", last)
    show(f"rnn mask outputs {unroll}", outs)
    show(f"rnn mask states {unroll}", new_states[0])
    last, outs, new_states = K.rnn(step, r_in, r_init, mask=r_mask, unroll=unroll, zero_output_for_mask=True)
    show(f"rnn zero mask last {unroll}", last)
    show(f"rnn zero mask outputs {unroll}", outs)
    last, outs, new_states = K.rnn(step, r_in, r_init, unroll=unroll, return_all_outputs=False)
    show(f"rnn last only {unroll}", outs)
    last, outs, new_states = K.rnn(step, tf.transpose(r_in, [1, 0, 2]), r_init, unroll=unroll,
                                   time_major=True)
    show(f"rnn time major {unroll}", outs)
    last, outs, new_states = K.rnn(lambda i, s: (i + s[1], [s[0] + i]), r_in, r_init,
                                   constants=[tf.constant(100.0)], unroll=unroll)
    show(f"rnn constants {unroll}", outs)
last, outs, new_states = K.rnn(step, r_in, r_init, input_length=tf.constant([3, 1]))
show("rnn input_length", outs)
show("rnn input_length last", last)
show("rnn input_length states", new_states[0])
last, outs, new_states = K.rnn(step, r_in, r_init, input_length=tf.constant([3, 1]), go_backwards=True)
show("rnn input_length backwards", outs)
error("rnn rank", lambda: K.rnn(step, tf.ones([2, 3]), r_init))
