"""``summary.trace_on``/``trace_export`` and ``summary.graph``: TensorBoard's graph plugin data.

TF 2.21 writes a trace as tag ``name`` with plugin ``graph_run_metadata_graph`` (content
``b'1'``), a string tensor of shape [1] holding a serialized ``RunMetadata``.
"""

import pytest

import companion as tf

event_accumulator = pytest.importorskip("tensorboard.backend.event_processing.event_accumulator")
tensor_util = pytest.importorskip("tensorboard.util.tensor_util")


def test_trace_export_writes_the_traced_function_graph(tmp_path):
    from tensorboard.compat.proto import config_pb2

    writer = tf.summary.create_file_writer(str(tmp_path))
    tf.summary.trace_on(graph=True, profiler=False)

    @tf.function
    def g(x):
        return tf.reduce_sum(x * x)

    g(tf.ones(3))
    with writer.as_default():
        tf.summary.trace_export("g_trace", step=0)
    acc = event_accumulator.EventAccumulator(str(tmp_path), size_guidance={"tensors": 0})
    acc.Reload()
    metadata = acc.SummaryMetadata("g_trace").plugin_data
    assert (metadata.plugin_name, metadata.content) == ("graph_run_metadata_graph", b"1")
    event, = acc.Tensors("g_trace")
    blob = tensor_util.make_ndarray(event.tensor_proto)
    assert (event.step, blob.shape) == (0, (1,))
    run_metadata = config_pb2.RunMetadata.FromString(blob[0])
    graph = run_metadata.function_graphs[0].pre_optimization_graph
    ops = [node.op for node in graph.node]
    assert ops[0] == "Placeholder" and "mul" in ops and "reduce_sum" in ops and ops[-1] == "Identity"


def test_trace_export_without_trace_writes_nothing_and_graph_needs_a_writer(tmp_path):
    tf.summary.trace_off()
    with tf.summary.create_file_writer(str(tmp_path)).as_default():
        tf.summary.trace_export("nothing", step=0)

    @tf.function
    def h(x):
        return x + 1

    assert tf.summary.graph(h.get_concrete_function(tf.constant(1.0))) is False
    with tf.summary.create_file_writer(str(tmp_path)).as_default():
        assert tf.summary.graph(h.get_concrete_function(tf.constant(1.0))) is True
    acc = event_accumulator.EventAccumulator(str(tmp_path))
    acc.Reload()
    assert acc.Tags()["graph"] is True and acc.Tags()["tensors"] == []
