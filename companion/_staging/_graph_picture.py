"""A TF1 `Graph` as a picture: an inline SVG of its nodes in topological layers (`Graph._repr_html_`).

Every `Operation` is a box showing its type and name; the Variables the graph reads or writes
are boxes of their own (TF's ``VarHandleOp``). Edges go from a node to the nodes that use it,
top to bottom: a solid arrow per data input (its tooltip names the tensor, its shape and dtype),
a dotted one from a Variable to the ops that read or write it, a dashed one per control
dependency (``group``, ``global_variables_initializer``). Nodes sit in layers: a node is one
layer below the lowest node it depends on, so a graph reads in the order it would run.
Within a layer, nodes are ordered by the mean position of their inputs to keep edges short.

No dependency: the SVG is written by hand, styled with attributes only (no ``<style>``, no ids),
so several graphs render side by side in a notebook, and in viewers that strip stylesheets.
"""

import html

_WIDTH, _HEIGHT, _GAP_X, _GAP_Y, _MARGIN, _LEGEND = 156, 40, 26, 46, 12, 30
_MAX_CHARS = 22

# kind -> (legend label, fill, stroke, stroke-dasharray, corner radius)
_STYLES = {
    "placeholder": ("placeholder (fed)", "#dbeafe", "#1d4ed8", "", 18),
    "variable": ("Variable", "#fde68a", "#b45309", "", 4),
    "const": ("constant", "#f3f4f6", "#6b7280", "", 4),
    "op": ("op", "#ffffff", "#374151", "", 4),
    "state": ("writes a Variable", "#fee2e2", "#b91c1c", "", 4),
    "group": ("group (NoOp)", "#f3f4f6", "#6b7280", "4 3", 4),
}
_KIND_STYLE = {"placeholder": "placeholder", "const": "const", "op": "op", "read": "op", "assign": "state",
               "init": "state", "minimize": "state", "group": "group", "variable": "variable"}
# edge kind -> (stroke, dash, width)
_EDGES = {"data": ("#374151", "", 1.3), "ref": ("#b45309", "2 3", 1.2), "control": ("#6b7280", "6 4", 1.1)}


def graph_html(graph) -> str:
    """HTML showing ``graph`` as an SVG drawing (what a notebook displays for a `Graph`)."""
    nodes, edges = _nodes_and_edges(graph)
    if not nodes:
        return "<div><em>An empty Graph: no operations recorded yet.</em></div>"
    positions, width, height = _layout(nodes, edges)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif" class="companion-graph">',
             _legend()]
    ports = _ports(edges, positions)
    parts += [_edge_svg(edge, positions, ports[i]) for i, edge in enumerate(edges)]
    parts += [_node_svg(node, positions[node["name"]]) for node in nodes]
    parts.append("</svg>")
    caption = (f"Graph: {sum(n['kind'] != 'variable' for n in nodes)} operations, "
               f"{sum(n['kind'] == 'variable' for n in nodes)} Variables")
    return (f'<div style="overflow-x:auto"><div style="font:12px sans-serif;color:#555">{caption}</div>'
            + "".join(parts) + "</div>")


def _nodes_and_edges(graph):
    """Nodes (dicts: name, type, kind, order) and edges (source name, target name, kind, tooltip)."""
    nodes, edges, variables = [], [], {}
    for operation in graph.get_operations():
        nodes.append({"name": operation.name, "type": operation.type, "kind": operation._kind})
        for tensor in operation.inputs:
            edges.append((tensor.op.name, operation.name, "data",
                          f"{tensor.name}: shape {tensor.shape}, {tensor.dtype.name}"))
        for dependency in operation.control_inputs:
            edges.append((dependency.name, operation.name, "control",
                          f"control: {dependency.name} runs first"))
        details = operation._details
        touched = list(details.get("variables", ())) + [details.get("variable"), details.get("global_step")]
        for var in touched:
            if var is None:
                continue
            if var._op_name not in variables:
                variables[var._op_name] = {"name": var._op_name, "type": "VarHandleOp", "kind": "variable"}
            verb = "reads" if operation._kind == "read" else "writes"
            edges.append((var._op_name, operation.name, "ref", f"{operation.name} {verb} {var.name}"))
    return list(variables.values()) + nodes, edges


def _layout(nodes, edges):
    """Positions {name: (x, y)} of the nodes' top-left corners, and the drawing's width and height."""
    order = {node["name"]: i for i, node in enumerate(nodes)}
    sources = {node["name"]: [] for node in nodes}
    for source, target, _, _ in edges:
        sources[target].append(source)
    layer = {}
    for node in nodes:  # ops are recorded after their inputs; Variables come first
        layer[node["name"]] = 1 + max((layer.get(s, 0) for s in sources[node["name"]]), default=-1)
    rows = {}
    for name in sorted(layer, key=order.get):
        rows.setdefault(layer[name], []).append(name)
    column = {}
    for depth in sorted(rows):
        names = rows[depth]
        names.sort(key=lambda n: (_mean([column[s] for s in sources[n] if s in column], order[n]), order[n]))
        for i, name in enumerate(names):
            column[name] = i
    widest = max(len(names) for names in rows.values())
    width = max(2 * _MARGIN + widest * _WIDTH + (widest - 1) * _GAP_X, _legend_width())
    positions = {}
    for depth, names in rows.items():
        offset = (widest - len(names)) * (_WIDTH + _GAP_X) / 2  # centre each layer
        for i, name in enumerate(names):
            positions[name] = (_MARGIN + offset + i * (_WIDTH + _GAP_X),
                               _LEGEND + _MARGIN + depth * (_HEIGHT + _GAP_Y))
    height = _LEGEND + 2 * _MARGIN + len(rows) * _HEIGHT + (len(rows) - 1) * _GAP_Y
    return positions, int(width), int(height)


def _mean(values, default):
    return sum(values) / len(values) if values else default


def _legend_width():
    return _MARGIN + sum(_legend_step(label) for label, *_ in _STYLES.values())


def _legend_step(label):
    return 30 + 6.2 * len(label)


def _legend():
    parts, x = [], _MARGIN
    for label, fill, stroke, dash, radius in _STYLES.values():
        parts.append(f'<rect x="{x}" y="{_MARGIN - 2}" width="16" height="12" rx="{min(radius, 6)}" '
                     f'fill="{fill}" stroke="{stroke}" stroke-dasharray="{dash}"/>'
                     f'<text x="{x + 21}" y="{_MARGIN + 8}" font-size="11" fill="#333">{label}</text>')
        x += _legend_step(label)
    return '<g class="legend">' + "".join(parts) + "</g>"


def _node_svg(node, position):
    x, y = position
    label, fill, stroke, dash, radius = _STYLES[_KIND_STYLE.get(node["kind"], "op")]
    name, op_type = html.escape(node["name"]), html.escape(node["type"])
    centre = x + _WIDTH / 2
    style = _KIND_STYLE.get(node["kind"], "op")
    return (f'<g class="node {style}"><title>{name} ({op_type}): {label}</title>'
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{_WIDTH}" height="{_HEIGHT}" rx="{radius}" fill="{fill}" '
            f'stroke="{stroke}" stroke-width="1.4" stroke-dasharray="{dash}"/>'
            f'<text x="{centre:.1f}" y="{y + 16:.1f}" font-size="12" font-weight="bold" text-anchor="middle" '
            f'fill="#111">{html.escape(_short(node["type"]))}</text>'
            f'<text x="{centre:.1f}" y="{y + 32:.1f}" font-size="11" text-anchor="middle" '
            f'fill="#444">{html.escape(_short(node["name"]))}</text></g>')


def _ports(edges, positions):
    """Per edge, the x offsets of its two ends within their boxes: a node's edges spread over its
    bottom (outgoing, ordered by target) and top (incoming, ordered by source) sides."""
    ends = [[0.0, 0.0] for _ in edges]
    for side, mine, other in ((0, 0, 1), (1, 1, 0)):
        by_node = {}
        for i, edge in enumerate(edges):
            by_node.setdefault(edge[mine], []).append(i)
        for indices in by_node.values():
            indices.sort(key=lambda i: positions[edges[i][other]][0])
            for rank, i in enumerate(indices):
                ends[i][side] = _WIDTH * (rank + 1) / (len(indices) + 1)
    return ends


def _edge_svg(edge, positions, ports):
    source, target, kind, tooltip = edge
    (x1, y1), (x2, y2) = positions[source], positions[target]
    x1, y1, x2, y2 = x1 + ports[0], y1 + _HEIGHT, x2 + ports[1], y2
    bend = max(_GAP_Y / 2, (y2 - y1) / 2)
    stroke, dash, width = _EDGES[kind]
    arrow = f"{x2:.1f},{y2:.1f} {x2 - 4:.1f},{y2 - 8:.1f} {x2 + 4:.1f},{y2 - 8:.1f}"
    return (f'<g class="edge {kind}"><title>{html.escape(tooltip)}</title>'
            f'<path d="M{x1:.1f},{y1:.1f} C{x1:.1f},{y1 + bend:.1f} {x2:.1f},{y2 - bend:.1f} '
            f'{x2:.1f},{y2 - 7:.1f}" '
            f'fill="none" stroke="{stroke}" stroke-width="{width}" stroke-dasharray="{dash}"/>'
            f'<polygon points="{arrow}" fill="{stroke}"/></g>')


def _short(text):
    return text if len(text) <= _MAX_CHARS else text[:_MAX_CHARS - 1] + "…"
