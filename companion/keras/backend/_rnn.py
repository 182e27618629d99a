"""Backend `rnn`: a step function iterated over the time axis of its inputs, with masks.

The steps run as a Python loop over the (static) time axis, in eager mode and inside a
`function` alike, with the results of Keras's legacy backend for ``unroll=True`` and for its
``while_loop`` path (``unroll=False``: a Tensor ``input_length`` masks the steps past each
example's length, and at most ``max(input_length)`` steps run).
"""

from companion import (
    cast,
    convert_to_tensor,
    expand_dims,
    get_static_value,
    greater,
    less,
    nest,
    reduce_max,
    reshape,
    stack,
    transpose,
    unstack,
    where,
    zeros_like,
)
from companion._core._tensor import Tensor


def _swap_batch_timestep(x):
    axes = list(range(len(x.shape)))
    axes[0], axes[1] = 1, 0
    return transpose(x, axes)


def _broadcastable_mask(mask_t, x):
    """``mask_t`` ``(batch,)`` or ``(batch, 1)`` with trailing size-1 axes up to ``x``'s rank."""
    mask_t = reshape(mask_t, [-1]) if mask_t.shape.rank == 2 and mask_t.shape[1] == 1 else mask_t
    for _ in range(x.shape.rank - mask_t.shape.rank):
        mask_t = expand_dims(mask_t, -1)
    return mask_t


def _masked(mask_t, new, old):
    return [where(_broadcastable_mask(mask_t, n), n, o) for n, o in zip(new, old)]


def rnn(step_function, inputs, initial_states, go_backwards=False, mask=None, constants=None, unroll=False,
        input_length=None, time_major=False, zero_output_for_mask=False, return_all_outputs=True):
    """Iterates ``step_function`` over the time axis of ``inputs``.

    Args:
        step_function: ``(inputs_t, states + constants) -> (output_t, new_states)``, where
            ``inputs_t`` is one time step (``(batch, ...)``, nested like ``inputs``).
        inputs: ``(batch, time, ...)`` (``(time, batch, ...)`` with ``time_major``), rank >= 3,
            or a nested structure of such tensors.
        initial_states: the states at the first step, a list of ``(batch, ...)`` tensors.
        go_backwards: iterate from the last step to the first (outputs stay in that order).
        mask: ``(batch, time)`` booleans; a masked step keeps the previous output and states.
        constants: extra values passed to every step after the states.
        unroll: Keras's unrolled path (the results are the same as the loop's unless
            ``input_length`` is given).
        input_length: with ``unroll=False`` and no ``mask``, a Tensor of each example's length
            masks the later steps (their outputs are zeros or carried); an int or Tensor
            also limits the steps run to its maximum (the outputs after it are zeros).
        time_major: whether ``inputs`` and the outputs have time first.
        zero_output_for_mask: masked steps output zeros instead of the previous output.
        return_all_outputs: when False, ``outputs`` holds only the last step.

    Returns:
        ``(last_output, outputs, new_states)``: ``outputs`` is ``(batch, time, ...)`` (one
        step without ``return_all_outputs``).

    Raises:
        ValueError: an input has rank < 3, or ``unroll`` without a known number of steps.
        NotImplementedError: the number of steps (or ``max(input_length)``) is not known while
            a `function` is traced.

    Example:
        >>> import companion as tf
        >>> def step(x, states):
        ...     total = states[0] + x
        ...     return total, [total]
        >>> inputs = tf.reshape(tf.range(1.0, 7.0), [1, 3, 2])
        >>> last, outputs, states = tf.keras.backend.rnn(step, inputs, [tf.zeros([1, 2])])
        >>> outputs.numpy()[0]
        array([[ 1.,  2.],
               [ 4.,  6.],
               [ 9., 12.]], dtype=float32)
        >>> last.numpy(), states[0].numpy()
        (array([[ 9., 12.]], dtype=float32), array([[ 9., 12.]], dtype=float32))
    """
    inputs = nest.map_structure(convert_to_tensor, inputs)
    if not time_major:
        inputs = nest.map_structure(_swap_batch_timestep, inputs)
    flat_inputs = nest.flatten(inputs)
    for input_ in flat_inputs:
        if input_.shape.rank is not None and input_.shape.rank < 3:
            raise ValueError(f"rnn() inputs need rank 3 or more ((batch, time, ...)). Received an input "
                             f"of shape {input_.shape}")
    time_steps = flat_inputs[0].shape[0]
    if unroll and not time_steps:
        raise ValueError("Unrolling requires a fixed number of timesteps.")
    if time_steps is None:
        raise NotImplementedError("companion's rnn() runs its steps as a Python loop and needs the number "
                                  "of time steps; the inputs' time axis is unknown (shape "
                                  f"{flat_inputs[0].shape}).")
    if mask is not None:
        mask = convert_to_tensor(mask)
        if mask.dtype != "bool":
            mask = cast(mask, "bool")
        if mask.shape.rank == 2:
            mask = expand_dims(mask, -1)
        if not time_major:
            mask = _swap_batch_timestep(mask)
    constants = tuple(constants or ())

    steps = time_steps
    if not unroll and input_length is not None:
        most = get_static_value(reduce_max(input_length))
        if most is None:
            raise NotImplementedError("companion's rnn() needs max(input_length) to be known while a "
                                      "function is traced (it is the number of steps run).")
        steps = max(0, min(time_steps, int(most)))
    per_input = [unstack(x) for x in flat_inputs]
    mask_list = unstack(mask) if mask is not None else None
    if go_backwards:
        per_input = [list(reversed(x)) for x in per_input]
        mask_list = list(reversed(mask_list)) if mask_list is not None else None
    length_mask = None
    if not unroll and mask is None and isinstance(input_length, Tensor):
        if go_backwards:
            reverse_length = reduce_max(input_length, axis=0) - 1 - input_length

            def length_mask(time):
                return less(reverse_length, time)
        else:

            def length_mask(time):
                return greater(input_length, time)

    states = tuple(initial_states)
    outputs, output_structure, prev_output = [], None, None
    for time in range(steps):
        step_input = nest.pack_sequence_as(inputs, [x[time] for x in per_input])
        output, new_states = step_function(step_input, tuple(states) + constants)
        output_structure = output
        flat_output = nest.flatten(output)
        mask_t = mask_list[time] if mask_list is not None else (length_mask(time) if length_mask else None)
        if mask_t is None:
            states = new_states if unroll else nest.pack_sequence_as(initial_states, nest.flatten(new_states))
        else:
            if prev_output is None or zero_output_for_mask:
                prev_output = [zeros_like(o) for o in flat_output]
            flat_output = _masked(mask_t, flat_output, prev_output)
            flat_states = _masked(mask_t, nest.flatten(new_states), nest.flatten(states))
            states = nest.pack_sequence_as(states if unroll else initial_states, flat_states)
        prev_output = flat_output
        outputs = outputs + [flat_output] if return_all_outputs else [flat_output]
    if output_structure is None:
        raise ValueError(f"rnn() ran no steps (the inputs have {time_steps} time steps, {steps} were run).")
    if return_all_outputs and len(outputs) < time_steps:  # TF's loop leaves the steps after the last zeros
        outputs += [[zeros_like(o) for o in outputs[0]]] * (time_steps - len(outputs))
    stacked = [stack([step[i] for step in outputs]) for i in range(len(outputs[0]))]
    last_output = nest.pack_sequence_as(output_structure, [s[-1] for s in stacked])
    stacked = nest.pack_sequence_as(output_structure, stacked)
    if not time_major:
        stacked = nest.map_structure(_swap_batch_timestep, stacked)
    new_states = states if unroll else tuple(states)
    return last_output, stacked, new_states
