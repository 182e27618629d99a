"""``companion.config.optimizer``: TensorFlow's graph-optimizer settings, accepted and reported.

companion compiles every `companion.function` with XLA, so auto-clustering (``set_jit``) has
nothing to switch; the setting is kept and `get_jit` reports it as TensorFlow does.
"""

_settings = {"jit": "", "experimental": {"disable_model_pruning": False, "disable_meta_optimizer": False}}


def set_jit(enabled):
    """Turns XLA auto-clustering on (``True`` or ``"autoclustering"``); any other value turns it off."""
    _settings["jit"] = "autoclustering" if enabled is True or enabled == "autoclustering" else ""


def get_jit():
    """``"autoclustering"`` after ``set_jit(True)``, else ``""`` (TensorFlow's values)."""
    return _settings["jit"]


def set_experimental_options(options):
    """Accepts TensorFlow's graph-rewrite options (a dict of flags); companion leaves XLA to decide."""
    _settings["experimental"] = {**dict(options), **_settings["experimental"], **dict(options)}


def get_experimental_options():
    """The options given to `set_experimental_options`."""
    return dict(_settings["experimental"])


__all__ = ["get_experimental_options", "get_jit", "set_experimental_options", "set_jit"]
