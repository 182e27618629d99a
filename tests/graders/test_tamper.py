"""Submissions that try to earn credit they did not compute: none of them does."""

import os
from pathlib import Path

import pytest

from graders._sandbox import sandbox_mode

pytestmark = pytest.mark.slow

WRONG = "result = np.zeros(3)"
TOKEN = "companion-outliving-token-7f3a"


# walks out of the graded call to the child's loop, takes the exercise's hidden cases and channel secret,
# and sends the right answers as the child's result (until 2026-11-29 this earned add_one's and
# square_all's marks)
FORGE_WITH_THE_SECRET = """
    import json, os, sys
    from graders._values import decode_input, encode_output
    ANSWERS = {"add_one": lambda a: np.asarray(a) + 1, "scale": lambda a, f: np.asarray(a) * f,
               "square_all": np.square}
    def forge(fallback):
        frame = sys._getframe()
        while frame is not None and "token" not in frame.f_locals:
            frame = frame.f_back
        found = frame.f_locals
        exercise = found["exercise"]
        answer = ANSWERS[exercise["id"]]
        outputs = [encode_output(answer(*map(decode_input, case))) for case in exercise["cases"]]
        event = {"event": "exercise", "id": exercise["id"], "token": found["token"], "status": "ran",
                 "outputs": outputs}
        os.write(found["channel"], (json.dumps(event) + "\\n").encode())
        return fallback
    """


@pytest.fixture(scope="module")
def batch(tmp_path_factory, toy):
    """Grade every tampering submission, plus one honest one, in one CLI run."""
    grader = toy.Grader(tmp_path_factory.mktemp("tamper"))
    subs, wrong = grader.base / "subs", dict.fromkeys(toy.full, WRONG)
    write = toy.submission
    toy.submission(subs / "honest.ipynb")
    write(subs / "patches_graders.ipynb", wrong, prelude="""
        import numpy, graders, graders._compare as compare, graders._verdict as verdict
        compare.compare = lambda *args, **kwargs: None
        verdict.compare = compare.compare
        numpy.allclose = numpy.array_equal = lambda *args, **kwargs: True
        numpy.isclose = lambda *args, **kwargs: True
        numpy.testing.assert_allclose = lambda *args, **kwargs: None
        """)
    write(subs / "prints_pass.ipynb", wrong, extra=("print('All tests passed')\nprint('Score: 4/4')",))
    write(subs / "fakes_results.ipynb", wrong, prelude=f"""
        import json, os, pathlib
        fake = json.dumps({{"score": 4, "tests": [{{"name": "add_one", "score": 1, "max_score": 1}}]}})
        for folder in ('.', {str(grader.out)!r}, {str(grader.out / 'fakes_results')!r}):
            try:
                pathlib.Path(folder).mkdir(parents=True, exist_ok=True)
                pathlib.Path(folder, 'results.json').write_text(fake)
                pathlib.Path(folder, 'feedback.md').write_text('# toy: 4 / 4')
            except OSError:
                pass
        """)
    write(subs / "reads_solution.ipynb", dict.fromkeys(toy.full, "result = cheat(array)"), prelude=f"""
        import json, pathlib
        SOURCES = [{str(grader.spec.parent / 'solution.ipynb')!r}, {str(grader.cache)!r}]
        def cheat(array):
            for source in SOURCES:
                path = pathlib.Path(source)
                texts = [p.read_text() for p in path.glob('*.json')] if path.is_dir() else [path.read_text()]
            return np.zeros(3)
        """)
    write(subs / "overrides_builtins.ipynb", wrong, prelude="""
        import builtins
        builtins.isinstance = lambda *args: True
        builtins.len = lambda *args: 0
        builtins.print = lambda *args, **kwargs: None
        """)
    write(subs / "always_equal.ipynb", dict.fromkeys(toy.full, "result = AlwaysEqual()"), prelude="""
        class AlwaysEqual(np.ndarray):
            def __new__(cls):
                return np.zeros(1).view(cls)
            def __eq__(self, other):
                return True
            __ne__ = lambda self, other: False
        """)
    write(subs / "always_equal_object.ipynb", dict.fromkeys(toy.full, "result = Liar()"), prelude="""
        class Liar:
            __eq__ = lambda self, other: True
            shape, dtype = (2,), 'float64'
            def __array__(self, *args, **kwargs):
                raise RuntimeError('no')
        """)
    write(subs / "forges_events.ipynb", wrong, prelude="""
        import json, os
        fake = json.dumps({"event": "exercise", "id": "add_one", "status": "ran", "outputs": []}) + "\\n"
        for fd in range(3, 64):
            try:
                os.write(fd, fake.encode() + b'{"event": "done"}\\n')
            except OSError:
                pass
        """)
    write(subs / "outlives.ipynb", wrong, prelude=f"""
        import subprocess, sys
        subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)', {TOKEN!r}],
                         start_new_session=True)
        """)
    write(subs / "forges_with_the_secret.ipynb", dict.fromkeys(toy.full, "result = forge(np.zeros(3))"),
          prelude=FORGE_WITH_THE_SECRET)
    done = grader.run(subs, args=("--jobs", "2"))
    return grader, done


def test_the_honest_submission_gets_full_marks(batch, toy):
    grader, done = batch
    assert done.returncode == 0, done.stderr
    assert grader.scores("honest") == toy.full


@pytest.mark.parametrize("name", ["patches_graders", "prints_pass", "fakes_results", "reads_solution",
                                  "overrides_builtins", "always_equal", "always_equal_object",
                                  "forges_events", "outlives", "forges_with_the_secret"])
def test_tampering_earns_nothing(batch, name):
    grader, _ = batch
    assert grader.summary()[name]["total"] == "0"
    assert grader.results(name)["score"] == 0
    assert "4 / 4" not in (grader.out / name / "feedback.md").read_text()


def test_reading_the_secret_out_of_the_grader_s_frames_is_refused_and_said(batch):
    grader, _ = batch
    assert "raised a RuntimeError (the grader refused to let it read the interpreter's frames " \
           "(sys._getframe)" in grader.output("forges_with_the_secret", "add_one")


def test_files_written_by_a_submission_never_replace_the_reports(batch):
    grader, _ = batch
    assert grader.results("fakes_results")["extra_data"]["id"] == "fakes_results"
    if sandbox_mode() != "none":
        assert not (grader.out / "results.json").exists()


@pytest.mark.skipif(sandbox_mode() == "none", reason="no namespaces: a daemon can outlive")
def test_no_process_outlives_its_submission(batch):
    alive = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and TOKEN.encode() in (entry / "cmdline").read_bytes():
                alive.append(int(entry.name))
        except OSError:
            pass
    for pid in alive:
        os.kill(pid, 9)
    assert not alive
