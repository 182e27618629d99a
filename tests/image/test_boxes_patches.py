"""tf.image's box and patch ops: non_max_suppression (hard and soft, overlaps), crop_and_resize,
extract_patches, resize_with_pad and ssim, against TF 2.21's printed values, with gradients and
TF's error classes."""

import numpy as np
import pytest

import companion as tf

BOXES = [[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11], [0, 10.1, 1, 11.1],
         [0, 100, 1, 101]]
SCORES = [0.9, 0.75, 0.6, 0.95, 0.5, 0.3]


def _images():
    return tf.reshape(tf.range(1, 1 + 2 * 4 * 4 * 2, dtype=tf.float32), (2, 4, 4, 2))


def test_non_max_suppression_tf_values():
    boxes, scores = tf.constant(BOXES, tf.float32), tf.constant(SCORES)
    # TF 2.21
    assert tf.image.non_max_suppression(boxes, scores, 3, iou_threshold=0.5).numpy().tolist() == [3, 0, 5]
    kept = tf.image.non_max_suppression(boxes, scores, 10, 0.5, score_threshold=0.4)
    assert kept.numpy().tolist() == [3, 0]
    assert tf.image.non_max_suppression(boxes, scores, 0).shape == (0,)
    assert tf.image.non_max_suppression(boxes, scores, 3).dtype == tf.int32
    traced = tf.function(lambda b, s: tf.image.non_max_suppression(b, s, 3, 0.5))
    assert traced(boxes, scores).numpy().tolist() == [3, 0, 5]
    indices, kept = tf.image.non_max_suppression_with_scores(boxes, scores, 10, iou_threshold=1.0,
                                                             soft_nms_sigma=0.5)
    assert indices.numpy().tolist() == [3, 0, 1, 5, 4, 2]
    np.testing.assert_allclose(kept.numpy(), [0.95, 0.9, 0.38400355, 0.3, 0.2560026, 0.19697244], rtol=1e-6)
    overlaps = tf.constant([[1.0, 0.7, 0.2], [0.7, 1.0, 0.0], [0.2, 0.0, 1.0]])
    assert tf.image.non_max_suppression_overlaps(overlaps, tf.constant([0.9, 0.8, 0.7]), 3).numpy().tolist() \
        == [0, 2]


def test_non_max_suppression_ties_and_thresholds():
    # IoU exactly 0.5 is kept at iou_threshold=0.5; a flipped copy of box 0 has IoU 1; a box of no area
    # overlaps nothing; equal scores go lowest index first; score_threshold is strict (TF 2.21)
    boxes = tf.constant([[0, 0, 1, 1], [0, 0, 1, 0.5], [1, 1, 0, 0], [0, 0, 0, 0]], tf.float32)
    scores = tf.constant([0.9, 0.8, 0.8, 0.8])
    assert tf.image.non_max_suppression(boxes, scores, 4, 0.5).numpy().tolist() == [0, 1, 3]
    assert tf.image.non_max_suppression(boxes, scores, 4, 0.5, score_threshold=0.8).numpy().tolist() == [0]
    indices, kept = tf.image.non_max_suppression_with_scores(boxes, scores, 4, 0.5, soft_nms_sigma=0.5)
    assert indices.numpy().tolist() == [0, 3, 1, 2]
    np.testing.assert_allclose(kept.numpy(), [0.9, 0.8, 0.6230406, 0.22920385], rtol=1e-6)


def test_non_max_suppression_errors():
    boxes, scores = tf.constant(BOXES, tf.float32), tf.constant(SCORES)
    with pytest.raises(tf.errors.InvalidArgumentError, match="4 columns"):
        tf.image.non_max_suppression(boxes[:, :3], scores, 3)
    with pytest.raises(tf.errors.InvalidArgumentError, match="incompatible shape"):
        tf.image.non_max_suppression(boxes, scores[:3], 3)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"iou_threshold must be in \[0, 1\]"):
        tf.image.non_max_suppression(boxes, scores, 3, iou_threshold=1.5)
    with pytest.raises(tf.errors.InvalidArgumentError, match="non-negative"):
        tf.image.non_max_suppression(boxes, scores, -1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="half, float"):
        tf.image.non_max_suppression(tf.cast(boxes, tf.int32), scores, 2)


def test_crop_and_resize_tf_values():
    images = _images()
    out = tf.image.crop_and_resize(images, tf.constant([[0.0, 0.0, 1.0, 1.0], [0.25, 0.25, 0.75, 0.75]]),
                                   tf.constant([0, 1]), [2, 2])
    # TF 2.21
    assert out[..., 0].numpy().tolist() == [[[1.0, 7.0], [25.0, 31.0]], [[40.5, 43.5], [52.5, 55.5]]]
    boxes = tf.constant([[0.0, 0.0, 1.0, 1.0], [0.5, 0.5, 1.5, 1.5]])
    nearest = tf.image.crop_and_resize(images, boxes, tf.constant([0, 1]), [3, 3], method="nearest",
                                       extrapolation_value=-1.0)
    assert nearest[..., 0].numpy().tolist() == [[[1.0, 5.0, 7.0], [17.0, 21.0, 23.0], [25.0, 29.0, 31.0]],
                                                [[53.0, 55.0, -1.0], [61.0, 63.0, -1.0], [-1.0, -1.0, -1.0]]]
    flipped = tf.function(lambda i, b: tf.image.crop_and_resize(i, b, [0, 1], [2, 2]))(
        images, tf.constant([[0.0, 0.0, 1.0, 1.0], [0.9, 0.1, 0.2, 0.7]]))
    want = [[[2.0, 8.0], [26.0, 32.0]], [[56.2, 59.8], [39.4, 43.0]]]
    np.testing.assert_allclose(flipped[..., 1].numpy(), want, rtol=1e-6)


def test_crop_and_resize_gradients_and_errors():
    images, boxes = _images(), tf.constant([[0.0, 0.0, 1.0, 1.0], [0.9, 0.1, 0.2, 0.7]])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([images, boxes])
        crops = tf.image.crop_and_resize(images, boxes, tf.constant([0, 1]), [3, 2])
        y = tf.reduce_sum(crops ** 2)
    # TF 2.21
    np.testing.assert_allclose(tape.gradient(y, boxes).numpy(),
                               [[1584.0, 0.0, 1584.0, 0.0], [15753.6, 3405.6, 12528.0, 3664.8]], rtol=1e-5)
    np.testing.assert_allclose(tape.gradient(y, images)[1, 0, :, 0].numpy(),
                               [21.504004, 9.2160015, 30.24001, 3.3599975], rtol=1e-5)
    with pytest.raises(tf.errors.OutOfRangeError):
        tf.image.crop_and_resize(images, boxes, tf.constant([0, 2]), [3, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="crop dimensions must be positive"):
        tf.image.crop_and_resize(images, boxes, [0, 1], [0, 2])


def test_extract_patches_tf_values():
    images = _images()
    patches = tf.image.extract_patches(images, [1, 2, 2, 1], [1, 2, 2, 1], [1, 1, 1, 1], "VALID")
    # TF 2.21
    assert patches[0, 0].numpy().tolist() == [[1, 2, 3, 4, 9, 10, 11, 12], [5, 6, 7, 8, 13, 14, 15, 16]]
    same = tf.image.extract_patches(images, [1, 3, 3, 1], [1, 2, 2, 1], [1, 1, 1, 1], "SAME")
    assert same[0, 0, 0].numpy().tolist() == [1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14, 17, 18, 19, 20, 21, 22]
    same = tf.image.extract_patches(images, [1, 3, 3, 1], [1, 1, 1, 1], [1, 1, 1, 1], "SAME")
    assert same.shape == (2, 4, 4, 18)
    rated = tf.image.extract_patches(images, [1, 2, 2, 1], [1, 1, 1, 1], [1, 2, 2, 1], "VALID")
    assert rated[1, :, :, 0].numpy().tolist() == [[33, 35], [41, 43]]
    assert tf.image.extract_patches(tf.cast(images, tf.int32), [1, 2, 2, 1], [1, 2, 2, 1], [1, 1, 1, 1],
                                    "VALID").dtype == tf.int32
    traced = tf.function(lambda i: tf.image.extract_patches(i, [1, 2, 3, 1], [1, 1, 2, 1], [1, 1, 1, 1],
                                                            "SAME"))
    assert traced(images).shape == (2, 4, 2, 12)
    with tf.GradientTape() as tape:
        tape.watch(images)
        patches = tf.image.extract_patches(images, [1, 3, 3, 1], [1, 1, 1, 1], [1, 1, 1, 1], "SAME")
        y = tf.reduce_sum(patches ** 2)
    assert tape.gradient(y, images)[0, :, :, 0].numpy().tolist() == [
        [8, 36, 60, 56], [108, 198, 234, 180], [204, 342, 378, 276], [200, 324, 348, 248]]


def test_extract_patches_errors():
    images = _images()
    with pytest.raises(tf.errors.UnimplementedError, match="ksizes across space"):
        tf.image.extract_patches(images, [2, 2, 2, 1], [1, 2, 2, 1], [1, 1, 1, 1], "VALID")
    with pytest.raises(tf.errors.InvalidArgumentError, match="4-dimensional"):
        tf.image.extract_patches(images[0], [1, 2, 2, 1], [1, 2, 2, 1], [1, 1, 1, 1], "VALID")
    with pytest.raises(tf.errors.InvalidArgumentError, match="padding"):
        tf.image.extract_patches(images, [1, 2, 2, 1], [1, 2, 2, 1], [1, 1, 1, 1], "FOO")
    with pytest.raises(tf.errors.InvalidArgumentError, match="minimum 4"):
        tf.image.extract_patches(images, [1, 2, 2], [1, 2, 2, 1], [1, 1, 1, 1], "VALID")


def test_resize_with_pad():
    image = tf.reshape(tf.range(24, dtype=tf.float32), (2, 4, 3))
    # TF 2.21
    assert tf.image.resize_with_pad(image, 4, 4)[..., 0].numpy().tolist() == [
        [0, 0, 0, 0], [0, 3, 6, 9], [12, 15, 18, 21], [0, 0, 0, 0]]
    assert tf.image.resize_with_pad(image, 3, 6, method="nearest")[..., 0].numpy().tolist() == [
        [0, 3, 3, 6, 9, 9], [12, 15, 15, 18, 21, 21], [12, 15, 15, 18, 21, 21]]
    assert tf.image.resize_with_pad(tf.cast(image, tf.uint8), 4, 4).dtype == tf.float32
    np.testing.assert_allclose(tf.image.resize_with_pad(image, 8, 2, antialias=True)[3, :, 1].numpy(),
                               [9.1428585, 13.857144], rtol=1e-6)
    assert tf.image.resize_with_pad(_images(), 3, 5).shape == (2, 3, 5, 2)


def test_ssim():
    a = tf.reshape(tf.range(64, dtype=tf.float32) / 64.0, (1, 8, 8, 1))
    b = tf.sqrt(a)
    # TF 2.21
    np.testing.assert_allclose(tf.image.ssim(a, b, max_val=1.0, filter_size=3).numpy(), [0.844702], rtol=1e-5)
    np.testing.assert_allclose(tf.image.ssim(tf.tile(a, [1, 2, 2, 3]), tf.tile(b, [1, 2, 2, 3]), 1.0).numpy(),
                               [0.9123561], rtol=1e-5)
    np.testing.assert_allclose(tf.image.ssim(tf.cast(a * 255, tf.uint8), tf.cast(b * 255, tf.uint8), 255,
                                             filter_size=3).numpy(), [0.8417463], rtol=1e-5)
    images = _images()
    np.testing.assert_allclose(tf.image.ssim(images[0], images[0] * 0.5, 32.0, filter_size=2).numpy(),
                               0.64674425, rtol=1e-5)
    traced = tf.function(lambda x, y: tf.image.ssim(x, y, 32.0, filter_size=3))(images, images + 1.0)
    np.testing.assert_allclose(traced.numpy(), [0.99791867, 0.999789], rtol=1e-5)
    with tf.GradientTape() as tape:
        tape.watch(b)
        y = tf.image.ssim(a, b, max_val=1.0, filter_size=3)
    np.testing.assert_allclose(float(tf.reduce_sum(tape.gradient(y, b))), -0.5296074, rtol=1e-4)
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.image.ssim(a, b, 1.0)  # 8 x 8 images, an 11 x 11 window
