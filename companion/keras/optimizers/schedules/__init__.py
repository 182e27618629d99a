"""``companion.keras.optimizers.schedules``: learning-rate schedules (Keras's formulas)."""

from companion.keras.optimizers.schedules._schedules import CosineDecay as CosineDecay
from companion.keras.optimizers.schedules._schedules import CosineDecayRestarts as CosineDecayRestarts
from companion.keras.optimizers.schedules._schedules import ExponentialDecay as ExponentialDecay
from companion.keras.optimizers.schedules._schedules import InverseTimeDecay as InverseTimeDecay
from companion.keras.optimizers.schedules._schedules import LearningRateSchedule as LearningRateSchedule
from companion.keras.optimizers.schedules._schedules import PiecewiseConstantDecay as PiecewiseConstantDecay
from companion.keras.optimizers.schedules._schedules import PolynomialDecay as PolynomialDecay
from companion.keras.optimizers.schedules._schedules import deserialize as deserialize
from companion.keras.optimizers.schedules._schedules import serialize as serialize

__all__ = ["CosineDecay", "CosineDecayRestarts", "ExponentialDecay", "InverseTimeDecay",
           "LearningRateSchedule", "PiecewiseConstantDecay", "PolynomialDecay", "deserialize", "serialize"]
