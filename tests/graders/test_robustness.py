"""Broken submissions, graded in one batch through the CLI: each loses only what it broke."""

import os

import pytest

pytestmark = pytest.mark.slow

PRINT_MB = "print('x' * 1_000_000)\nfor _ in range(20):\n    print('y' * 1_000_000)\n"
MMAP_HOG = """
import mmap
chunk = b"x" * 2**24
block = mmap.mmap(-1, 4 * 2**30)  # shared memory: not counted by RLIMIT_DATA, so the RSS watchdog acts
for offset in range(0, 4 * 2**30, 2**24):
    block[offset:offset + 2**24] = chunk
result = None
"""


@pytest.fixture(scope="module")
def batch(tmp_path_factory, toy):
    """Grade every broken submission in one CLI run (module-scoped: it takes a while)."""
    submission, source, notebook = toy.submission, toy.graded_source, toy.notebook
    grader = toy.Grader(tmp_path_factory.mktemp("robust"))
    subs = grader.base / "subs"
    submission(subs / "good.ipynb")
    (subs / "not_json.ipynb").write_text("{ this is not JSON")
    (subs / "not_a_notebook.ipynb").write_text('{"cells": 3}')
    submission(subs / "deleted.ipynb", skip=("add_one",))
    notebook(subs / "duplicated.ipynb", ["import numpy as np", (source("add_one"), "add_one", None),
             (source("scale"), "scale", None), (source("scale"), "scale", None),
             (source("square_all"), "square_all", None)])
    notebook(subs / "retagged.ipynb", ["import numpy as np", (source("add_one"), "add_one", None),
             (source("scale"), "scale", None), (source("square_all"), "square_all", [])])
    renamed = source("add_one", function="add_uno")
    notebook(subs / "renamed.ipynb", ["import numpy as np", (renamed, "add_one", None),
             (source("scale"), "scale", None), (source("square_all"), "square_all", None)])
    submission(subs / "raises.ipynb", {"add_one": "raise ValueError('my bug')"})
    submission(subs / "loops.ipynb", {"scale": "while True:\n    pass"})
    submission(subs / "cell_loops.ipynb", extra=("while True:\n    pass",))
    submission(subs / "memory.ipynb", {"add_one": "blob = bytearray(50 * 2**30)\nresult = None"})
    submission(subs / "memory_rss.ipynb", {"add_one": MMAP_HOG})
    submission(subs / "exits.ipynb", {"add_one": "import sys\nsys.exit(0)",
                                      "scale": "import os\nos._exit(3)"})
    submission(subs / "cell_exit.ipynb", extra=("import sys\nsys.exit('bye')",))
    submission(subs / "kills.ipynb", {"add_one": "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)"})
    submission(subs / "prints.ipynb", {"add_one": "print('z' * 3_000_000)\nresult = np.asarray(array) + 1"},
               extra=(PRINT_MB,))
    submission(subs / "litter.ipynb", prelude="""
        import os, pathlib
        for folder in ('.', os.environ.get('HOME', '.'), '/tmp'):
            try:
                pathlib.Path(folder, 'litter-from-submission.txt').write_text('x' * 1000)
            except OSError:
                pass
        """)
    submission(subs / "surrogate.ipynb", extra=("raise ValueError('lone \\ud800 surrogate')",))
    submission(subs / os.fsdecode(b"caf\xff.ipynb"))  # a file name that is not UTF-8
    limits = ("--timeout", "8", "--exercise-timeout", "8", "--memory", "1024")
    done = grader.run(subs, args=("--jobs", "2", *limits))
    return grader, done


def test_the_batch_finishes_and_summarises_every_submission(batch):
    grader, done = batch
    assert done.returncode == 0, done.stderr
    assert len(grader.summary()) == 19
    assert grader.summary()["good"]["total"] == "4"


@pytest.mark.parametrize("name, zero, reason", [
    ("deleted", "add_one", "missing"),
    ("duplicated", "scale", "keep only one"),
    ("retagged", "square_all", "`graded` tag"),
    ("renamed", "add_one", "add_uno"),
    ("raises", "add_one", "raised a ValueError"),
    ("loops", "scale", "time limit"),
    ("memory", "add_one", "MemoryError"),
    ("memory_rss", "add_one", "memory limit"),
    ("exits", "add_one", "raised a SystemExit"),
    ("exits", "scale", "exited with code 3"),
])
def test_a_broken_exercise_scores_zero_with_a_reason_and_the_others_full(batch, toy, name, zero, reason):
    grader, _ = batch
    scores = grader.scores(name)
    assert scores[zero] == 0
    assert reason in grader.output(name, zero)
    broken = {"exits": {"add_one", "scale"}}.get(name, {zero})
    assert {key: value for key, value in scores.items() if key not in broken} == \
        {key: value for key, value in toy.full.items() if key not in broken}


@pytest.mark.parametrize("name", ["not_json", "not_a_notebook"])
def test_an_unreadable_file_scores_zero_as_an_invalid_notebook(batch, name):
    grader, _ = batch
    assert grader.summary()[name]["status"] == "invalid notebook"
    assert grader.summary()[name]["total"] == "0"
    assert "not" in grader.output(name, "add_one") and "notebook" in grader.output(name, "add_one")


def test_a_cell_that_loops_forever_is_stopped_and_earlier_functions_are_graded(batch, toy):
    grader, _ = batch
    assert grader.scores("cell_loops") == toy.full
    assert "time limit" in grader.results("cell_loops")["output"]


@pytest.mark.parametrize("name", ["cell_exit", "prints", "litter", "kills", "surrogate", "caf-"])
def test_harmless_mischief_in_cells_costs_nothing_it_did_not_break(batch, toy, name):
    grader, _ = batch
    expected = dict(toy.full, add_one=0.0) if name == "kills" else toy.full
    assert grader.scores(name) == expected


def test_megabytes_of_output_are_cut_in_the_log(batch):
    grader, _ = batch
    log = (grader.out / "prints" / "log.txt").read_text()
    assert len(log) < 100_000 and "earlier bytes of output not kept" in log


def test_nothing_is_left_behind(batch):
    grader, _ = batch
    from graders._sandbox import sandbox_mode

    if sandbox_mode() != "none":
        assert not (grader.base / "subs" / "litter-from-submission.txt").exists()
        assert not list(grader.base.parent.glob("litter-from-submission.txt"))
