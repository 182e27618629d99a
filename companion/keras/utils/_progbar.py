"""`Progbar`: Keras 2's text progress bar, written to ``sys.stdout`` as it is at call time."""

import sys
import time

import numpy as np


def _is_interactive():
    """Whether the bar is redrawn in place with ``\\r``: on a terminal or in a Jupyter kernel.

    Keras tests ``"ipykernel" in sys.modules``; here the kernel must also own
    ``sys.stdout``, so a process that merely imported ipykernel (a pytest plugin, a
    notebook runner) writing to a pipe still gets plain lines. Tests (or a caller)
    replace this function to force either behaviour.
    """
    isatty = getattr(sys.stdout, "isatty", None)
    return bool(isatty and isatty()) or _in_jupyter_kernel()


def _in_jupyter_kernel():
    iostream = sys.modules.get("ipykernel.iostream")
    return iostream is not None and isinstance(sys.stdout, iostream.OutStream)


class Progbar:
    """Displays a progress bar, ``tf.keras.utils.Progbar``.

    ``verbose=1`` draws ``32/32 [=====...] - 1s 3ms/step - loss: 0.2954``: redrawn in
    place (at most every ``interval`` seconds) on a terminal or in Jupyter, and only
    the final line otherwise (a pipe or a CI log). ``verbose=2`` prints one line
    when the target is reached; ``verbose=0`` prints nothing. Values are averaged over
    the steps they were given for (weighted by the steps between updates), except the
    names in ``stateful_metrics``, shown as given.

    Args:
        target: the total number of steps, or None if unknown.
        width: the width of the bar in characters.
        verbose: 0 (silent), 1 (bar) or 2 (one line at the end).
        interval: the minimum number of seconds between redraws.
        stateful_metrics: names of values to show as-is instead of averaged.
        unit_name: what a step is called in ``3ms/step``.

    Example:
        >>> import companion as tf
        >>> bar = tf.keras.utils.Progbar(2)
        >>> bar.update(1, [("loss", 1.0)])
        >>> bar.update(2, [("loss", 0.5)])
        2/2 [==============================] - ...s ...s/step - loss: 0.7500
    """

    def __init__(self, target, width=30, verbose=1, interval=0.05, stateful_metrics=None,
                 unit_name="step"):
        self.target = target
        self.width = width
        self.verbose = verbose
        self.interval = interval
        self.unit_name = unit_name
        self.stateful_metrics = set(stateful_metrics or ())
        self._dynamic_display = _is_interactive()
        self._values = {}  # name -> [sum of value * steps, steps]
        self._values_order = []
        self._seen_so_far = 0
        self._total_width = 0
        self._start = time.time()
        self._last_update = 0.0
        self._time_after_first_step = None

    def update(self, current, values=None, finalize=None):
        """Moves the bar to step ``current``.

        Args:
            current: the index of the current step (1-based: the number of steps done).
            values: ``(name, value)`` pairs for the steps since the last update.
            finalize: whether this is the last update; by default, whether
                ``current >= target``.
        """
        if finalize is None:
            finalize = self.target is not None and current >= self.target
        self._accumulate(current, values or [])
        now = time.time()
        step_time = self._step_duration(current, now)
        if self.verbose == 1:
            if now - self._last_update < self.interval and not finalize:
                return
            self._draw_bar(current, now, step_time, finalize)
        elif self.verbose == 2 and finalize:
            self._print_line(current, now, step_time)
        self._last_update = now

    def due(self, current):
        """Whether `update` at step ``current`` would redraw (the first step, the last, or
        ``interval`` seconds after the previous redraw); lets callers skip fetching values."""
        if self.verbose != 1:
            return False
        return (current <= 1 or (self.target is not None and current >= self.target)
                or time.time() - self._last_update >= self.interval)

    def add(self, n, values=None):
        """Advances the bar by ``n`` steps (see `update`)."""
        self.update(self._seen_so_far + n, values)

    # -- the parts of a line --------------------------------------------------------------
    def _accumulate(self, current, values):
        for name, value in values:
            value = _as_number(value)
            if name not in self._values_order:
                self._values_order.append(name)
            if name in self.stateful_metrics:
                self._values[name] = [value, 1]
                continue
            steps = max(current - self._seen_so_far, 1)
            total, count = self._values.get(name, [0.0, 0])
            self._values[name] = [total + value * steps, count + steps]
        self._seen_so_far = current

    def _step_duration(self, current, now):
        """Seconds per step, not counting the first step (compilation) once there are more."""
        if not current:
            return 0.0
        if self._time_after_first_step is not None and current > 1:
            duration = (now - self._time_after_first_step) / (current - 1)
        else:
            duration = (now - self._start) / current
        if current == 1:
            self._time_after_first_step = now
        return duration

    def _draw_bar(self, current, now, step_time, finalize):
        if not (self._dynamic_display or finalize):
            return  # a pipe or a log file gets the final line only
        line = self._bar(current) + self._timing(current, now, step_time, finalize) + self._metrics()
        padding = " " * max(self._total_width - len(line), 0)
        self._total_width = len(line)
        prefix = "\r" if self._dynamic_display else ""
        _write(prefix + line + padding + ("\n" if finalize else ""))

    def _print_line(self, current, now, step_time):
        """Keras 3's ``verbose=2`` line: ``2/2 - 0s - 15ms/step - loss: 0.5000`` (known targets only)."""
        if not self.target:
            return
        timing = f"{now - self._start:.0f}s - {_format_time(step_time, self.unit_name)}"
        _write(f"{self._count(current)} - {timing}{self._metrics(signed=False)}\n")

    def _count(self, current):
        if self.target is None:
            return "%7d/Unknown" % current
        digits = len(str(self.target))
        return f"{current:{digits}d}/{self.target}"

    def _bar(self, current):
        if self.target is None:
            return self._count(current)
        filled = min(int(self.width * current / max(self.target, 1)), self.width)
        bar = ""
        if filled > 0:
            bar = "=" * (filled - 1) + (">" if current < self.target else "=")
        return f"{self._count(current)} [{bar}{'.' * (self.width - filled)}]"

    def _timing(self, current, now, step_time, finalize):
        if self.target is None or finalize:
            return f" - {now - self._start:.0f}s {_format_time(step_time, self.unit_name)}"
        return f" - ETA: {_format_eta(step_time * (self.target - current))}"

    def _metrics(self, signed=True):
        """`` - name: value`` for each value; Keras 3's ``verbose=2`` line writes the ones not above
        1e-3 (negative ones included) in exponent form (``signed=False``)."""
        text = ""
        for name in self._values_order:
            total, count = self._values[name]
            text += f" - {name}: {_format_value(float(np.mean(total / max(count, 1))), signed)}"
        return text


def _as_number(value):
    value = value.numpy() if hasattr(value, "numpy") else value
    return np.asarray(value, dtype=np.float64)


def _format_value(value, signed=True):
    return f"{value:.4f}" if (abs(value) if signed else value) > 1e-3 else f"{value:.4e}"


def _format_time(seconds, unit):
    if seconds >= 1 or seconds == 0:
        return f"{seconds:.0f}s/{unit}"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.0f}ms/{unit}"
    return f"{seconds * 1e6:.0f}us/{unit}"


def _format_eta(eta):
    if eta > 3600:
        return "%d:%02d:%02d" % (eta // 3600, (eta % 3600) // 60, eta % 60)
    if eta > 60:
        return "%d:%02d" % (eta // 60, eta % 60)
    return "%ds" % eta


def _write(message):
    stream = sys.stdout
    stream.write(message)
    stream.flush()
