"""A model's ``compile`` arguments, kept so that `Model.save` can store them and `load_model` recompile.

The losses, metrics and optimizer are stored as `serialize_keras_object` writes them (names
stay names; a function is ``{'class_name': 'function', 'config': its registered name}``) and
revived by `deserialize_keras_object`, so registered or custom classes and functions come
back, and an unknown one raises Keras's "Could not locate function" TypeError.
"""

from companion.keras.saving._serialization import deserialize_keras_object, serialize


class CompileArgs:
    """The arguments ``compile`` was given (an object checkpoints do not walk into)."""

    def __init__(self, optimizer, loss, metrics, loss_weights, weighted_metrics, run_eagerly=False,
                 steps_per_execution=1, jit_compile=False):
        self.optimizer, self.loss, self.metrics = optimizer, loss, metrics
        self.loss_weights, self.weighted_metrics = loss_weights, weighted_metrics
        self.run_eagerly, self.jit_compile = run_eagerly, jit_compile
        self.steps_per_execution = steps_per_execution


def compile_config(model):
    """The JSON-ready ``compile_config`` of ``model`` (Keras 3's keys, in its order), or None if not
    compiled."""
    args = getattr(model, "_compile_args", None)
    if args is None or model.optimizer is None:
        return None
    return {"optimizer": serialize(model.optimizer), "loss": serialize(args.loss),
            "loss_weights": serialize(args.loss_weights), "metrics": serialize(args.metrics),
            "weighted_metrics": serialize(args.weighted_metrics), "run_eagerly": args.run_eagerly,
            "steps_per_execution": args.steps_per_execution, "jit_compile": args.jit_compile}


def compile_from_config(model, config, custom_objects=None):
    """Compiles ``model`` with the optimizer, losses and metrics of a saved ``compile_config``.

    Raises:
        TypeError: a loss, metric or optimizer of your own that is neither registered nor in
            ``custom_objects`` (or an active `custom_object_scope`).
    """
    def revive(key):
        return deserialize_keras_object(config.get(key), custom_objects)

    model.compile(optimizer=revive("optimizer"), loss=revive("loss"), metrics=revive("metrics"),
                  loss_weights=revive("loss_weights"), weighted_metrics=revive("weighted_metrics"),
                  run_eagerly=config.get("run_eagerly"),
                  steps_per_execution=config.get("steps_per_execution"),
                  jit_compile=config.get("jit_compile"))
