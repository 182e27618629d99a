"""get_config and serialize in Keras 3's layout: the DTypePolicy dict, module/registered_name, key order."""
import tensorflow as tf

keras = tf.keras
L = keras.layers
for layer in [L.Dense(3, name="d"), L.Dense(2, activity_regularizer="l2", name="r"),
              L.Dropout(0.3, name="dr"), L.BatchNormalization(name="bn"), L.LayerNormalization(name="ln"),
              L.Embedding(10, 4, name="e"),
              L.LSTM(5, name="l"), L.GRU(2, name="g"), L.SimpleRNN(2, name="s"), L.Flatten(name="f"),
              L.Conv2D(4, 3, name="c"), L.Bidirectional(L.LSTM(2, name="bl"), name="b")]:
    config = layer.get_config()
    print(type(layer).__name__, config)
    print(type(layer).from_config(config).get_config() == config)
inits = keras.initializers
for init in [inits.RandomNormal(seed=1), inits.RandomUniform(), inits.TruncatedNormal(), inits.Orthogonal(),
             inits.Identity()]:
    print(type(init).__name__, init.get_config())
print(keras.initializers.serialize(keras.initializers.GlorotUniform(seed=3)))
print(keras.regularizers.serialize(keras.regularizers.L2(0.1)), keras.regularizers.L1(0.1).get_config())
print(keras.losses.serialize(keras.losses.MeanSquaredError()))
print(keras.losses.Huber(delta=2.0).get_config(), keras.losses.CosineSimilarity().get_config())
print(keras.metrics.serialize(keras.metrics.AUC()))
print(keras.metrics.BinaryCrossentropy().get_config())
print(keras.metrics.SparseCategoricalCrossentropy().get_config())
schedule = keras.optimizers.schedules.ExponentialDecay(0.1, decay_steps=10, decay_rate=0.5, staircase=True)
print(keras.optimizers.schedules.serialize(schedule))
print(keras.optimizers.SGD(schedule).get_config()["learning_rate"])
print(keras.optimizers.serialize(keras.optimizers.Adam())["module"])
