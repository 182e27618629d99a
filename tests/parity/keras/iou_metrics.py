"""IoU, BinaryIoU, OneHotIoU, OneHotMeanIoU and MeanIoU: values with weights and thresholds, configs."""
import numpy as np
import tensorflow as tf

M = tf.keras.metrics
yt, yp = [0, 1, 2, 2, 1, 0, 2], [0, 2, 2, 1, 1, 0, 0]
for ids in ([0], [1, 2], [0, 1, 2]):
    m = M.IoU(num_classes=3, target_class_ids=ids)
    m.update_state(yt, yp, sample_weight=[1, 2, 1, 1, 1, 3, 1])
    print(ids, round(float(m.result()), 5))
b = M.BinaryIoU(threshold=0.3)
print(round(float(b([0, 1, 0, 1], [0.1, 0.2, 0.4, 0.7])), 5), b.get_config())
print(round(float(M.BinaryIoU(target_class_ids=[1])([1, 1, 0], [0.9, 0.2, 0.6])), 5))
oh = np.eye(3)[yt].astype("float32")
probs = np.eye(3)[yp].astype("float32") * 0.8 + 0.05
print(round(float(M.OneHotIoU(num_classes=3, target_class_ids=[0, 2])(oh, probs)), 5))
print(round(float(M.OneHotMeanIoU(num_classes=3)(oh, probs)), 5))
print(round(float(M.MeanIoU(num_classes=3)(yt, yp)), 5))
print(sorted(k for k in M.IoU(3, [1]).get_config()))
print(M.MeanIoU(3).get_config(), M.IoU(3, [1], dtype="float32").get_config())
