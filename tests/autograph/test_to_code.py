"""``autograph.to_code`` prints the converted source, the same text in every Python process."""

import os
import subprocess
import sys
import textwrap

import companion as tf

SOURCE = textwrap.dedent('''
    def sum_even(items):
        s = 0
        for c in items:
            if c % 2 > 0:
                continue
            s += c
        return s


    def first_big(x):
        while x > 0:
            y = x - 1
            if y * 2 > 3:
                break
            x = y
        return x
''')


def _to_code_in_a_process(folder, hash_seed):
    script = ("import companion as tf, lab\n"
              "for f in (lab.sum_even, lab.first_big): print(tf.autograph.to_code(f))")
    done = subprocess.run([sys.executable, "-c", script], cwd=folder, capture_output=True, text=True,
                          env={**os.environ, "PYTHONHASHSEED": str(hash_seed)}, timeout=120, check=True)
    return done.stdout


def test_to_code_does_not_depend_on_string_hashing(tmp_path):
    (tmp_path / "lab.py").write_text(SOURCE)
    outputs = {_to_code_in_a_process(tmp_path, seed) for seed in (1, 2, 3, 4)}
    assert len(outputs) == 1
    text = outputs.pop()
    for line in text.splitlines():
        if line.strip().startswith("nonlocal "):
            names = line.strip()[len("nonlocal "):].split(", ")
            assert names == sorted(names), line
    assert text.index("c = ag__.Undefined('c')") < text.index("continue_ = ag__.Undefined('continue_')")


def test_to_code_shows_the_converted_control_flow():
    def sign(x):
        if x > 0:
            return "Positive"
        return "Negative or zero"

    code = tf.autograph.to_code(sign)
    assert code.startswith("def tf__sign(x):")  # TF's name
    assert "ag__.if_stmt(ag__.ld(x) > 0, if_body, else_body, get_state, set_state" in code
    assert "('do_return', 'retval_')" in code
