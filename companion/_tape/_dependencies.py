"""Which inputs each output of a replay program really uses: what makes a second derivative None.

A `GradientTape.gradient` call made while an outer tape records is one `Op` on that outer tape
(the compiled replay, `_replay`). Taken as a whole, every gradient it returns would look connected
to every recorded value it reads, and differentiating a gradient that is in fact constant (the
gradient of ``3 * x``) would give zeros where TensorFlow gives None: TF records the backward
ops themselves, so a gradient that uses no watched value is not connected to it.

`output_dependencies` answers per output, from the traced program: JAX's dead-code elimination of
the program's jaxpr keeps, for one output, exactly the inputs its computation reads. A replay's
`Op` carries the answer as ``output_deps``, so the outer tape connects each gradient only to the
inputs it depends on (`GradientTape._record`, `_replay.prune`). This runs only for replays an
outer tape records: a single tape never traces anything more.
"""

import jax
from jax._src.interpreters import partial_eval as _pe  # dce_jaxpr: dead-code elimination of a jaxpr


def output_dependencies(fn, arrays):
    """For each output of ``fn(*arrays)`` (flattened), the positions of the inputs it uses."""
    avals = [jax.ShapeDtypeStruct(a.shape, a.dtype) for a in arrays]
    closed = jax.make_jaxpr(fn)(*avals)
    jaxpr = closed.jaxpr
    n_out = len(jaxpr.outvars)
    deps = []
    for k in range(n_out):
        _, used = _pe.dce_jaxpr(jaxpr, [i == k for i in range(n_out)])
        deps.append(tuple(i for i, u in enumerate(used) if u))
    return tuple(deps)
