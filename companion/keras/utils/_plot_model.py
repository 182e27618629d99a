"""`plot_model`: Keras draws a model's layer graph with pydot and graphviz; companion does not.

Keras 3 without pydot raises ImportError (in IPython it prints the message and returns None, so
a notebook goes on); companion behaves the same way, as if pydot were missing, and says so.
"""

import importlib.util
import sys

_NO_PYDOT = "You must install pydot (`pip install pydot`) for `plot_model` to work."
_NO_DRAWING = ("companion does not draw model graphs (`plot_model` needs Keras's pydot renderer); "
               "print `model.summary()` instead.")


def plot_model(model, to_file="model.png", show_shapes=False, show_dtype=False, show_layer_names=False,
               rankdir="TB", expand_nested=False, dpi=200, show_layer_activations=False,
               show_trainable=False, **kwargs):
    """Keras 3's ``keras.utils.plot_model`` where the graph cannot be drawn.

    Raises ValueError for a model not built yet, then ImportError (Keras's message when pydot
    is not installed), or NotImplementedError when pydot is installed; inside IPython the
    message is printed and None returned instead, as Keras does.
    """
    if not model.built:
        raise ValueError("This model has not yet been built. Build the model first by calling "
                         "`build()` or by calling the model on a batch of data.")
    missing = importlib.util.find_spec("pydot") is None
    message = _NO_PYDOT if missing else _NO_DRAWING
    if "IPython.core.magics.namespace" in sys.modules:
        print(message)
        return None
    raise (ImportError if missing else NotImplementedError)(message)
