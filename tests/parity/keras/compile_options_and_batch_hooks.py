import numpy as np
import tensorflow as tf

keras = tf.keras
x = np.ones((10, 3), "float32")
y = np.zeros((10, 2), "float32")


def model():
    inputs = keras.Input((3,))
    return keras.Model(inputs, keras.layers.Dense(2, kernel_initializer="ones")(inputs))


# steps_per_execution: callbacks see one batch per execution, numbered begin / begin + k - 1
m = model()
print(m.steps_per_execution, m.jit_compile, m.run_eagerly)
m.compile("sgd", "mse", steps_per_execution=3)
print(m.steps_per_execution)
show = keras.callbacks.LambdaCallback(
    on_train_batch_begin=lambda batch, logs: print("train begin", batch),
    on_train_batch_end=lambda batch, logs: print("train end", batch, sorted(logs)),
    on_test_batch_end=lambda batch, logs: print("test end", batch),
    on_predict_batch_end=lambda batch, logs: print("predict end", batch, logs["outputs"].shape),
    on_epoch_end=lambda epoch, logs: print("epoch", epoch, {k: round(v, 4) for k, v in logs.items()}))
m.fit(x, y, batch_size=2, epochs=2, verbose=0, callbacks=[show], validation_data=(x, y))
print("iterations", int(m.optimizer.iterations.numpy()))
print(m.predict(x, batch_size=2, verbose=0, callbacks=[show]).shape)

# a batch hook's logs come by keyword
try:
    m.fit(x, y, batch_size=5, verbose=0,
          callbacks=[keras.callbacks.LambdaCallback(on_train_batch_end=lambda b, values: None)])
except TypeError as e:
    print("TypeError", "logs" in str(e))

# jit_compile with run_eagerly is disabled
m.compile("sgd", "mse", jit_compile=True, run_eagerly=True)
print(m.jit_compile, m.run_eagerly, m.get_compile_config()["jit_compile"])
m.jit_compile = "auto"
print(m.jit_compile)

# recompiling without loss or metrics keeps the earlier ones
m = model()
m.compile("sgd", "mse", metrics=["mae"])
m.compile("adam", "mse")
print(m.metrics_names, m.get_compile_config()["metrics"])
print(m.evaluate(x, y, verbose=0, return_dict=True))
m.compile("adam")
print(m.loss, m.metrics_names)
print({k: round(v, 4) for k, v in m.evaluate(x, y, verbose=0, return_dict=True).items()})

# keras.Input's arguments in Keras 3's order
t = keras.Input((None, 5), 4, "int32", name="tok")
print(t.shape, t.dtype, t.name)
print(keras.Input((2,), sparse=False, ragged=False, optional=False).shape)
