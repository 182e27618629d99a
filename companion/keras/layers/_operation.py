"""`Operation`: an operator applied to `KerasTensor`s (``x + 1``, ``x[:, 0]``) in a functional model."""

from companion.keras.layers._lambda import Lambda
from companion.keras.layers._naming import unique_name


class Operation(Lambda):
    """The node Keras 3 records for an operator on a symbolic tensor, named after the op.

    Keras 3 turns ``x + 1`` on a `KerasTensor` into an ``Add`` operation (``x[:, 0]`` into
    ``GetItem``, ``-x`` into ``Negative``, ...): it appears in the model's summary as
    ``add (Add)`` and in its graph, but not in ``model.layers``, which lists layers only.
    It runs ``function`` like a `Lambda` and has no weights.

    Args:
        function: the computation, on the op's tensor operands.
        class_name: Keras 3's class of the op (``"Add"``, ``"GetItem"``); its snake_case form
            is the name (``add``, ``add_1``, ... shared with the layers' counters).
    """

    _is_operation = True

    def __init__(self, function, class_name):
        super().__init__(function, name=unique_name(class_name))
        self._op_class_name = class_name

    def _display_class_name(self):
        return self._op_class_name
