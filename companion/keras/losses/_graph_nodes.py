"""The nodes TF's graph makes for each Keras 3 per-example loss, which companion computes as one op.

Inside a `function` TF names every op a loss applies (``Sum``, ``truediv``, ``clip_by_value``, ...,
``Neg``); the per-example losses are the last one's output (``categorical_crossentropy/Neg:0``).
`name_loss_nodes` makes the names before it used (later ops count on from them) and gives companion's
fused op the last one. The sequences are those TF 2.21 / Keras 3.15 graphs hold, by variant.
"""

from companion._core._context import state
from companion._core._tensor_names import fused_nodes

MEAN_SQUARED_ERROR = ("sub", "Square", "Mean")
MEAN_ABSOLUTE_ERROR = ("sub", "Abs", "Mean")
MEAN_ABSOLUTE_PERCENTAGE_ERROR = ("sub", "Abs", "Maximum", "truediv", "Abs", "Mean", "mul")
MEAN_SQUARED_LOGARITHMIC_ERROR = ("Maximum", "add", "Log", "Maximum", "add", "Log", "sub", "Square", "Mean")
LOG_COSH = ("Log", "sub", "mul", "Softplus", "add", "sub", "Mean")
POISSON = ("add", "Log", "mul", "sub", "Mean")
KL_DIVERGENCE = ("clip_by_value", "clip_by_value", "truediv", "Log", "mul", "Sum")
_HINGE_LABELS = ("Cast", "Equal", "Cast", "Equal", "LogicalOr", "All", "mul", "sub", "mul", "sub", "Maximum")
HINGE = (*_HINGE_LABELS, "Mean")
SQUARED_HINGE = (*_HINGE_LABELS, "Square", "Mean")
CATEGORICAL_HINGE = ("mul", "Sum", "sub", "mul", "Max", "sub", "add", "Maximum")
_L2_NORMALIZE = ("Square", "Sum", "Rsqrt", "Minimum", "mul")
COSINE_SIMILARITY = (*_L2_NORMALIZE, *_L2_NORMALIZE, "mul", "Sum", "Neg")
HUBER = ("Sub", "Abs", "LessEqual", "Square", "mul", "mul", "Square", "mul", "sub", "SelectV2", "Mean")
DICE = ("mul", "Sum", "mul", "Sum", "Sum", "add", "add", "truediv", "sub")
TVERSKY = ("mul", "Sum", "sub", "mul", "Sum", "sub", "mul", "Sum", "mul", "add", "mul", "add", "add",
           "truediv", "sub")

_BINARY_SMOOTHING = ("mul", "add")
_CATEGORICAL_SMOOTHING = ("Cast", "mul", "truediv", "add")
_BINARY_PROBABILITIES = ("clip_by_value", "Log", "mul", "sub", "sub", "Log", "mul", "add", "Neg")
_FOCAL_FACTOR = ("mul", "sub", "sub", "mul", "add", "sub", "Pow", "mul")
_CLASS_BALANCING = ("mul", "sub", "mul", "add", "mul")


def binary_crossentropy(from_logits, label_smoothing):
    smoothing = _BINARY_SMOOTHING if label_smoothing else ()
    return (*smoothing, *(("logistic_loss",) if from_logits else _BINARY_PROBABILITIES), "Mean")


def binary_focal_crossentropy(from_logits, label_smoothing, apply_class_balancing):
    smoothing = _BINARY_SMOOTHING if label_smoothing else ()
    entropy = ("Sigmoid", "logistic_loss") if from_logits else _BINARY_PROBABILITIES
    balancing = _CLASS_BALANCING if apply_class_balancing else ()
    return (*smoothing, *entropy, *_FOCAL_FACTOR, *balancing, "Mean")


def categorical_smoothing(label_smoothing):
    return _CATEGORICAL_SMOOTHING if label_smoothing else ()


def categorical_crossentropy(label_smoothing):
    """With probabilities; with logits TF's graph runs `tf.nn.softmax_cross_entropy_with_logits`."""
    return (*categorical_smoothing(label_smoothing), "Sum", "truediv", "clip_by_value", "Log", "mul", "Sum",
            "Neg")


def categorical_focal_crossentropy(from_logits, label_smoothing):
    softmax = ("Softmax",) if from_logits else ()
    return (*categorical_smoothing(label_smoothing), *softmax, "Sum", "truediv", "clip_by_value", "Neg",
            "Log", "mul", "sub", "Pow", "Mul", "Mul", "Sum")


def name_loss_nodes(nodes, *variant):
    """Names companion's next op (a loss's fused per-example op) as TF's graph names the last of
    ``nodes`` (a tuple, or a function of the loss's ``variant`` arguments giving one), the ones
    before it used; nothing outside a tracing `function`."""
    if state.staging:
        nodes = nodes(*variant) if callable(nodes) else nodes
        fused_nodes(nodes[:-1], nodes[-1])
