"""Listeners told about each new `ConcreteFunction` a `function` traces (`companion.summary.trace_on`).

A listener is a callable taking the ConcreteFunction; the list is empty unless a tool (the
summary tracer) is recording, so tracing pays nothing for it.
"""

listeners = []


def notify(concrete):
    """Tells every listener about a newly traced ConcreteFunction."""
    for listener in list(listeners):
        listener(concrete)
