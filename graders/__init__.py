"""Assignment checks and the autograder: lab build, sandboxed runs, verdicts and reports.

Learners import the public checks (`from graders.c2w1 import check`); this package's root stays
light because the sandboxed child imports it too. Instructors use the commands `companion-grade`
and `companion-labs`, or `grade_batch` / `build` from `graders._batch` and `graders._labs`.
"""
