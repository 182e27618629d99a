"""``companion.keras.callbacks``: TensorFlow's ``tf.keras.callbacks``, hooks ``fit`` calls."""

from companion.keras.callbacks._backup_and_restore import BackupAndRestore as BackupAndRestore
from companion.keras.callbacks._callback import Callback as Callback
from companion.keras.callbacks._callback_list import CallbackList as CallbackList
from companion.keras.callbacks._csv_logger import CSVLogger as CSVLogger
from companion.keras.callbacks._early_stopping import EarlyStopping as EarlyStopping
from companion.keras.callbacks._history import History as History
from companion.keras.callbacks._lambda_callback import LambdaCallback as LambdaCallback
from companion.keras.callbacks._learning_rate_scheduler import (
    LearningRateScheduler as LearningRateScheduler,
)
from companion.keras.callbacks._model_checkpoint import ModelCheckpoint as ModelCheckpoint
from companion.keras.callbacks._progbar_logger import ProgbarLogger as ProgbarLogger
from companion.keras.callbacks._reduce_lr_on_plateau import ReduceLROnPlateau as ReduceLROnPlateau
from companion.keras.callbacks._tensorboard import TensorBoard as TensorBoard
from companion.keras.callbacks._terminate_on_nan import TerminateOnNaN as TerminateOnNaN

__all__ = ["BackupAndRestore", "CSVLogger", "Callback", "CallbackList", "EarlyStopping", "History",
           "LambdaCallback", "LearningRateScheduler", "ModelCheckpoint", "ProgbarLogger", "ReduceLROnPlateau",
           "TensorBoard", "TerminateOnNaN"]
