"""Focal cross-entropies, Dice and Tversky: functions, classes, configs, by name, in compile."""
import numpy as np
import tensorflow as tf

K = tf.keras.losses
yt = [[0., 1.], [0., 0.], [1., 1.]]
yp = [[0.6, 0.4], [0.4, 0.6], [0.9, 0.2]]
print(np.round(K.binary_focal_crossentropy(yt, yp).numpy(), 5).tolist())
balanced = K.binary_focal_crossentropy(yt, yp, apply_class_balancing=True, alpha=0.3, gamma=1.5,
                                       label_smoothing=0.1)
print(np.round(balanced.numpy(), 5).tolist())
logits = [[0.3, -1.0], [2.0, 0.0], [0.5, 0.1]]
print(np.round(K.binary_focal_crossentropy(yt, logits, from_logits=True).numpy(), 5).tolist())
print(round(float(K.BinaryFocalCrossentropy(gamma=3.)(yt, yp)), 5), K.BinaryFocalCrossentropy().get_config())
ct = [[0., 1., 0.], [1., 0., 0.]]
cp = [[0.1, 0.7, 0.2], [0.3, 0.3, 0.4]]
print(np.round(K.categorical_focal_crossentropy(ct, cp).numpy(), 5).tolist())
smoothed = K.categorical_focal_crossentropy(ct, [[1.0, 2.0, 0.0], [0.0, 0.0, 1.0]], from_logits=True,
                                            label_smoothing=0.2, alpha=0.5)
print(np.round(smoothed.numpy(), 5).tolist())
print(round(float(K.CategoricalFocalCrossentropy()(ct, cp)), 5))
print(K.CategoricalFocalCrossentropy(gamma=1.).get_config())
print(round(float(K.dice(yt, yp)), 5), np.round(K.dice(yt, yp, axis=1).numpy(), 5).tolist())
print(round(float(K.Dice()(yt, yp)), 5), K.Dice(axis=1).get_config())
print(round(float(K.tversky(yt, yp)), 5), round(float(K.tversky(yt, yp, alpha=0.7, beta=0.3)), 5))
print(round(float(K.Tversky(alpha=0.2)(yt, yp)), 5), K.Tversky().get_config())
print(K.get("dice").__name__, type(K.get("Tversky")).__name__)
m = tf.keras.Sequential([tf.keras.layers.Input((3,)),
                         tf.keras.layers.Dense(2, activation="sigmoid", kernel_initializer="ones")])
m.compile("sgd", K.BinaryFocalCrossentropy())
print(round(m.evaluate(np.ones((4, 3), "float32") * 0.1, np.array([[1, 0]] * 4, "float32"), verbose=0), 5))
print(np.round(tf.keras.metrics.binary_focal_crossentropy(yt, yp).numpy(), 5).tolist())
