"""`quietly`: re-staging runs print nothing, on their own thread only, and overlapping runs on
two threads leave ``sys.stdout`` as it was (``contextlib.redirect_stdout`` loses later output)."""

import sys
import threading

from companion._staging._quietly import quietly


def test_quiet_runs_on_two_threads_drop_only_their_own_prints(capsys):
    stdout = sys.stdout
    a_in, b_in, a_go, b_go = (threading.Event() for _ in range(4))

    def quiet(entered, go, label):
        def run():
            print(label, "hidden")
            entered.set()
            go.wait(5)
            print(label, "hidden too")
            return label
        return quietly(run)

    results = []
    a = threading.Thread(target=lambda: results.append(quiet(a_in, a_go, "a")))
    b = threading.Thread(target=lambda: results.append(quiet(b_in, b_go, "b")))
    a.start()
    a_in.wait(5)
    b.start()
    b_in.wait(5)
    print("main while both are quiet")
    a_go.set()  # a ends first: b's block is still open
    a.join(5)
    print("main while b is quiet")
    b_go.set()
    b.join(5)
    print("main after")
    assert sorted(results) == ["a", "b"]
    assert sys.stdout is stdout
    assert capsys.readouterr().out == "main while both are quiet\nmain while b is quiet\nmain after\n"


def test_quietly_returns_and_raises_like_the_run(capsys):
    assert quietly(lambda: print("x") or 3) == 3
    try:
        quietly(lambda: 1 / 0)
    except ZeroDivisionError:
        pass
    print("shown")
    assert capsys.readouterr().out == "shown\n"
