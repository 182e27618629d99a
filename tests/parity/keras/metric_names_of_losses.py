"""compile(metrics=[...]) takes Keras 3's snake-case metric names (the loss-valued metrics, 'auc',
'precision', ...) and the aliases 'mape'/'msle'; an unknown name is a ValueError."""
import numpy as np
import tensorflow as tf

x = np.ones((4, 3), "float32")
y = np.array([[0.25, 0.75]] * 4, "float32")
names = ["binary_crossentropy", "categorical_crossentropy", "kl_divergence", "poisson", "hinge",
         "squared_hinge", "categorical_hinge", "mape", "msle", "mean_absolute_percentage_error",
         "root_mean_squared_error", "auc", "precision", "recall", "logcosh"]
model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2, kernel_initializer="ones",
                                                                         activation="softmax")])
for name in names:
    try:
        model.compile("sgd", "mse", metrics=[name])
        result = model.evaluate(x, np.round(y) if name in ("auc", "precision", "recall") else y, verbose=0,
                                return_dict=True)
        print(name, {k: round(float(v), 4) for k, v in sorted(result.items())})
    except ValueError as error:
        print(name, type(error).__name__)
labels = np.array([1, 0, 1, 0])
model.compile("sgd", "sparse_categorical_crossentropy", metrics=["sparse_categorical_crossentropy"])
print(model.evaluate(x, labels, verbose=0, return_dict=True))
print(type(tf.keras.metrics.get("binary_crossentropy")).__name__, tf.keras.metrics.get("auc").name)
