"""``companion.keras.mixed_precision``: float16/bfloat16 computation with float32 weights (Keras 3).

``set_global_policy("mixed_float16")`` makes layers created afterwards compute in float16 and keep
float32 weights; ``fit`` then wraps the optimizer in a `LossScaleOptimizer`. Give the last layer
``dtype="float32"`` (e.g. ``Activation("softmax", dtype="float32")``) for float32 outputs; losses
are computed in float32 either way.
"""

from companion.keras._dtype_policy import DTypePolicy as DTypePolicy
from companion.keras._dtype_policy import global_policy as dtype_policy
from companion.keras._dtype_policy import global_policy as global_policy
from companion.keras._dtype_policy import set_global_policy as set_dtype_policy
from companion.keras._dtype_policy import set_global_policy as set_global_policy
from companion.keras.optimizers._loss_scale_optimizer import LossScaleOptimizer as LossScaleOptimizer

Policy = DTypePolicy

__all__ = ["DTypePolicy", "LossScaleOptimizer", "Policy", "dtype_policy", "global_policy", "set_dtype_policy",
           "set_global_policy"]
