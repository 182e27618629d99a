"""Building labs from solutions: outputs cleared, metadata normalised, idempotent, --check catches drift."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from graders._errors import NotebookFormatError
from graders._labs import build, lab_notebook, out_of_sync

ROOT = Path(__file__).resolve().parents[2]


def solution_notebook(path: Path) -> Path:
    cells = [
        {"cell_type": "markdown", "metadata": {"collapsed": True}, "source": "# Title", "id": "md1"},
        {"cell_type": "code", "execution_count": 3, "id": "c1", "source": "import numpy as np",
         "metadata": {"scrolled": True, "ExecuteTime": {"end": "2024"}},
         "outputs": [{"output_type": "stream", "name": "stdout", "text": "0x7f3a"}]},
        {"cell_type": "code", "execution_count": 4, "id": "c2",
         "metadata": {"tags": ["graded"], "companion": {"exercise": "f"}},
         "source": ["def f(x):\n", "    ### START CODE HERE ###\n", "    y = x * 41 + 1\n",
                    "    ### END CODE HERE ###\n", "    return y\n"], "outputs": []},
    ]
    document = {"cells": cells, "nbformat": 4, "nbformat_minor": 5,
                "metadata": {"kernelspec": {"name": "other", "display_name": "X"}, "widgets": {"state": {}}}}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document))
    return path


def labs_cli(*args):
    return subprocess.run([sys.executable, "-m", "graders", "build", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)


def test_a_lab_has_placeholders_no_outputs_and_normalised_metadata(tmp_path):
    solution = json.loads(solution_notebook(tmp_path / "s.ipynb").read_text())
    lab = lab_notebook(solution)
    code = [cell for cell in lab["cells"] if cell["cell_type"] == "code"]
    assert all(cell["outputs"] == [] and cell["execution_count"] is None for cell in code)
    assert code[0]["metadata"] == {}
    assert code[1]["metadata"] == {"tags": ["graded"], "companion": {"exercise": "f"}}
    assert "y = None  # YOUR CODE HERE" in code[1]["source"] and "41" not in code[1]["source"]
    assert lab["metadata"]["kernelspec"]["name"] == "python3" and "widgets" not in lab["metadata"]
    assert [cell["id"] for cell in lab["cells"]] == ["md1", "c1", "c2"]


def test_build_is_idempotent_and_deterministic(tmp_path):
    solution_notebook(tmp_path / "solutions" / "week9" / "Lab.ipynb")
    solution, lab = tmp_path / "solutions" / "week9" / "Lab.ipynb", tmp_path / "labs" / "week9" / "Lab.ipynb"
    assert build(tmp_path / "solutions", tmp_path / "labs") == [solution, lab]  # the solution is cleaned too
    first = (tmp_path / "labs" / "week9" / "Lab.ipynb").read_bytes()
    assert build(tmp_path / "solutions", tmp_path / "labs") == []
    (tmp_path / "labs" / "week9" / "Lab.ipynb").unlink()
    build(tmp_path / "solutions", tmp_path / "labs")
    assert (tmp_path / "labs" / "week9" / "Lab.ipynb").read_bytes() == first
    import nbformat

    nbformat.validate(nbformat.reads(first.decode(), as_version=4))


def test_check_reports_edited_missing_and_stale_labs(tmp_path):
    solutions, labs = tmp_path / "solutions", tmp_path / "labs"
    solution_notebook(solutions / "A.ipynb")
    solution_notebook(solutions / "B.ipynb")
    build(solutions, labs)
    (labs / "A.ipynb").write_text((labs / "A.ipynb").read_text().replace("Title", "Edited"))
    (labs / "B.ipynb").unlink()
    (labs / "Old.ipynb").write_text("{}")
    assert sorted(path.name for path in out_of_sync(solutions, labs)) == ["A.ipynb", "B.ipynb", "Old.ipynb"]
    build(solutions, labs)
    assert out_of_sync(solutions, labs) == [] and not (labs / "Old.ipynb").exists()


def test_the_cli_check_mode_exits_non_zero_when_out_of_sync(tmp_path):
    solution_notebook(tmp_path / "solutions" / "A.ipynb")
    paths = ("--solutions", str(tmp_path / "solutions"), "--labs", str(tmp_path / "labs"))
    done = labs_cli("--check", *paths)
    assert done.returncode == 1 and "out of sync" in done.stderr and "companion-labs build" in done.stderr
    assert labs_cli(*paths).returncode == 0
    assert labs_cli("--check", *paths).returncode == 0


def test_a_graded_cell_without_a_region_is_an_error(tmp_path):
    solution = json.loads(solution_notebook(tmp_path / "s.ipynb").read_text())
    solution["cells"][2]["source"] = "def f(x):\n    return x\n"
    with pytest.raises(NotebookFormatError, match="no `### START CODE HERE ###` region"):
        lab_notebook(solution)


def test_a_lab_someone_ran_or_edited_is_backed_up_before_the_build_replaces_it(tmp_path):
    solutions, labs, backups = tmp_path / "solutions", tmp_path / "labs", tmp_path / "backups"
    solution_notebook(solutions / "A.ipynb")
    solution_notebook(solutions / "B.ipynb")
    build(solutions, labs)
    saved = json.loads((labs / "A.ipynb").read_text())
    saved["cells"][2]["source"] = "def f(x):\n    return x * 41 + 1  # my answer\n"
    saved["cells"][2]["execution_count"] = 7
    (labs / "A.ipynb").write_text(json.dumps(saved))
    (labs / "B.ipynb").write_text((labs / "B.ipynb").read_text().replace("Title", "Retitled"))
    changed = build(solutions, labs, backups=backups)
    assert sorted(path.name for path in changed) == ["A.ipynb", "B.ipynb"]
    assert "my answer" in (backups / "A.ipynb").read_text()   # run by a learner: kept
    assert not (backups / "B.ipynb").exists()                  # only regenerated text differed
    assert out_of_sync(solutions, labs) == []
