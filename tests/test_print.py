"""companion.print: formatting like tf.print, eagerly and at run time of compiled functions."""

import contextlib
import io
import sys

import numpy as np
import pytest

import companion as tf


def test_formats_like_tf_print(capsys):
    tf.print("x:", tf.constant([1, 2, 3]), 5, tf.constant("text"), output_stream=sys.stdout)
    tf.print(tf.range(10), output_stream=sys.stdout)
    tf.print(tf.constant(2.5), {"a": tf.constant([1])}, sep="|", end="!\n", output_stream=sys.stdout)
    assert capsys.readouterr().out.splitlines() == [
        'x: [1 2 3] 5 "text"', "[0 1 2 ... 7 8 9]", "2.5|{'a': [1]}!"]  # TF 2.21 quotes "text" here


def test_floats_and_booleans_print_as_tf_print_writes_them(capsys):
    # TF 2.21's output for each line (its FloatToBuffer: %.6g when it reads back, else %.9g;
    # float64 %.15g / %.17g; booleans as 1 and 0), checked by running the same calls under TF
    tf.print(tf.constant([1 / 3, 2 / 3]), output_stream=sys.stdout)
    tf.print(tf.constant([1 / 3, 2 / 3], dtype=tf.float64), output_stream=sys.stdout)
    tf.print(tf.constant([1e-5, 1e10]), tf.constant([1e-5, 1e10], dtype=tf.float64), output_stream=sys.stdout)
    tf.print(tf.constant([123456789.0, 0.1]), tf.constant([-0.0, -1.5]), output_stream=sys.stdout)
    tf.print(tf.constant([[1.0, 2.5], [3.0, 4.0]]), output_stream=sys.stdout)
    tf.print("loss:", tf.constant(0.123456789), tf.constant(7.0), tf.Variable(3.0), output_stream=sys.stdout)
    out = sys.stdout
    tf.print(tf.range(20.0), tf.constant([True, False]), tf.constant([np.nan, np.inf]), output_stream=out)
    tf.print({"a": tf.constant(1.0)}, [tf.constant(2.0)], tf.constant(2.5, tf.float16), output_stream=out)
    assert capsys.readouterr().out.splitlines() == [
        "[0.333333343 0.666666687]", "[0.33333333333333331 0.66666666666666663]",
        "[1e-05 1e+10] [1e-05 10000000000]", "[123456792 0.1] [-0 -1.5]", "[[1 2.5]", " [3 4]]",
        "loss: 0.123456791 7 3", "[0 1 2 ... 17 18 19] [1 0] [nan inf]", "{'a': 1} [2] 2.5"]


def test_summarize_minus_one_prints_everything(capsys):
    tf.print(tf.range(8), summarize=-1, output_stream=sys.stdout)
    assert capsys.readouterr().out.strip() == "[0 1 2 3 4 5 6 7]"


def test_prints_at_run_time_in_program_order(capsys):
    @tf.function
    def f(x):
        tf.print("before", x, output_stream=sys.stdout)
        y = x * 2
        tf.print("after", y, output_stream=sys.stdout)
        return y

    f(tf.constant(1))
    f(tf.constant(2))
    assert capsys.readouterr().out.splitlines() == ["before 1", "after 2", "before 2", "after 4"]


def test_file_stream(tmp_path):
    path = tmp_path / "log.txt"
    tf.print(np.int32(7), output_stream=f"file://{path}")
    assert path.read_text() == "7\n"


def test_bad_stream():
    with pytest.raises(ValueError, match="output_stream must be sys.stdout, sys.stderr"):
        tf.print(1, output_stream="nowhere")


def test_a_gradient_through_a_function_does_not_print_again(capsys):
    @tf.function
    def f(x):
        tf.print("forward", output_stream=sys.stdout)
        if x > 0:
            tf.print("positive", output_stream=sys.stdout)
        return x * x

    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    assert float(tape.gradient(y, x)) == 6.0
    assert capsys.readouterr().out.split() == ["forward", "positive"]


class _Console:
    """stdout and stderr sharing one screen; stdout is buffered until flushed, like Jupyter's."""

    def __init__(self):
        self.screen, self.pending = [], []
        self.stdout = type("Out", (), {"write": self.pending.append, "flush": self.flush_out})()
        self.stderr = type("Err", (), {"write": self.screen.append, "flush": lambda _: None})()

    def flush_out(self, *_):
        self.screen.extend(self.pending)
        self.pending.clear()


def test_stderr_lines_come_after_what_python_printed_before(monkeypatch):
    console = _Console()
    monkeypatch.setattr(sys, "stdout", console.stdout)
    monkeypatch.setattr(sys, "stderr", console.stderr)

    @tf.function
    def f(x):
        print("Traced with", x)
        tf.print("Executed with", x)

    f(2)
    f(2)
    assert "".join(console.screen).splitlines() == ["Traced with 2", "Executed with 2", "Executed with 2"]


def test_a_call_returns_after_everything_it_prints():
    data = np.random.default_rng(0).normal(size=(64, 512)).astype(np.float32)
    dataset = tf.data.Dataset.from_tensor_slices(data).batch(8)
    weights = tf.Variable(np.eye(512, dtype=np.float32) * 0.5)

    @tf.function
    def work(dataset):
        step = 0
        for batch in dataset:
            step += 1
            y = batch
            for _ in tf.range(50):
                y = tf.tanh(tf.matmul(y, weights))
            weights.assign_add(tf.matmul(y, y, transpose_a=True) * 1e-6)
            tf.print("step", step)
        return step

    counts = []
    for _ in range(3):  # the first call traces and compiles; the others only run
        captured = io.StringIO()
        with contextlib.redirect_stderr(captured):
            work(dataset)  # the result is not read: the call itself must be done printing
            counts.append(len(captured.getvalue().splitlines()))
        weights.numpy()
    assert counts == [8, 8, 8]


def test_strings_print_as_tf_prints_them(capsys):
    # TF 2.21: a lone scalar string as it is; otherwise string elements in double quotes,
    # C-escaped (UTF-8 kept); Python strings inside lists and dicts as their repr
    tf.print(tf.constant("ada"), output_stream=sys.stdout)
    tf.print("x", tf.constant("y"), {"k": tf.constant("v")}, ["b"], output_stream=sys.stdout)
    tf.print(tf.constant(["é", "x"]), tf.constant("it's\\ a\nb"), output_stream=sys.stdout)

    @tf.function
    def show(s):
        tf.print(s, "lit", output_stream=sys.stdout)

    show(tf.constant("z"))
    assert capsys.readouterr().out.splitlines() == [
        "ada", """x "y" {'k': "v"} ['b']""", '["é" "x"] "it\\\'s\\\\ a\\nb"', '"z" lit']


def test_integer_arrays_print_without_padding(capsys):
    # TF 2.21: tf.print pads no column: [0 1 2 ... 17 18 19], [-1 10 100], [[1 22]\n [333 4]]
    tf.print(tf.range(20), output_stream=sys.stdout)
    tf.print(tf.constant([-1, 10, 100]), output_stream=sys.stdout)
    tf.print(tf.constant([[1, 22], [333, 4]], tf.int64), output_stream=sys.stdout)
    assert capsys.readouterr().out == "[0 1 2 ... 17 18 19]\n[-1 10 100]\n[[1 22]\n [333 4]]\n"
    assert tf.strings.format("{}", tf.constant([-1, 10, 100])).numpy() == b"[-1 10 100]"


def test_tuples_and_empty_rows_print_as_tf_print_writes_them(capsys):
    # TF 2.21's output: a one-element tuple keeps its comma; a tensor whose rows hold no element
    # prints "[", a line break per inner dimension, " ...]"; no rows at all is "[]"
    tf.print((3,), [(1, 2)], ((4,),), (), output_stream=sys.stdout)
    for shape in [(2, 0), (0, 2), (2, 0, 3), (2, 3, 0), (0,)]:
        tf.print(tf.ones(shape), output_stream=sys.stdout)
    assert capsys.readouterr().out == "(3,) [(1, 2)] ((4,),) ()\n[\n ...]\n[]\n[\n\n ...]\n[\n\n ...]\n[]\n"


def test_ragged_and_sparse_print_as_tf_print_writes_them(capsys):
    # TF 2.21's output for each line (the sparse one is the text of a Python string, quotes included)
    tf.print(tf.ragged.constant([[1.5, 2.0], [], [3.0]]), tf.ragged.constant([[True], [False]]),
             output_stream=sys.stdout)
    tf.print(tf.ragged.constant([["it's", 'q"']]), tf.ragged.constant([[1]] * 8), output_stream=sys.stdout)
    tf.print(tf.ragged.constant([[1, 2, 3, 4, 5, 6, 7]]), summarize=2, output_stream=sys.stdout)
    tf.print(tf.ragged.constant([[float("nan"), 123456789.0, 1e-8]]), output_stream=sys.stdout)
    tf.print(tf.sparse.SparseTensor([[0, 1], [1, 0]], [5.5, 6.0], [2, 2]), output_stream=sys.stdout)
    tf.print({"s": tf.sparse.SparseTensor([[0]], ["ab"], [3])}, output_stream=sys.stdout)

    @tf.function
    def traced(x):
        tf.print(tf.RaggedTensor.from_row_lengths(x, [2, 1]), output_stream=sys.stdout)
        tf.print(tf.SparseTensor([[0, 0], [0, 2]], x[:2], [1, 3]), output_stream=sys.stdout)

    traced(tf.constant([1.0, 0.0, 3.0]))
    assert capsys.readouterr().out == (
        "[[1.500000, 2.000000], [], [3.000000]] [[true], [false]]\n"
        "[['it\\'s', 'q\"']] [[1], [1], [1], ..., [1], [1], [1]]\n"
        "[[1, 2, ..., 6, 7]]\n"
        "[[nan, 123456792.000000, 0.000000]]\n"
        "'SparseTensor(indices=[[0 1]\n [1 0]], values=[5.5 6], shape=[2 2])'\n"
        "{'s': 'SparseTensor(indices=[[0]], values=[\"ab\"], shape=[3])'}\n"
        "[[1.000000, 0.000000], [3.000000]]\n"
        "'SparseTensor(indices=[[0 0]\n [0 2]], values=[1 0], shape=[1 3])'\n")
