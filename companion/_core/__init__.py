"""The core's values, ops and context (see ARCHITECTURE.md).

- values: `_tensor` (Tensor over ``jax.Array``), `_variable` (Variable, with `_variable_aggregation`
  and `_variable_scatter`), `_convert`, `_dtypes`, `_shape`, `_tensor_spec`, `_indexed_slices`,
  `_nest` (TF's structure rules; ``is_value``/``tree_flatten`` for the core).
- ops: `_op` (``Op``: a named pure JAX function and its eager dispatch), `_operators` (Python
  operators on tensors); the op catalogue itself lives in ``companion._ops``.
- context: `_context` (per-thread state: recording tapes, staging traces, strategy in scope,
  replica being staged), `_device`, `_scopes` (name and device scopes), `_graph_mode` (the TF1
  graph being built, read by every op), `_errors` (TF's error classes).

Nothing here imports a package above the core; the modules are internal, and other packages
import them by their full names.
"""
