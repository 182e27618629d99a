"""Notebooks that open clean in JupyterLab: nothing for it to rewrite, nothing it cannot render.

JupyterLab marks a notebook as changed when opening it makes it rewrite something: a kernelspec
other than the kernel it starts (`python3`, "Python 3 (ipykernel)"), a missing cell id (nbformat
4.5 adds them). Outputs of ipywidgets controls are views of models that live in the kernel that
made them; saved without that state they show "Error displaying widget: model not found" until
the cell runs again. So a clean notebook has the kernelspec of the course's kernel, no stored
widget state, no widget views in its outputs (their text fallback stays), and a stable, unique
id on every cell. `companion-labs build` and `refresh` write notebooks in this form.
"""

from __future__ import annotations

import copy

KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
NBFORMAT = (4, 5)


def clean_notebook(notebook: dict) -> dict:
    """A copy of `notebook` that opens clean (the input is not changed); see the module docstring."""
    notebook = copy.deepcopy(notebook)
    notebook["nbformat"], notebook["nbformat_minor"] = NBFORMAT
    metadata = notebook.setdefault("metadata", {})
    metadata["kernelspec"] = dict(KERNELSPEC)
    if not isinstance(metadata.get("language_info"), dict):
        metadata["language_info"] = {"name": "python"}
    metadata.pop("widgets", None)
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") == "code":
            cell["outputs"] = [output for output in map(_without_widget_views, cell.get("outputs", []))
                               if output is not None]
    return notebook


def problems(notebook: dict) -> list[str]:
    """Why `notebook` would not open clean (an empty list when it would)."""
    found = []
    if (notebook.get("nbformat"), notebook.get("nbformat_minor")) < NBFORMAT:
        found.append(f"nbformat {notebook.get('nbformat')}.{notebook.get('nbformat_minor')} "
                     f"(expected {NBFORMAT[0]}.{NBFORMAT[1]}, which has cell ids)")
    metadata = notebook.get("metadata", {})
    if metadata.get("kernelspec") != KERNELSPEC:
        found.append(f"kernelspec {metadata.get('kernelspec')} (expected {KERNELSPEC})")
    if "widgets" in metadata:
        found.append("stored widget state in metadata.widgets")
    ids = [cell.get("id") for cell in notebook.get("cells", [])]
    if not all(isinstance(cell_id, str) and cell_id for cell_id in ids):
        found.append("a cell without an id")
    elif len(set(ids)) != len(ids):
        found.append("cell ids that are not unique")
    views = sum(WIDGET_VIEW in output.get("data", {}) for cell in notebook.get("cells", [])
                for output in cell.get("outputs", []))
    if views:
        found.append(f"{views} widget view output(s) that cannot render before the cell runs again")
    return found


def _without_widget_views(output: dict) -> dict | None:
    data = output.get("data")
    if not isinstance(data, dict) or WIDGET_VIEW not in data:
        return output
    output = dict(output, data={key: value for key, value in data.items() if key != WIDGET_VIEW})
    return output if output["data"] else None
