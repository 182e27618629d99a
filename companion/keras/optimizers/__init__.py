"""``companion.keras.optimizers``: Keras optimizers over small pure update rules, and schedules."""

from companion.keras.optimizers import schedules as schedules
from companion.keras.optimizers._adadelta import Adadelta as Adadelta
from companion.keras.optimizers._adafactor import Adafactor as Adafactor
from companion.keras.optimizers._adagrad import Adagrad as Adagrad
from companion.keras.optimizers._adam import Adam as Adam
from companion.keras.optimizers._adamax import Adamax as Adamax
from companion.keras.optimizers._adamw import AdamW as AdamW
from companion.keras.optimizers._ftrl import Ftrl as Ftrl
from companion.keras.optimizers._lamb import Lamb as Lamb
from companion.keras.optimizers._lion import Lion as Lion
from companion.keras.optimizers._loss_scale_optimizer import LossScaleOptimizer as LossScaleOptimizer
from companion.keras.optimizers._nadam import Nadam as Nadam
from companion.keras.optimizers._optimizer import Optimizer as Optimizer
from companion.keras.optimizers._registry import deserialize as deserialize
from companion.keras.optimizers._registry import get as get
from companion.keras.optimizers._registry import serialize as serialize
from companion.keras.optimizers._rmsprop import RMSprop as RMSprop
from companion.keras.optimizers._sgd import SGD as SGD

__all__ = ["Adadelta", "Adafactor", "Adagrad", "Adam", "AdamW", "Adamax", "Ftrl", "Lamb", "Lion",
           "LossScaleOptimizer", "Nadam", "Optimizer", "RMSprop", "SGD", "deserialize", "get", "schedules",
           "serialize"]
