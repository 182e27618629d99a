"""tf.keras.ops (Keras 3's backend-agnostic ops) on fixed values: values and dtypes of a broad sample."""

import numpy as np
import tensorflow as tf

ops = tf.keras.ops


def show(name, value):
    if isinstance(value, (tuple, list)):
        for k, part in enumerate(value):
            show(f"{name}[{k}]", part)
        return
    value = ops.convert_to_numpy(value)
    rounded = np.round(value, 4) if value.dtype.kind in "fc" else value
    print(name, value.dtype, value.shape, rounded.tolist())


def error(name, fn):
    try:
        fn()
        print(name, "no error")
    except Exception as e:  # noqa: BLE001 - the class is what is compared
        # TF raises tf.errors.InvalidArgumentError (not a ValueError there) or ValueError: either is bad input
        print(
            name,
            "error",
            isinstance(e, (ValueError, tf.errors.InvalidArgumentError)),
            isinstance(e, TypeError),
        )


x = ops.convert_to_tensor([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]])
i = ops.convert_to_tensor([3, 1, 2])
b = ops.convert_to_tensor([True, False, True])
sq = ops.convert_to_tensor([[4.0, 1.0], [1.0, 3.0]])

# conversion, dtypes and promotion
show("ctt_float", ops.convert_to_tensor(1.5))
show("ctt_list", ops.convert_to_tensor([1, 2]))
show("ctt_f64", ops.convert_to_tensor(np.array([1.0, 2.0])))
show("cast", ops.cast(x, "int32"))
show("add_int_float", ops.add(i, 1.5))
show("add_int_int", ops.add(i, 2))
show("multiply_bool_int", ops.multiply(b, i))
show("divide_ints", ops.divide(i, 2))
show("power_int", ops.power(i, 2))
show("power_half", ops.power(i, 0.5))
print("is_tensor", ops.is_tensor(x), ops.is_tensor(np.ones(2)))
print("shape", tuple(ops.shape(x)), ops.dtype(x), ops.dtype(i))

# element-wise math
for name in [
    "abs",
    "negative",
    "square",
    "sqrt",
    "exp",
    "log1p",
    "sin",
    "tanh",
    "sign",
    "floor",
    "round",
    "ceil",
    "reciprocal",
    "arctan",
    "expm1",
    "log2",
    "sinh",
    "isnan",
    "isfinite",
    "logical_not",
    "sigmoid",
    "relu",
    "softplus",
    "silu",
    "gelu",
    "elu",
    "selu",
    "leaky_relu",
    "hard_sigmoid",
    "relu6",
    "log_sigmoid",
    "softsign",
    "hard_silu",
    "celu",
    "hard_tanh",
    "tanh_shrink",
]:
    fn = getattr(ops, name)
    show(name, fn(ops.abs(x) if name in ("sqrt", "log1p", "log2", "reciprocal") else x))
show("sin_int", ops.sin(i))
show("sqrt_int", ops.sqrt(i))
show("abs_int", ops.abs(i))
show("erf", ops.erf(x))
show("erfinv", ops.erfinv(ops.convert_to_tensor([0.1, -0.5])))
show("rsqrt", ops.rsqrt(ops.abs(x)))
for name in [
    "add",
    "subtract",
    "multiply",
    "divide",
    "maximum",
    "minimum",
    "mod",
    "floor_divide",
    "power",
    "arctan2",
    "hypot",
    "logaddexp",
    "equal",
    "not_equal",
    "greater",
    "less_equal",
]:
    show(name, getattr(ops, name)(x, ops.convert_to_tensor([2.0, 3.0, -1.0])))
show("logical_and", ops.logical_and(b, ops.convert_to_tensor([True, True, False])))
show("clip", ops.clip(x, -1.0, 2.0))
show("where3", ops.where(x > 0, x, 0.0))
show("where1", ops.where(b))
show("divide_no_nan", ops.divide_no_nan(x, ops.convert_to_tensor([0.0, 2.0, 0.0])))
show("isclose", ops.isclose(x, x + 1e-9))
show("nan_to_num", ops.nan_to_num(ops.convert_to_tensor([np.nan, np.inf, 1.0]), posinf=9.0))

# reductions
for name in [
    "sum",
    "prod",
    "mean",
    "var",
    "std",
    "max",
    "min",
    "argmax",
    "argmin",
    "all",
    "any",
    "logsumexp",
    "median",
    "cumsum",
    "cumprod",
    "count_nonzero",
    "amax",
    "ptp",
]:
    fn = getattr(ops, name)
    show(name, fn(x))
    show(name + "_axis1", fn(x, axis=1))
show("mean_keepdims", ops.mean(x, axis=1, keepdims=True))
show("sum_axes", ops.sum(x, axis=(0, 1)))
show("mean_int", ops.mean(i))
show("sum_int", ops.sum(i))
show("sum_bool", ops.sum(b))
show("var_int", ops.var(i))
show("quantile", ops.quantile(x, 0.25))
show("percentile", ops.percentile(i, [50.0, 90.0]))
show("average", ops.average(x, axis=0, weights=ops.convert_to_tensor([1.0, 3.0])))
show("norm", ops.norm(x))
show("norm_axis", ops.norm(x, ord=1, axis=1))

# creation and manipulation
show("zeros", ops.zeros((2, 3)))
show("ones_int", ops.ones((2,), dtype="int32"))
show("full", ops.full((2,), 3))
show("full_like", ops.full_like(i, 7))
show("zeros_like", ops.zeros_like(x))
show("eye", ops.eye(3, k=1))
show("identity", ops.identity(2))
show("tri", ops.tri(3))
show("arange", ops.arange(5))
show("arange_float", ops.arange(0.0, 1.0, 0.25))
show("arange_step", ops.arange(1, 10, 3))
show("linspace", ops.linspace(0, 1, 5))
show("logspace", ops.logspace(0, 2, 3))
show("reshape", ops.reshape(x, (3, 2)))
show("reshape_neg", ops.reshape(x, (-1,)))
show("transpose", ops.transpose(x))
show("expand_dims", ops.expand_dims(i, 0))
show("squeeze", ops.squeeze(ops.ones((1, 2, 1))))
show("stack", ops.stack([i, i], axis=1))
show("concatenate", ops.concatenate([x, x], axis=1))
show("hstack", ops.hstack([i, i]))
show("vstack", ops.vstack([i, i]))
show("split", ops.split(x, 3, axis=1))
show("array_split", ops.array_split(ops.arange(5), 2))
show("tile", ops.tile(i, 2))
show("repeat", ops.repeat(i, 2))
show("flip", ops.flip(x, axis=1))
show("roll", ops.roll(i, 1))
print("moveaxis", tuple(ops.moveaxis(ops.ones((2, 3, 4)), 0, -1).shape))
show("swapaxes", ops.swapaxes(x, 0, 1))
show("broadcast_to", ops.broadcast_to(i, (2, 3)))
show("take", ops.take(x, ops.convert_to_tensor([2, 0]), axis=1))
show("take_along_axis", ops.take_along_axis(x, ops.convert_to_tensor([[0], [2]]), axis=1))
show("pad", ops.pad(x, [[1, 0], [0, 2]]))
show("pad_reflect", ops.pad(i, [[2, 1]], mode="reflect"))
show("tril", ops.tril(ops.ones((3, 3))))
show("triu", ops.triu(ops.ones((3, 3)), k=1))
show("diag", ops.diag(i))
show("diagonal", ops.diagonal(sq))
show("trace", ops.trace(sq))
show("sort", ops.sort(x))
show("argsort", ops.argsort(i))
show("flatten", ops.ravel(x))
show("diff", ops.diff(i))
show("outer", ops.outer(i, i))
show("searchsorted", ops.searchsorted(ops.convert_to_tensor([1, 3, 5]), ops.convert_to_tensor([2, 5])))
show("digitize", ops.digitize(ops.convert_to_tensor([0.5, 1.5, 2.5]), [1.0, 2.0]))
show("meshgrid", ops.meshgrid(ops.arange(2), ops.arange(3)))
show("einsum", ops.einsum("ij,kj->ik", x, x))
show("tensordot", ops.tensordot(x, ops.transpose(x), axes=1))
show("matmul", ops.matmul(x, ops.transpose(x)))
show("dot", ops.dot(i, i))
show("get_item", ops.get_item(x, 1))
show("slice", ops.slice(x, [0, 1], [2, 2]))
show("slice_update", ops.slice_update(x, [1, 0], ops.zeros((1, 2))))
show("scatter", ops.scatter([[0, 1], [1, 2]], [5.0, 6.0], (2, 3)))
show("scatter_update", ops.scatter_update(ops.zeros((4,)), [[1], [3]], [1.0, 2.0]))
show("select", ops.select([i < 2, i > 2], [i, -i], default=0))
show("histogram", ops.histogram(ops.convert_to_tensor([1.0, 2.0, 2.0, 3.0, 5.0]), bins=4))
show("bincount", ops.bincount(ops.convert_to_tensor([0, 1, 1, 3])))
show("unstack", ops.unstack(x))
show("size", ops.size(x))
show("ndim", ops.ndim(x))
show("unique", ops.unique(ops.convert_to_tensor([3, 1, 2, 1, 3]), return_inverse=True, return_counts=True))
show("unique_unsorted", ops.unique(ops.convert_to_tensor([2.0, 1.0, 2.0]), sorted=False))
show("view", ops.view(ops.convert_to_tensor([1.0]), "int32"))
show("view_as_real", ops.view_as_real(ops.convert_to_tensor(np.array([1 + 2j], np.complex64))))
show("nonzero", ops.nonzero(ops.convert_to_tensor([0, 2, 0, 3])))

seq = ops.reshape(ops.arange(2 * 6 * 4, dtype="float32"), (2, 6, 4))
show("rearrange_split", ops.rearrange(seq, "b (h w) c -> b h w c", h=2)[1, 1])
show("rearrange_transpose", ops.rearrange(seq, "b n c -> c b n")[3])
show("rearrange_merge", ops.rearrange(seq, "b (h w) c -> (b w) h c", w=3)[4])

# keras.ops.math
show("segment_sum", ops.segment_sum(x, ops.convert_to_tensor([0, 0])))
show(
    "segment_max",
    ops.segment_max(ops.convert_to_tensor([1.0, 5.0, 2.0, 4.0]), ops.convert_to_tensor([0, 0, 1, 1])),
)
show("top_k", ops.top_k(ops.convert_to_tensor([1.0, 4.0, 2.0, 3.0]), 2))
show("in_top_k", ops.in_top_k(ops.convert_to_tensor([2, 0]), x, 1))
show("logsumexp_axis", ops.logsumexp(x, axis=0))
show("extract_sequences", ops.extract_sequences(ops.arange(6.0), 3, 2))
show("rfft", ops.rfft(ops.convert_to_tensor([1.0, 2.0, 3.0, 4.0])))
show("fft", ops.fft((ops.convert_to_tensor([1.0, 2.0, 3.0]), ops.convert_to_tensor([0.0, 0.0, 0.0]))))

wave = np.sin(np.arange(40) * 0.3).astype("float32") + np.cos(np.arange(40) * 0.07).astype("float32")
spectrum = ops.stft(ops.convert_to_tensor(wave), 8, 4, 16)
show("stft", (spectrum[0][2], spectrum[1][3]))
spectra = ops.stft(ops.stack([wave, wave * 2]), 10, 5, 10, window="hamming", center=False)
show("stft_hamming", spectra[0][1, 2])
show("istft", ops.istft(spectrum, 8, 4, 16)[:12])
show("istft_length", ops.istft(spectra, 10, 5, 10, window="hamming", center=False, length=30)[1, 5:15])

# keras.ops.nn
show("softmax", ops.softmax(x))
show("softmax_axis0", ops.softmax(x, axis=0))
show("log_softmax", ops.log_softmax(x))
show("one_hot", ops.one_hot(i, 4))
show("one_hot_axis0", ops.one_hot(ops.convert_to_tensor([0, 2]), 3, axis=0))
show("multi_hot", ops.multi_hot(ops.convert_to_tensor([[0, 2], [1, 1]]), 4))
show("moments", ops.moments(x, axes=[0]))
show("normalize", ops.normalize(x))
show("normalize_l1", ops.normalize(x, axis=0, order=1))
vec = ops.convert_to_tensor
show(
    "batch_normalization",
    ops.batch_normalization(
        x,
        vec([1.0, 1.0, 1.0]),
        vec([4.0, 4.0, 4.0]),
        axis=-1,
        offset=vec([0.0, 1.0, 0.0]),
        scale=vec([2.0, 2.0, 2.0]),
    ),
)
show("layer_normalization", ops.layer_normalization(x))
show("rms_normalization", ops.rms_normalization(x))
show("binary_crossentropy", ops.binary_crossentropy([1.0, 0.0, 1.0], [0.9, 0.2, 0.4]))
show(
    "binary_crossentropy_logits", ops.binary_crossentropy([1.0, 0.0, 1.0], [2.0, -1.0, 0.0], from_logits=True)
)
show("categorical_crossentropy", ops.categorical_crossentropy([[0.0, 1.0, 0.0]], [[0.2, 0.7, 0.1]]))
show("sparse_categorical_crossentropy", ops.sparse_categorical_crossentropy([1, 2], x, from_logits=True))
img = ops.reshape(ops.arange(32.0), (1, 4, 4, 2))
show("conv", ops.conv(img, ops.ones((3, 3, 2, 1)), padding="same"))
show("conv1d", ops.conv(ops.ones((1, 5, 1)), ops.ones((2, 1, 2)), strides=2))
show("conv_transpose", ops.conv_transpose(img, ops.ones((2, 2, 1, 2)), strides=2))
show("conv_transpose_same", ops.conv_transpose(img, ops.ones((3, 3, 1, 2)), strides=2, padding="same"))
show("depthwise_conv", ops.depthwise_conv(img, ops.ones((2, 2, 2, 1))))
show("separable_conv", ops.separable_conv(img, ops.ones((2, 2, 2, 1)), ops.ones((1, 1, 2, 3))))
show("max_pool", ops.max_pool(img, 2))
show("average_pool", ops.average_pool(img, 3, strides=1, padding="same"))
show("max_pool_cf", ops.max_pool(ops.transpose(img, (0, 3, 1, 2)), 2, data_format="channels_first"))
pool_in = ops.reshape(ops.arange(2 * 7 * 5 * 3, dtype="float32") % 11.0, (2, 7, 5, 3))
show("adaptive_average_pool", ops.adaptive_average_pool(pool_in, (3, 2))[1, :, :, 1])
show("adaptive_max_pool_1d", ops.adaptive_max_pool(pool_in[:, :, 0], 4)[0, :, 2])
show(
    "adaptive_average_pool_cf",
    ops.nn.adaptive_average_pool(ops.transpose(pool_in, (0, 3, 1, 2)), 2, data_format="channels_first")[0, 1],
)
show("depth_to_space", ops.depth_to_space(ops.reshape(ops.arange(8.0), (1, 1, 2, 4)), 2))
show("psnr", ops.psnr(x, x + 0.5, 6.0))
show(
    "attention",
    ops.dot_product_attention(
        ops.reshape(ops.arange(8.0), (1, 2, 1, 4)) / 8.0,
        ops.ones((1, 3, 1, 4)),
        ops.reshape(ops.arange(12.0), (1, 3, 1, 4)),
        is_causal=False,
    ),
)

ctc_logits = ops.convert_to_tensor(np.random.default_rng(0).normal(size=(3, 7, 5)).astype("float32"))
ctc_target = ops.convert_to_tensor(np.array([[1, 2, 2], [3, 1, 0], [2, 0, 0]], "int32"))
show("ctc_loss", ops.ctc_loss(ctc_target, ctc_logits, [3, 2, 1], [7, 6, 4]))
show("ctc_loss_blank_last", ops.nn.ctc_loss(ctc_target, ctc_logits, [3, 2, 1], [7, 7, 7], mask_index=4))
ctc_variable = tf.Variable(ctc_logits)
with tf.GradientTape() as ctc_tape:
    ctc_total = ops.sum(ops.ctc_loss(ctc_target, ctc_variable, [3, 2, 1], [7, 6, 4]))
show("ctc_gradient", ctc_tape.gradient(ctc_total, ctc_variable)[1])

ctc_scores = np.log(
    np.array(
        [
            [
                [0.1, 0.6, 0.3],
                [0.1, 0.6, 0.3],
                [0.7, 0.2, 0.1],
                [0.1, 0.2, 0.7],
                [0.2, 0.2, 0.6],
                [0.1, 0.8, 0.1],
            ],
            [
                [0.9, 0.05, 0.05],
                [0.1, 0.1, 0.8],
                [0.1, 0.1, 0.8],
                [0.1, 0.8, 0.1],
                [0.3, 0.3, 0.4],
                [0.2, 0.7, 0.1],
            ],
        ],
        "float32",
    )
)
show("ctc_decode", ops.ctc_decode(ctc_scores, [6, 4]))
show("ctc_decode_unmerged", ops.ctc_decode(ctc_scores, [6, 4], merge_repeated=False))
show("ctc_decode_blank_2", ops.nn.ctc_decode(ctc_scores, [5, 6], mask_index=2))

blocks_in = ops.reshape(ops.arange(2 * 3 * 5 * 6, dtype="float32") % 17.0, (2, 3, 5, 6))
columns = ops.nn.unfold(blocks_in, (2, 3), dilation=(1, 2), padding=1, stride=(2, 1))
show("unfold", columns[0, 7, :9])
show("unfold_default", ops.unfold(blocks_in, 2)[1, :5, :4])
show("fold", ops.nn.fold(columns, (5, 6), (2, 3), dilation=(1, 2), padding=1, stride=(2, 1))[0, 1])

# linalg
show("inv", ops.inv(sq))
show("det", ops.det(sq))
show("solve", ops.solve(sq, ops.convert_to_tensor([[1.0], [2.0]])))
show("cholesky", ops.cholesky(sq))
show("eigh_values", ops.eigh(sq)[0])
show("svd_s", ops.svd(x, compute_uv=False))
show("qr_r_abs", ops.abs(ops.qr(sq)[1]))
show("slogdet", ops.slogdet(sq))
show(
    "solve_triangular", ops.solve_triangular(ops.tril(sq), ops.convert_to_tensor([[1.0], [2.0]]), lower=True)
)
show("lstsq", ops.lstsq(sq, ops.convert_to_tensor([[1.0], [2.0]])))
show("pinv", ops.pinv(sq))
show("matrix_rank", ops.linalg.matrix_rank(sq))

# image
show("resize", ops.image.resize(img, (2, 2)))
show("resize_nearest", ops.image.resize(img, (8, 8), interpolation="nearest")[0, :2, :2, 0])
show("resize_uint8", ops.image.resize(np.array([[0, 255], [255, 0]], np.uint8).reshape(2, 2, 1), (3, 3)))
show("rgb_to_grayscale", ops.image.rgb_to_grayscale(ops.reshape(ops.arange(12.0), (2, 2, 3)) / 12.0))
print("pad_images", tuple(ops.image.pad_images(img, 1, 0, 0, 1).shape))
show("crop_images", ops.image.crop_images(img, 1, 1, 1, 1)[0, :, :, 0])

patches_in = ops.reshape(ops.arange(2 * 4 * 6 * 3, dtype="float32"), (2, 4, 6, 3))
show("extract_patches", ops.image.extract_patches(patches_in, 2)[1, 1])
show(
    "extract_patches_same",
    ops.image.extract_patches(patches_in[0], (2, 3), strides=(1, 2), padding="same")[3],
)
volume = ops.reshape(ops.arange(2 * 4 * 4 * 4 * 1, dtype="float32"), (2, 4, 4, 4, 1))
show("extract_patches_3d", ops.image.extract_patches_3d(volume, 2)[1, 1, 0])

grid = ops.reshape(ops.arange(20, dtype="float32"), (4, 5))
points = ops.convert_to_tensor(np.array([[-1.5, 0.3, 2.7, 4.2, 3.0], [-0.6, 1.5, 4.4, 6.1, 2.0]], "float32"))
for mode in ("constant", "nearest", "wrap"):
    for order in (0, 1):
        show(
            f"map_coordinates_{mode}_{order}",
            ops.image.map_coordinates(grid, points, order, mode, fill_value=-1),
        )

blur_in = ops.reshape(ops.arange(2 * 5 * 6 * 2, dtype="float32") % 7.0, (2, 5, 6, 2))
show("gaussian_blur", ops.image.gaussian_blur(blur_in)[1, :, :, 1])
show("gaussian_blur_uneven", ops.image.gaussian_blur(blur_in[0], (5, 3), (2.0, 0.5))[:, :, 0])

ssim_a = ops.reshape(ops.arange(2 * 16 * 14 * 3, dtype="float32") % 13.0, (2, 16, 14, 3)) / 13.0
ssim_b = ops.sqrt(ssim_a) * 0.9
show("ssim", ops.image.ssim(ssim_a, ssim_b))
show("ssim_small", ops.image.ssim(ssim_a[0], ssim_b[0], filter_size=5, filter_sigma=1.0, max_val=2.0))
show("sobel_edges", ops.image.sobel_edges(ssim_a[:, :4, :5])[1, 2, :, 0])

# control flow, on Variables, in tf.function, with a GradientTape
print(
    "cond", ops.convert_to_numpy(ops.cond(ops.convert_to_tensor(True), lambda: x[0], lambda: x[1])).tolist()
)
show("while_loop", ops.while_loop(lambda a, s: a < 5, lambda a, s: (a + 1, s + a), (0, 0)))
show("fori_loop", ops.fori_loop(0, 4, lambda k, v: v + k, 0))
show("scan", ops.scan(lambda c, v: (c + v, c * v), 0.0, ops.arange(4.0)))
show("map", ops.map(lambda v: v * 2, i))
show("stop_gradient", ops.stop_gradient(x))
v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
show("variable_matmul", ops.matmul(v, v))
show("variable_softmax", ops.softmax(v))


@tf.function
def traced(t):
    return ops.sum(ops.square(ops.relu(t)), axis=1) + ops.mean(t)


show("function", traced(x))
with tf.GradientTape() as tape:
    y = ops.sum(ops.logsumexp(ops.matmul(v, v), axis=1))
show("gradient", tape.gradient(y, v))

print(
    "subnamespaces",
    callable(ops.numpy.mean),
    callable(ops.nn.softmax),
    callable(ops.linalg.inv),
    callable(ops.image.resize),
)
error("bad_where", lambda: ops.where(b, x))
error("bad_add_shapes", lambda: ops.add(ops.ones((2, 3)), ops.ones((4,))))
error("bad_normalize_order", lambda: ops.normalize(x, order=0))
error("bad_reshape", lambda: ops.reshape(x, (4, 2)))
