"""The tape layer: recording ops and differentiating what was recorded (see ARCHITECTURE.md).

- `_gradient_tape`: `GradientTape`, the recording interpreter (ops hand it one record each).
- `_replay`: a tape's recorded sub-graph replayed as one compiled, cached ``jax.vjp``.
- `_forward_accumulator`: `ForwardAccumulator`, forward mode (a replay under ``jax.jvp``).
- `_custom_gradient`: `custom_gradient`, a function that says how to differentiate itself.
"""
