"""Every notebook in solutions/ and labs/ opens in JupyterLab with nothing to rewrite or fail to render.

Checks the committed notebooks (valid nbformat 4.5, the course kernel's kernelspec, no widget state
or widget views, unique ids that labs share with their solutions) and that `companion-labs build`
and `clean_notebook` produce that form.
"""

import copy
import json
from pathlib import Path

import pytest

from graders._clean import KERNELSPEC, WIDGET_VIEW, clean_notebook, problems
from graders._labs import build, lab_text, out_of_sync

nbformat = pytest.importorskip("nbformat")

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted(path for folder in ("solutions", "labs") for path in (ROOT / folder).rglob("*.ipynb")
                   if ".ipynb_checkpoints" not in path.parts)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: str(path.relative_to(ROOT)))
def test_the_notebook_is_valid_and_opens_clean(path):
    notebook = nbformat.read(path, as_version=4)
    nbformat.validate(notebook)  # raises ValidationError, e.g. for a duplicate or malformed cell id
    assert problems(json.loads(path.read_text())) == []
    assert lab_text(clean_notebook(json.loads(path.read_text()))) == path.read_text(), (
        f"{path.relative_to(ROOT)} is not in the form companion-labs build writes")


@pytest.mark.parametrize("lab", [path for path in NOTEBOOKS if path.is_relative_to(ROOT / "labs")],
                         ids=lambda path: str(path.relative_to(ROOT)))
def test_a_lab_keeps_its_solutions_cell_ids(lab):
    solution = ROOT / "solutions" / lab.relative_to(ROOT / "labs")
    if not solution.exists():
        pytest.skip(f"no solution for {lab.name} (a stale lab, which the in-sync test reports)")
    ids = [cell["id"] for cell in json.loads(lab.read_text())["cells"]]
    assert ids == [cell["id"] for cell in json.loads(solution.read_text())["cells"]]


def _unclean() -> dict:
    view = {"output_type": "display_data", "metadata": {},
            "data": {WIDGET_VIEW: {"model_id": "ab" * 16, "version_major": 2, "version_minor": 0},
                     "text/plain": "IntSlider(value=3)"}}
    only_view = {"output_type": "display_data", "metadata": {},
                 "data": {WIDGET_VIEW: {"model_id": "cd" * 16, "version_major": 2, "version_minor": 0}}}
    text = {"output_type": "stream", "name": "stdout", "text": "3\n"}
    return {"nbformat": 4, "nbformat_minor": 4,
            "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
                         "widgets": {"application/vnd.jupyter.widget-state+json": {"state": {}}}},
            "cells": [{"cell_type": "code", "id": "w-01", "metadata": {}, "source": "slider",
                       "execution_count": 1, "outputs": [view, only_view, text]}]}


def test_clean_notebook_strips_widget_state_and_views_and_sets_the_kernelspec():
    unclean = _unclean()
    before = copy.deepcopy(unclean)
    assert len(problems(unclean)) == 4
    clean = clean_notebook(unclean)
    assert unclean == before  # the input is not changed
    assert problems(clean) == [] and clean_notebook(clean) == clean
    assert clean["metadata"]["kernelspec"] == KERNELSPEC and "widgets" not in clean["metadata"]
    outputs = clean["cells"][0]["outputs"]
    slider_text = {"output_type": "display_data", "metadata": {},
                   "data": {"text/plain": "IntSlider(value=3)"}}
    assert outputs == [slider_text, {"output_type": "stream", "name": "stdout", "text": "3\n"}]
    nbformat.validate(nbformat.from_dict(clean))


def test_build_cleans_a_solution_and_check_mode_reports_one_that_is_not(tmp_path):
    solutions, labs = tmp_path / "solutions", tmp_path / "labs"
    solutions.mkdir()
    (solutions / "A.ipynb").write_text(json.dumps(_unclean()))
    assert out_of_sync(solutions, labs) == [solutions / "A.ipynb", labs / "A.ipynb"]
    assert build(solutions, labs) == [solutions / "A.ipynb", labs / "A.ipynb"]
    assert problems(json.loads((solutions / "A.ipynb").read_text())) == []
    assert json.loads((solutions / "A.ipynb").read_text())["cells"][0]["outputs"][-1]["text"] == "3\n"
    assert problems(json.loads((labs / "A.ipynb").read_text())) == []
    assert out_of_sync(solutions, labs) == [] and build(solutions, labs) == []
