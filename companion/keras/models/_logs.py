"""The ``logs`` dicts of the training loops: tensors to Python floats, dicts to Keras's lists."""

from companion.keras.callbacks._logs import convert, to_python

__all__ = ["convert", "flatten_logs", "to_python"]


def flatten_logs(logs, names):
    """Keras 3's return value of evaluate/train_on_batch (``_flatten_metrics_in_order``): the logs
    named by ``names`` in that order, then the other keys sorted; a scalar for one value."""
    ordered = [logs[name] for name in names if name in logs]
    ordered += [logs[key] for key in sorted(logs) if key not in names]
    return ordered[0] if len(ordered) == 1 else ordered
