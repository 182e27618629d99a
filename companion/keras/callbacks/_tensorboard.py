"""`TensorBoard`: Keras 3's callback writing ``train/`` and ``validation/`` runs of a log directory.

Tags as Keras 3 writes them: ``epoch_<name>`` per epoch (the ``val_`` prefix dropped in
``validation/``), ``epoch_learning_rate``, ``batch_<name>`` every ``update_freq`` batches,
``evaluation_<name>_vs_iterations`` at the optimizer's step after each evaluation, and
``<model>/<layer>/<weight>/histogram`` every ``histogram_freq`` epochs.
"""

import os

import numpy as np

from companion import summary
from companion.keras.callbacks._callback import Callback
from companion.keras.callbacks._logs import to_python


class TensorBoard(Callback):
    """Logs training to TensorBoard: ``tf.keras.callbacks.TensorBoard``.

    Args:
        log_dir: the root directory; runs are written to ``log_dir/train`` and
            ``log_dir/validation``.
        histogram_freq: every how many epochs to log weight histograms (0: never).
        write_graph: accepted; companion's programs are not Keras graphs, so no model graph
            is written (Keras 3 writes the model's JSON config under the tag ``keras``).
        write_images: also log each weight as an image.
        write_steps_per_second: log ``epoch_steps_per_second`` / ``batch_steps_per_second``.
        update_freq: ``"epoch"``, ``"batch"`` or an integer N: log ``batch_<metric>``
            every N training batches.
        profile_batch, embeddings_freq, embeddings_metadata: accepted; not supported.

    Example:
        >>> import os, tempfile, numpy as np
        >>> import companion as tf
        >>> model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
        >>> model.compile("sgd", "mse")
        >>> board = tf.keras.callbacks.TensorBoard(tempfile.mkdtemp())
        >>> _ = model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=1, verbose=0, callbacks=[board])
        >>> sorted(os.listdir(board.log_dir))
        ['train']
    """

    def __init__(self, log_dir="logs", histogram_freq=0, write_graph=True, write_images=False,
                 write_steps_per_second=False, update_freq="epoch", profile_batch=0, embeddings_freq=0,
                 embeddings_metadata=None):
        super().__init__()
        if update_freq != "epoch" and update_freq != "batch" and not (
                isinstance(update_freq, int) and update_freq > 0):
            raise ValueError("TensorBoard: update_freq must be 'epoch', 'batch' or a positive integer. "
                             f"Received: update_freq={update_freq!r}")
        self.log_dir = os.fspath(log_dir)
        self.histogram_freq = histogram_freq
        self.write_graph = write_graph
        self.write_images = write_images
        self.write_steps_per_second = write_steps_per_second
        self.update_freq = 1 if update_freq == "batch" else update_freq
        self._writers = {}
        self._global_train_batch = 0

    def set_model(self, model):
        super().set_model(model)
        self._writers = {}

    def _writer(self, run):
        if run not in self._writers:
            self._writers[run] = summary.create_file_writer(os.path.join(self.log_dir, run))
        return self._writers[run]

    def on_train_begin(self, logs=None):
        self._global_train_batch = 0

    def on_train_end(self, logs=None):
        for writer in self._writers.values():
            writer.close()
        self._writers = {}

    def on_train_batch_begin(self, batch, logs=None):
        self._global_train_batch += 1

    def on_train_batch_end(self, batch, logs=None):
        if self.update_freq == "epoch" or self._global_train_batch % self.update_freq:
            return
        with self._writer("train").as_default(step=self._global_train_batch):
            for name, value in to_python(logs or {}).items():
                summary.scalar(f"batch_{name}", value)

    def on_test_end(self, logs=None):
        optimizer = getattr(self.model, "optimizer", None)
        if optimizer is None or not hasattr(optimizer, "iterations"):
            return
        step = int(optimizer.iterations.numpy())
        with self._writer("validation").as_default(step=step):
            for name, value in to_python(logs or {}).items():
                summary.scalar(f"evaluation_{name}_vs_iterations", value)

    def on_epoch_end(self, epoch, logs=None):
        logs = to_python(logs or {})
        train = {k: v for k, v in logs.items() if not k.startswith("val_")}
        learning_rate = getattr(getattr(self.model, "optimizer", None), "learning_rate", None)
        if learning_rate is not None:
            train["learning_rate"] = float(learning_rate.numpy() if hasattr(learning_rate, "numpy")
                                           else learning_rate)
        validation = {k[4:]: v for k, v in logs.items() if k.startswith("val_")}
        for run, values in (("train", train), ("validation", validation)):
            if values:
                with self._writer(run).as_default(step=epoch):
                    for name, value in values.items():
                        summary.scalar(f"epoch_{name}", value)
        if self.histogram_freq and epoch % self.histogram_freq == 0:
            self._log_weights(epoch)

    def _log_weights(self, epoch):
        with self._writer("train").as_default(step=epoch):
            for layer in self.model.layers:
                for weight in layer.weights:
                    path = getattr(weight, "path", weight.name).replace(":", "_")  # Keras 3's tag
                    summary.histogram(f"{path}/histogram", weight)
                    if self.write_images:
                        summary.image(f"{path}/image", _as_image(weight.numpy()))


def _as_image(values):
    """A weight as a ``[1, h, w, 1]`` image, as Keras 3 shows kernels and biases."""
    values = np.squeeze(values)
    if values.ndim == 1:
        values = values[None, :]
    if values.ndim != 2:
        values = values.reshape(values.shape[0], -1)
    return values[None, :, :, None].astype(np.float32)
