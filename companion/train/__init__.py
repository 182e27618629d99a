"""`companion.train`: TensorFlow's ``tf.train``: checkpoints and the ``Example`` protocol buffers.

`Checkpoint` saves and restores the Variables of an object graph (models, optimizers,
Variables); `CheckpointManager` keeps numbered checkpoints in a directory. The ``Example``
message classes are protobuf messages with TensorFlow's field names and numbers, built on
first use so that ``import companion`` does not import protobuf.

Internal surface for other companion packages (Keras weights files and `BackupAndRestore`
save and restore object graphs the way checkpoints do): ``_object_graph.walk`` (name the
Variables of a graph), ``_restoration.Restoration`` (restore by path, deferred for Variables
not created yet), ``_status.CheckpointLoadStatus`` and ``_chief.is_chief``/``task`` (who
writes under multi-worker), ``_checkpoint_file`` (the checkpoint file format), ``_deferred``
(restores waiting for Variables not created yet) and ``_example.message_class`` (the
``Example`` protobuf classes, for `companion.io`'s parsing). Objects take part in a walk
through the checkpoint protocol (``_checkpoint_children``/``_checkpoint_created``, see
``_object_graph``).

Example:
    >>> import companion as tf
    >>> example = tf.train.Example(features=tf.train.Features(feature={
    ...     "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[3]))}))
    >>> tf.train.Example.FromString(example.SerializeToString()).features.feature["label"].int64_list.value[0]
    3
"""

from companion.train import _example
from companion.train._checkpoint import Checkpoint as Checkpoint
from companion.train._checkpoint_manager import CheckpointManager as CheckpointManager
from companion.train._checkpoint_reader import CheckpointReader as CheckpointReader
from companion.train._checkpoint_reader import list_variables as list_variables
from companion.train._checkpoint_reader import load_checkpoint as load_checkpoint
from companion.train._checkpoint_reader import load_variable as load_variable
from companion.train._checkpoint_state import CheckpointState as CheckpointState
from companion.train._checkpoint_state import get_checkpoint_state as get_checkpoint_state
from companion.train._checkpoint_state import latest_checkpoint as latest_checkpoint

_LAZY = ("BytesList", "Example", "Feature", "FeatureList", "FeatureLists", "Features", "FloatList",
         "Int64List", "SequenceExample")

__all__ = ["Checkpoint", "CheckpointManager", "CheckpointReader", "CheckpointState", "get_checkpoint_state",
           "latest_checkpoint", "list_variables", "load_checkpoint", "load_variable", *_LAZY]


def __getattr__(name):
    if name in _LAZY:
        cls = _example.message_class(name)
        globals()[name] = cls  # later look-ups skip this function
        return cls
    raise AttributeError(f"module 'companion.train' has no attribute {name!r}")


def __dir__():
    return sorted({*globals(), *__all__})
