"""Program graphs for TensorBoard's Graphs tab: `trace_on`/`trace_export` and `graph`.

companion's compiled programs are jaxprs, not TensorFlow GraphDefs; these write each
jaxpr as a ``GraphDef`` whose nodes are its operations (one node per equation, named
``<function>/<primitive>_<n>``, inputs wired from the producing equations), which
TensorBoard draws as it draws a TensorFlow graph.
"""

import numpy as np

from companion._staging import _trace_hooks
from companion.summary._record import emit
from companion.summary._state import state
from companion.summary._writer import SummaryWriter

_traced = []  # ConcreteFunctions traced since trace_on


def trace_on(graph=True, profiler=False, profiler_outdir=None):
    """Starts recording the graphs of the functions traced from now on (for `trace_export`).

    ``profiler`` is accepted and ignored: companion has no TensorFlow profiler.
    """
    trace_off()
    if graph:
        _trace_hooks.listeners.append(_traced.append)


def trace_off():
    """Stops recording graphs and forgets the ones recorded."""
    if _traced.append in _trace_hooks.listeners:
        _trace_hooks.listeners.remove(_traced.append)
    _traced.clear()


def trace_export(name, step=None, profiler_outdir=None):
    """Writes the graphs recorded since `trace_on` under tag ``name``, then stops recording.

    As in TensorFlow the summary is a ``RunMetadata`` holding one function graph per
    traced function (TensorBoard's ``graph_run_metadata_graph`` plugin data).
    """

    recorded = list(_traced)
    trace_off()
    if not recorded:
        return
    emit(name, [], step, lambda tag: _run_metadata_summary(tag, recorded))
    if state.writer is not None:
        state.writer.flush()


def graph(graph_data):
    """Writes a program graph (a `ConcreteFunction`, its ``.graph``, or a ``GraphDef``) to the writer.

    Returns True when written, False without a default file writer.
    """
    # deferred: tensorboard loads on first use, kept off `import companion`
    from tensorboard.compat.proto import event_pb2

    writer = state.writer
    if not isinstance(writer, SummaryWriter):
        return False
    graph_def = graph_data if hasattr(graph_data, "node") else graph_def_of(graph_data)
    writer._write_event(event_pb2.Event(graph_def=graph_def.SerializeToString()))
    return True


def graph_def_of(program):
    """A ``GraphDef`` of a ConcreteFunction (or its ``graph``): one node per jaxpr equation."""
    # deferred: tensorboard loads on first use, kept off `import companion`
    from tensorboard.compat.proto import graph_pb2

    graph = getattr(program, "graph", program)
    jaxpr, prefix = graph.jaxpr.jaxpr, graph.name
    graph_def, names = graph_pb2.GraphDef(), {}
    for i, var in enumerate(jaxpr.invars):
        names[var] = _node(graph_def, f"{prefix}/arg{i}", "Placeholder", [])
    for i, var in enumerate(jaxpr.constvars):
        names[var] = _node(graph_def, f"{prefix}/const{i}", "Const", [])
    for k, eqn in enumerate(jaxpr.eqns):
        inputs = [names[v] for v in eqn.invars if v in names]
        node = _node(graph_def, f"{prefix}/{eqn.primitive.name}_{k}", eqn.primitive.name, inputs)
        for out in eqn.outvars:
            names[out] = node
    for i, var in enumerate(jaxpr.outvars):
        _node(graph_def, f"{prefix}/output{i}", "Identity", [names[var]] if var in names else [])
    return graph_def


def _node(graph_def, name, op, inputs):
    graph_def.node.add(name=name, op=op, input=inputs)
    return name


def _run_metadata_summary(tag, concretes):
    # deferred: tensorboard loads on first use, kept off `import companion`
    from tensorboard.compat.proto import config_pb2, summary_pb2
    from tensorboard.util import tensor_util

    run_metadata = config_pb2.RunMetadata()
    for concrete in concretes:
        run_metadata.function_graphs.add().pre_optimization_graph.CopyFrom(graph_def_of(concrete))
    summary = summary_pb2.Summary()
    value = summary.value.add(tag=tag, tensor=tensor_util.make_tensor_proto(
        np.array([run_metadata.SerializeToString()], dtype=object)))
    value.metadata.plugin_data.plugin_name = "graph_run_metadata_graph"
    value.metadata.plugin_data.content = b"1"
    return summary
