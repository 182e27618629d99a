"""`train.GradientDescentOptimizer`: TF1's optimizer whose ``minimize`` returns a graph op.

``minimize(loss)`` records one node; when a Session runs it, the staged program takes
``jax.grad`` of the loss node's evaluation with respect to the Variables' values and writes
``value - learning_rate * gradient`` back to each (see `companion.compat.v1._session`).
"""

from companion._core import _graph_mode
from companion._staging._graph import Operation, SymbolicTensor


class GradientDescentOptimizer:
    """Plain gradient descent on a TF1 graph.

    Example:
        >>> import companion as tf
        >>> v1 = tf.compat.v1
        >>> with tf.Graph().as_default():
        ...     w = tf.Variable(3.0)
        ...     step = v1.train.GradientDescentOptimizer(0.25).minimize(tf.square(w))
        ...     with v1.Session() as sess:
        ...         sess.run(w.initializer)
        ...         sess.run(step)
        ...         print(sess.run(w))
        1.5
    """

    def __init__(self, learning_rate, use_locking=False, name="GradientDescent"):
        self._learning_rate = float(learning_rate)
        self._name = name

    def minimize(self, loss, global_step=None, var_list=None, gate_gradients=1, aggregation_method=None,
                 colocate_gradients_with_ops=False, name=None, grad_loss=None):
        """An op that, when run, takes one gradient step on ``loss`` for ``var_list`` (default: the
        trainable Variables the loss depends on)."""
        graph = _graph_mode.building
        if graph is None or not isinstance(loss, SymbolicTensor):
            raise RuntimeError("GradientDescentOptimizer.minimize builds a graph op: call it on a loss built "
                               "in a TF1 graph (inside `with tf.Graph().as_default():`). In TF2 code use "
                               "tf.keras.optimizers.SGD with a GradientTape.")
        reachable = _variables_of(loss)
        if var_list is None:
            var_list = [v for v in graph.get_collection("trainable_variables") if id(v) in reachable]
        else:
            var_list = [v for v in var_list if id(v) in reachable]
        if not var_list:
            raise ValueError(f"No gradients provided for any variable: the loss {loss.name} depends on no "
                             "trainable Variable. Check that the loss is computed from the Variables.")
        return graph._new_operation(name or self._name, "NoOp", "minimize", [loss], (), variables=var_list,
                                    learning_rate=self._learning_rate, global_step=global_step)


def _variables_of(tensor):
    """ids of the graph Variables ``tensor`` reads."""
    found, seen, stack = set(), set(), [tensor.op]
    while stack:
        node = stack.pop()
        if id(node) in seen or not isinstance(node, Operation):
            continue
        seen.add(id(node))
        if node._kind == "read":
            found.add(id(node._details["variable"]))
        stack.extend(ref.op for ref in node._inputs if isinstance(ref, SymbolicTensor))
    return found



