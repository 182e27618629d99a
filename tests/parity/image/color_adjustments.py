"""tf.image colour ops: HSV conversions and hue/saturation/gamma adjustments, YIQ/YUV, total variation,
PSNR, image gradients, Sobel edges, transpose, and the random adjustments' shapes and errors."""
import numpy as np
import tensorflow as tf

im = tf.image
rng = np.random.default_rng(5)
img = tf.constant(rng.random((2, 4, 5, 3)).astype("float32"))
u8 = tf.constant((rng.random((4, 5, 3)) * 255).astype("uint8"))


def r(t, d=4):
    return np.round(t.numpy(), d).tolist()


print(r(im.rgb_to_hsv(img)[0, 0]))
back = im.hsv_to_rgb(im.rgb_to_hsv(img))
print(r(back[1, 2]), float(tf.reduce_max(tf.abs(back - img))) < 1e-5)
corners = [[[0.0, 0.0, 0.0], [1.0, 1.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0],
            [0.5, 0.2, 0.9]]]
print(r(im.rgb_to_hsv(tf.constant(corners))))
print(r(im.hsv_to_rgb(tf.constant([[[0.9, 0.5, 0.5], [0.0, 0.0, 0.3], [0.5, 1.0, 1.0], [0.99, 0.2, 0.7]]]))))
print(r(im.adjust_hue(img, 0.2)[0, 1]), r(im.adjust_hue(img, -0.7)[1, 0]))
print(im.adjust_hue(u8, 0.3).numpy()[0].tolist())
print(r(im.adjust_saturation(img, 0.4)[0, 1]), r(im.adjust_saturation(img, 3.0)[1, 3]))
print(im.adjust_saturation(u8, 1.5).numpy()[1].tolist())
print(r(im.adjust_gamma(img, 2.0, 0.5)[0, 0]), im.adjust_gamma(u8, 0.5).numpy()[2].tolist())
print(r(im.rgb_to_yiq(img)[0, 0]), r(im.yiq_to_rgb(im.rgb_to_yiq(img))[0, 0]))
print(r(im.rgb_to_yuv(img)[1, 1]), r(im.yuv_to_rgb(img)[1, 1]))
print(r(im.total_variation(img)), int(im.total_variation(tf.cast(u8, tf.int32))))
print(r(im.psnr(img[0], img[1], 1.0)), r(im.psnr(img, img * 0.9, 1.0)))
print(r(im.psnr(u8, tf.image.flip_left_right(u8), 255)))
dy, dx = im.image_gradients(img)
print(r(dy[0, :, :, 0]), r(dx[1, 0]))
se = im.sobel_edges(img)
print(se.shape, r(se[0, 1, 2]), r(se[1, 0, 0]))
print(im.transpose(img).shape, r(im.transpose(img)[0, 1, 2]))
rb = im.random_brightness(img, 0.2, seed=1)
print(rb.shape, float(tf.reduce_max(tf.abs(rb - img))) <= 0.2 + 1e-6)
rc = im.random_contrast(img, 0.5, 1.5, seed=2)
print(rc.shape)
rh = im.random_hue(img, 0.1, seed=3)
print(rh.shape)
rs = im.random_saturation(img, 0.5, 1.5, seed=4)
print(rs.shape)
for bad in (lambda: im.random_hue(img, 0.7), lambda: im.random_contrast(img, 1.0, 0.5),
            lambda: im.random_brightness(img, -1.0), lambda: im.adjust_gamma(img, -1.0)):
    try:
        bad()
    except Exception as e:  # noqa: BLE001
        print(type(e).__name__)
