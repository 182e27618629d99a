"""`Progbar`: Keras 3's text progress bar, written to ``sys.stdout`` as it is at call time."""

import os
import sys
import time

import numpy as np

# Keras 3 draws with ANSI styles: the count and the time in bold, the done part of the bar green,
# the rest light grey. Each style costs characters that take no column on screen.
_BOLD, _GREEN, _GREY, _RESET = "\x1b[1m", "\x1b[32m", "\x1b[37m", "\x1b[0m"
_BAR_CHAR = "\u2501"  # ━


def _is_interactive():
    """Whether the bar is redrawn in place (``\\b``s and ``\\r`` before each drawing).

    As in Keras 3: on a terminal, in Jupyter, in PyCharm, and on every POSIX system (Keras
    tests ``"posix" in sys.modules``), so a pipe or a captured stdout on Linux gets the same
    redraws a terminal does. Elsewhere each drawing starts a new line. Tests (or a caller)
    replace this function to force either behaviour.
    """
    isatty = getattr(sys.stdout, "isatty", None)
    return (bool(isatty and isatty()) or "ipykernel" in sys.modules or os.name == "posix"
            or "PYCHARM_HOSTED" in os.environ)


class Progbar:
    """Displays a progress bar, ``tf.keras.utils.Progbar``.

    ``verbose=1`` draws Keras 3's bar, ``3/3 ━━━━━━━━━━━━━━━━━━━━ 0s 12ms/step - loss: 0.2954``
    (with ANSI bold and colours), redrawn in place at most every ``interval`` seconds and
    always at the last step, which ends the line; before the end the time is the ETA.
    ``verbose=2`` prints ``3/3 - 0s - 12ms/step - loss: 0.2954`` once, at the end (known
    targets only); ``verbose=0`` prints nothing.

    Values are averaged over the steps they were given for (weighted by the steps between
    updates), except that the last update shows the values it is given, and names in
    ``stateful_metrics`` are always shown as given. ``stateless_metrics`` inverts the rule:
    only the names in it are averaged.

    Args:
        target: the total number of steps, or None if unknown.
        width: the width of the bar in characters.
        verbose: 0 (silent), 1 (bar) or 2 (one line at the end).
        interval: the minimum number of seconds between redraws.
        stateful_metrics: names of values to show as given (the others are averaged).
        stateless_metrics: names of values to average (the others are shown as given).
        unit_name: what a step is called in ``3ms/step``.

    Raises:
        ValueError: if both ``stateful_metrics`` and ``stateless_metrics`` are given.

    Example:
        >>> import companion as tf
        >>> bar = tf.keras.utils.Progbar(2, verbose=2)
        >>> bar.update(1, [("loss", 1.0)])
        >>> bar.update(2, [("loss", 0.5)])
        2/2 - 0s - ...s/step - loss: 0.5000
    """

    def __init__(self, target, width=20, verbose=1, interval=0.05, stateful_metrics=None,
                 stateless_metrics=None, unit_name="step"):
        if stateful_metrics is not None and stateless_metrics is not None:
            raise ValueError("Only one of `stateful_metrics` or `stateless_metrics` can be provided: "
                             "`stateful_metrics` names the values shown as given (the others are "
                             "averaged), `stateless_metrics` the values averaged (the others are "
                             "shown as given).")
        self.target = target
        self.width = width
        self.verbose = verbose
        self.interval = interval
        self.unit_name = unit_name
        self.stateless_metrics = None if stateless_metrics is None else set(stateless_metrics)
        self.stateful_metrics = (set(stateful_metrics or ()) if self.stateless_metrics is None else None)
        self._dynamic_display = _is_interactive()
        self._values = {}  # name -> [sum of value * steps, steps]
        self._values_order = []
        self._seen_so_far = 0
        self._prev_width = 0  # the columns the previous drawing took, erased before the next
        self._start = time.time()
        self._last_update = 0.0
        self._time_after_first_step = None

    def update(self, current, values=None, finalize=None):
        """Moves the bar to step ``current``.

        Args:
            current: the index of the current step (1-based: the number of steps done).
            values: ``(name, value)`` pairs for the steps since the last update.
            finalize: whether this is the last update; by default, whether
                ``current >= target`` (never, for an unknown target).
        """
        if finalize is None:
            finalize = self.target is not None and current >= self.target
        self._accumulate(current, values or [], finalize)
        now = time.time()
        step_time = self._step_duration(current, now)
        if self.verbose == 1:
            if now - self._last_update < self.interval and not finalize:
                return
            self._draw_bar(current, now, step_time, finalize)
        elif self.verbose == 2 and finalize:
            self._print_line(current, now, step_time)
        self._last_update = now

    def due(self):
        """Whether a `update` that does not finalize would redraw now (the first one, or one
        ``interval`` seconds after the previous redraw); lets callers skip fetching values."""
        return self.verbose == 1 and time.time() - self._last_update >= self.interval

    def add(self, n, values=None):
        """Advances the bar by ``n`` steps (see `update`)."""
        self.update(self._seen_so_far + n, values)

    # -- the parts of a line --------------------------------------------------------------
    def _averaged(self, name):
        if self.stateless_metrics is not None:
            return name in self.stateless_metrics
        return name not in self.stateful_metrics

    def _accumulate(self, current, values, finalize):
        for name, value in values:
            value = _as_number(value)
            if name not in self._values_order:
                self._values_order.append(name)
            if finalize or not self._averaged(name):
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
        bar, bar_width = self._bar(current)
        if self.target and not finalize:
            seconds = _format_eta(step_time * (self.target - current))
        else:
            seconds = f"{now - self._start:.0f}s"
        info = f" {seconds} {_format_time(step_time, self.unit_name)}{self._metrics()}"
        width = bar_width + len(info)
        info = f" {_BOLD}{seconds}{_RESET}" + info[len(seconds) + 1:]
        padding = " " * max(self._prev_width - width, 0)
        prefix = "\b" * self._prev_width + "\r" if self._dynamic_display else "\n"
        _write(prefix + bar + info + padding + ("\n" if finalize else ""))
        self._prev_width = width

    def _print_line(self, current, now, step_time):
        """Keras 3's ``verbose=2`` line: ``2/2 - 0s - 15ms/step - loss: 0.5000`` (known targets only)."""
        if not self.target:
            return
        timing = f"{now - self._start:.0f}s - {_format_time(step_time, self.unit_name)}"
        _write(f"{self._count(current)} - {timing}{self._metrics(signed=False)}\n")

    def _count(self, current):
        digits = len(str(self.target))
        return f"{current:{digits}d}/{self.target}"

    def _bar(self, current):
        """The count and the bar with their styles, and the columns they take on screen."""
        if not self.target:
            text = "%7d/Unknown" % current
            return text, len(text)
        count = self._count(current)
        done = int(self.width * current / self.target)
        bar = f"{_BOLD}{count}{_RESET} "
        if done > 0:
            bar += f"{_GREEN}{_BAR_CHAR * done}{_RESET}"
        bar += f"{_GREY}{_BAR_CHAR * (self.width - done)}{_RESET}"
        return bar, len(count) + 1 + max(done, self.width)

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
