"""Object-detection and patch helpers: non_max_suppression (hard, soft, overlaps), crop_and_resize,
extract_patches, resize_with_pad and ssim, eagerly, in a tf.function and under a tape."""
import tensorflow as tf

boxes = tf.constant([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11], [0, 10.1, 1, 11.1],
                     [0, 100, 1, 101]], tf.float32)
scores = tf.constant([0.9, 0.75, 0.6, 0.95, 0.5, 0.3])
selected = tf.image.non_max_suppression(boxes, scores, max_output_size=3, iou_threshold=0.5)
print(selected)
print(tf.gather(boxes, selected))
print(tf.image.non_max_suppression(boxes, scores, 10, iou_threshold=0.5, score_threshold=0.4))
indices, soft_scores = tf.image.non_max_suppression_with_scores(boxes, scores, 10, iou_threshold=1.0,
                                                                soft_nms_sigma=0.5)
print(indices, soft_scores)
print(tf.image.non_max_suppression_overlaps(tf.constant([[1.0, 0.7, 0.2], [0.7, 1.0, 0.0], [0.2, 0.0, 1.0]]),
                                            tf.constant([0.9, 0.8, 0.7]), 3, overlap_threshold=0.5))


@tf.function
def detect(b, s):
    return tf.image.non_max_suppression(b, s, 3, 0.5)


print(detect(boxes, scores))

images = tf.reshape(tf.range(1, 1 + 2 * 4 * 4 * 2, dtype=tf.float32), (2, 4, 4, 2))
crop_boxes = tf.constant([[0.0, 0.0, 1.0, 1.0], [0.9, 0.1, 0.2, 0.7]])
print(tf.image.crop_and_resize(images, crop_boxes, tf.constant([0, 1]), [2, 3]))
print(tf.image.crop_and_resize(images, tf.constant([[0.5, 0.5, 1.5, 1.5]]), [1], [3, 3], method="nearest",
                               extrapolation_value=-1.0)[..., 0])
with tf.GradientTape(persistent=True) as tape:
    tape.watch([images, crop_boxes])
    y = tf.reduce_sum(tf.image.crop_and_resize(images, crop_boxes, tf.constant([0, 1]), [3, 2]) ** 2)
print(tape.gradient(y, crop_boxes))
print(tape.gradient(y, images)[1, ..., 0])

patches = tf.image.extract_patches(images, sizes=[1, 2, 2, 1], strides=[1, 2, 2, 1], rates=[1, 1, 1, 1],
                                   padding="VALID")
print(patches.shape)
print(patches[0, 0])
print(tf.image.extract_patches(images, [1, 3, 3, 1], [1, 2, 2, 1], [1, 1, 1, 1], "SAME")[1, 1, 1])
print(tf.image.extract_patches(images, [1, 2, 2, 1], [1, 1, 1, 1], [1, 2, 2, 1], "VALID")[1, :, :, 0])
with tf.GradientTape() as tape:
    tape.watch(images)
    y = tf.reduce_sum(tf.image.extract_patches(images, [1, 3, 3, 1], [1, 1, 1, 1], [1, 1, 1, 1], "SAME") ** 2)
print(tape.gradient(y, images)[0, ..., 1])

image = tf.reshape(tf.range(24, dtype=tf.float32), (2, 4, 3))
print(tf.image.resize_with_pad(image, 4, 4)[..., 0])
print(tf.image.resize_with_pad(image, 3, 6, method="nearest")[..., 2])
print(tf.image.resize_with_pad(images, 5, 3).shape)

a = tf.reshape(tf.range(64, dtype=tf.float32) / 64.0, (1, 8, 8, 1))
b = tf.sqrt(a)
print(tf.image.ssim(a, b, max_val=1.0, filter_size=3))
print(tf.image.ssim(tf.tile(a, [1, 2, 2, 3]), tf.tile(b, [1, 2, 2, 3]), max_val=1.0))
print(tf.image.ssim(tf.cast(a * 255, tf.uint8), tf.cast(b * 255, tf.uint8), 255, filter_size=3))

for label, fn in [
    ("nms boxes", lambda: tf.image.non_max_suppression(boxes[:, :3], scores, 3)),
    ("nms iou", lambda: tf.image.non_max_suppression(boxes, scores, 3, iou_threshold=1.5)),
    ("nms int", lambda: tf.image.non_max_suppression(tf.cast(boxes, tf.int32), scores, 3)),
    ("patches sizes", lambda: tf.image.extract_patches(images, [2, 2, 2, 1], [1] * 4, [1] * 4, "VALID")),
    ("patches rank", lambda: tf.image.extract_patches(images[0], [1, 2, 2, 1], [1] * 4, [1] * 4, "SAME")),
    ("crop index", lambda: tf.image.crop_and_resize(images, crop_boxes, [0, 5], [2, 2])),
    ("ssim small", lambda: tf.image.ssim(a, b, 1.0)),
]:
    try:
        fn()
        print(label, "ok")
    except Exception as e:  # noqa: BLE001 - the class is what is compared
        print(label, type(e).__name__)
