"""XLA's CPU compiler settings that make first calls cheaper.

XLA's CPU backend generates code for fusions with its MLIR "fusion emitters" by default. For the
small programs of a course (a training step of an MLP or a small CNN) those emitters cost about
40% of every compile (hand-written JAX Adam step of an MLP 784-128-10 on a 2-core CPU: 0.40 s
→ 0.24 s of compiling, medians of interleaved fresh processes) for a steady-state step 3–5%
faster. A learner waits for compiles far more often than for the steps they would save (each
kernel restart, each new shape, each submission the grader runs), so companion asks XLA for its
classic emitters unless ``XLA_FLAGS`` already names the setting (``--xla_cpu_use_fusion_emitters=true``
there restores XLA's default). Set before JAX's CPU backend starts: `companion/__init__.py` calls
`prefer_fast_compiles` first thing; a backend that is already running keeps its settings.
Benchmark: ``benchmarks/first_call.py``.
"""

import os

_FLAG = "xla_cpu_use_fusion_emitters"


def prefer_fast_compiles():
    """Adds ``--xla_cpu_use_fusion_emitters=false`` to ``XLA_FLAGS`` unless the setting is there."""
    flags = os.environ.get("XLA_FLAGS", "")
    if _FLAG not in flags:
        os.environ["XLA_FLAGS"] = f"{flags} --{_FLAG}=false".strip()
