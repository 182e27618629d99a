"""What the monitoring callbacks share: the ``mode`` check, the direction ``mode="auto"`` infers,
and reading the monitored value."""

import warnings

MODES = ("auto", "min", "max")


def checked_mode(mode, owner):
    """``mode``, or ``"auto"`` with a UserWarning when it is not ``"auto"``, ``"min"`` or ``"max"``
    (Keras 3 falls back instead of raising)."""
    if mode not in MODES:
        warnings.warn(f"{owner} mode '{mode}' is unknown, fallback to auto mode.", stacklevel=2)
        return "auto"
    return mode


def direction(callback):
    """``callback.maximize`` (and the sign of its ``min_delta``, negative when minimizing, as Keras 3
    keeps it) set from `higher_is_better` unless already set: at construction for "min"/"max",
    at the first epoch end for "auto"."""
    if callback.maximize is not None:
        return callback.maximize
    callback.maximize = higher_is_better(callback)
    if not callback.maximize and hasattr(callback, "min_delta"):
        callback.min_delta = -abs(callback.min_delta)
    return callback.maximize


def higher_is_better(callback):
    """Whether larger values of ``callback.monitor`` are improvements.

    ``"min"``/``"max"`` say it; ``"auto"`` decides as Keras 3 does, once the model's metrics are
    built: ``loss`` (``val_`` prefix dropped) is minimized, a compiled metric of that name is
    maximized or minimized by its ``_direction`` (``"up"``/``"down"``); any other name is a
    ValueError asking for an explicit mode.
    """
    if callback.mode != "auto":
        return callback.mode == "max"
    name = callback.monitor.removeprefix("val_")
    found = False if name == "loss" else None
    compiled = getattr(callback.model, "_compile_metrics", None)
    container = compiled() if callable(compiled) else None
    for metric in container.metrics if container is not None else ():
        direction = getattr(metric, "_direction", None)
        if getattr(metric, "_keras_name", metric.name) == name and direction is not None:
            found = direction == "up"
    if found is None:
        raise ValueError(f"{type(callback).__name__} callback received monitor={callback.monitor}, but "
                         "Keras isn't able to automatically determine whether that metric should be "
                         "maximized or minimized. Pass `mode='max'` in order to monitor based on the highest "
                         "metric value, or pass `mode='min'` in order to use the lowest value.")
    return found


def monitored_value(logs, monitor, owner):
    """``logs[monitor]``, or None with a warning naming the logs that are available."""
    value = (logs or {}).get(monitor)
    if value is None:
        available = ",".join(logs or {})
        warnings.warn(f"{owner} is conditioned on metric `{monitor}` which is not available. "
                      f"Available metrics are: {available}", stacklevel=3)
    return value
