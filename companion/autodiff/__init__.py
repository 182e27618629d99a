"""``companion.autodiff``: TensorFlow's ``tf.autodiff`` (reverse mode with `GradientTape`, forward
mode with `ForwardAccumulator`)."""

from companion._tape._forward_accumulator import ForwardAccumulator
from companion._tape._gradient_tape import GradientTape

__all__ = ["ForwardAccumulator", "GradientTape"]
