"""The staging layer: how Python code becomes a compiled program (see ARCHITECTURE.md).

- `_stage`: `stage`, the one way Python runs once under ``jax.make_jaxpr`` (concrete functions,
  Strategy.run's replica programs, AutoGraph blocks, Dataset functions, symbolic Keras calls,
  compat.v1 sessions), the `Trace` bookkeeping of Variables, and `leaf_key`, the one call-signature key.
- `_function`: `companion.function` (`Function`), one `ConcreteFunction` per signature.
- `_concrete_function`: `ConcreteFunction`, a staged and compiled signature with its Variable wiring.
- `_shape_generic`: a signature with ``None`` dimensions, traced once and compiled per shape.
- `_errors`: errors raised when traced values meet Python (``bool``, ``.numpy()``, iteration).
- `_leaked_tensors`, `_program_text`, `_compiler_ir`, `_trace_hooks`: checks and views of programs.

Other packages import the names below from ``companion._staging``; the modules are internal.
"""

from companion._staging._stage import (
    Staged,
    Trace,
    current,
    eager_scope,
    is_traced_leaf,
    leaf_key,
    stage,
    staging,
)

__all__ = ["Staged", "Trace", "current", "eager_scope", "is_traced_leaf", "leaf_key", "stage", "staging"]
