"""fit(verbose=1) in a real Jupyter kernel: the progress bar redraws in place with carriage returns."""

import pytest


@pytest.mark.notebook
def test_progress_bar_updates_in_place_in_a_kernel():
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    source = "\n".join([
        "import time, numpy as np, companion as tf",
        "class Slow(tf.keras.callbacks.Callback):",
        "    def on_train_batch_end(self, batch, logs=None):",
        "        time.sleep(0.06)  # longer than the bar's redraw interval",
        "model = tf.keras.Sequential([tf.keras.Input(shape=(2,)), tf.keras.layers.Dense(1)])",
        "model.compile('sgd', 'mse')",
        "model.fit(np.ones((40, 2)), np.ones((40, 1)), batch_size=8, epochs=1, verbose=1,",
        "          callbacks=[Slow()])",
    ])
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source)])
    nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3").execute()
    text = "".join(o.get("text", "") for o in notebook.cells[0].outputs if o.output_type == "stream")
    assert "\r" in text  # redrawn in place, not one line per batch
    # Keras 3.15's bar: bold count, then the done part green and the rest grey
    assert f"\x1b[1m1/5\x1b[0m \x1b[32m{'━' * 4}\x1b[0m\x1b[37m{'━' * 16}\x1b[0m" in text
    assert f"\x1b[1m5/5\x1b[0m \x1b[32m{'━' * 20}\x1b[0m" in text
    assert text.count("\n") <= 2
