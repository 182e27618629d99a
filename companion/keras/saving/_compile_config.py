"""A model's ``compile`` arguments, kept so that `Model.save` can store them and `load_model` recompile."""

from companion.keras import losses, metrics, optimizers
from companion.keras.layers._tracking import map_structure
from companion.keras.saving._object_registry import custom_objects as everything


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
    return {"optimizer": optimizers.serialize(model.optimizer),
            "loss": map_structure(lambda v: _named(v, losses.serialize), args.loss),
            "loss_weights": args.loss_weights,
            "metrics": map_structure(lambda v: _named(v, metrics.serialize), args.metrics),
            "weighted_metrics": map_structure(lambda v: _named(v, metrics.serialize),
                                              args.weighted_metrics),
            "run_eagerly": args.run_eagerly, "steps_per_execution": args.steps_per_execution,
            "jit_compile": args.jit_compile}


def compile_from_config(model, config, custom_objects=None):
    """Compiles ``model`` with the optimizer, losses and metrics of a saved ``compile_config``."""
    known = everything(custom_objects)

    def loss(value):
        return _revived(value, losses.deserialize, known)

    def metric(value):
        return _revived(value, metrics.deserialize, known)

    model.compile(optimizer=optimizers.deserialize(config["optimizer"], custom_objects=known),
                  loss=_map_spec(loss, config.get("loss")), metrics=_map_spec(metric, config.get("metrics")),
                  loss_weights=config.get("loss_weights"),
                  weighted_metrics=_map_spec(metric, config.get("weighted_metrics")),
                  run_eagerly=config.get("run_eagerly"),
                  steps_per_execution=config.get("steps_per_execution"),
                  jit_compile=config.get("jit_compile"))


def _named(value, serialize):
    if value is None or isinstance(value, str):
        return value
    found = serialize(value)
    if callable(found):  # a function of the user's own: stored by its name
        return getattr(found, "__name__", repr(found))
    return found


def _map_spec(fn, spec):
    """``fn`` on each loss/metric entry of a spec (lists and per-output dicts walked)."""
    if spec is None:
        return None
    if isinstance(spec, dict) and "class_name" not in spec:
        return {k: _map_spec(fn, v) for k, v in spec.items()}
    if isinstance(spec, (list, tuple)):
        return [_map_spec(fn, v) for v in spec]
    return fn(spec)


def _revived(value, deserialize, known):
    if value is None:
        return None
    if isinstance(value, str) and value in known:
        return known[value]
    try:
        return value if isinstance(value, str) else deserialize(value, custom_objects=known)
    except ValueError as error:
        raise TypeError(f"Could not revive the compiled {value!r}: {error} Pass it in custom_objects "
                        "or register it with keras.saving.register_keras_serializable().") from None
