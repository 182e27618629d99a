"""A compat.v1 Graph drawn as an SVG (`Graph._repr_html_`): every node, one edge per input, layered."""

import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import companion as tf

v1 = tf.compat.v1
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(autouse=True)
def _eager_afterwards():
    yield
    v1.enable_eager_execution()
    v1.reset_default_graph()


def _training_graph():
    graph = tf.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [None, 3], name="x")
        target = v1.placeholder(tf.float32, [None, 1], name="target")
        w = tf.Variable(np.ones((3, 1), np.float32), name="w")
        b = tf.Variable([0.5], name="b")
        y = tf.sigmoid(tf.matmul(x, w) + b)
        loss = tf.reduce_mean(tf.square(y - target))
        v1.train.GradientDescentOptimizer(0.1).minimize(loss)
        w.assign(w * 2)
        v1.global_variables_initializer()
    return graph


def _svg(graph):
    text = graph._repr_html_()
    return ET.fromstring(re.search(r"<svg.*</svg>", text, re.S).group(0))


def _groups(svg, cls):
    return [g for g in svg.iter(f"{SVG}g") if g.get("class") == cls]


def _title(group):
    return group.find(f"{SVG}title").text


def test_every_operation_is_a_node_with_its_name_and_type():
    graph = _training_graph()
    svg = _svg(graph)
    nodes = [g for g in svg.iter(f"{SVG}g") if (g.get("class") or "").startswith("node ")]
    titles = [_title(g) for g in nodes]
    for operation in graph.get_operations():
        assert f"{operation.name} ({operation.type}): " in "\n".join(titles), operation.name
    # the Variables are nodes too (TF's VarHandleOp), one per Variable
    assert sorted(t.split(" ")[0] for t in titles if "VarHandleOp" in t) == ["b", "w"]
    assert len(nodes) == len(graph.get_operations()) + 2


def test_one_data_edge_per_input_and_one_control_edge_per_dependency():
    graph = _training_graph()
    svg = _svg(graph)
    inputs = [t.name for op in graph.get_operations() for t in op.inputs]
    data = _groups(svg, "edge data")
    assert sorted(_title(g).split(":")[0] + ":" + _title(g).split(":")[1] for g in data) == sorted(inputs)
    controls = sum(len(op.control_inputs) for op in graph.get_operations())
    assert controls == 2 and len(_groups(svg, "edge control")) == controls
    # each read, assign, initializer and the minimize op is tied to the Variable it uses
    uses = [op for op in graph.get_operations() if op._kind in ("read", "assign", "init")]
    assert len(_groups(svg, "edge ref")) == len(uses) + 2  # + minimize's two Variables


def test_edges_point_down_from_a_layer_above():
    svg = _svg(_training_graph())
    for group in _groups(svg, "edge data") + _groups(svg, "edge control") + _groups(svg, "edge ref"):
        numbers = [float(n) for n in re.findall(r"-?\d+\.?\d*", group.find(f"{SVG}path").get("d"))]
        assert numbers[1] < numbers[-1], _title(group)


def test_placeholders_variables_and_ops_are_styled_differently():
    svg = _svg(_training_graph())
    fills = {}
    for kind in ("placeholder", "variable", "op", "state", "group"):
        groups = _groups(svg, f"node {kind}")
        assert groups, kind
        fills[kind] = {(g.find(f"{SVG}rect").get("fill"), g.find(f"{SVG}rect").get("stroke-dasharray"))
                       for g in groups}
        assert len(fills[kind]) == 1
    assert len({next(iter(f)) for f in fills.values()}) == 5


def test_names_are_escaped_and_an_empty_graph_says_so():
    graph = tf.Graph()
    assert "empty Graph" in graph._repr_html_()
    with graph.as_default():
        v1.placeholder(tf.float32, name="<x&y>")
    svg = _svg(graph)  # parses: the name is escaped
    assert [_title(g) for g in _groups(svg, "node placeholder")] == ["<x&y> (Placeholder): placeholder (fed)"]
