"""The TF1 graph being built, if any: one module attribute that `Op.apply` reads on every op.

``building`` is None while executing eagerly (TF2's default). Inside ``Graph.as_default()``, or
after ``compat.v1.disable_eager_execution()``, it is the default `companion._staging._graph.Graph`, and
applying an op records a node there instead of running it (see `companion._staging._graph`).
"""

building = None  # the Graph whose ops are being recorded, or None (eager)
