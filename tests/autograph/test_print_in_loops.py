"""Printing inside compiled loops as TF 2.21 does: companion.print on every iteration, Python's print
once per trace (the outputs below are what TF 2.21 printed for the same program)."""

import sys

import companion as tf


def test_print_in_a_staged_for_loop(capsys):
    @tf.function
    def f(n):
        s = tf.constant(0)
        for i in tf.range(n):
            print("py")
            tf.print("tf", i, s, output_stream=sys.stdout)
            s += i
        return s

    assert int(f(tf.constant(3))) == 3
    assert int(f(tf.constant(2))) == 1
    # TF 2.21: "py" once (the trace), then every iteration of both calls
    assert capsys.readouterr().out.splitlines() == ["py", "tf 0 0", "tf 1 0", "tf 2 1", "tf 0 0", "tf 1 0"]
