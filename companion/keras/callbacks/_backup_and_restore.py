"""`BackupAndRestore`: backs up the training state during ``fit`` and resumes from it after a failure."""

import json
import os

from companion.keras.callbacks._callback import Callback
from companion.train import _checkpoint_file, _chief
from companion.train._object_graph import walk
from companion.train._restoration import Restoration

BACKUP_NAME, METADATA_NAME = "latest.weights.h5", "training_metadata.json"  # Keras 3's names
LEGACY_BACKUP_NAME = "backup.npz"  # what earlier versions wrote: read, and deleted with the backup
_STATE_KEY = "training_state"


class BackupAndRestore(Callback):
    """Backs up the training state so that an interrupted ``fit`` resumes where it stopped.

    TensorFlow's ``tf.keras.callbacks.BackupAndRestore``. At the end of every epoch (or every
    ``save_freq`` batches) it writes the model's Variables, its optimizer's state (step
    count, slots) and the position in training (epoch, batch) to one file,
    ``{backup_dir}/latest.weights.h5`` (Keras 3's name; the format is companion's checkpoint
    archive, not HDF5), replacing the previous backup, then writes Keras 3's
    ``training_metadata.json`` beside it (``{"epoch": ..., "batch": ...}``: the epoch training
    resumes at and, after a mid-epoch backup, the index of the last batch done). The weights
    file is written to a temporary name and renamed, so a process killed while writing leaves
    the previous backup intact; the position is read back from the weights file itself, so the
    two always agree. A ``backup.npz`` an earlier version wrote is restored too.

    When ``fit`` starts and a backup exists, the callback restores it and ``fit`` carries on
    from the next epoch (the backed-up epoch's ``initial_epoch``), or from the next batch of
    the backed-up epoch with an integer ``save_freq``. The epochs (and batches) already done
    are not trained again, but their input is replayed: array inputs draw the same shuffle
    orders without touching the data, and a Dataset is read and the elements discarded. A
    restarted program that sets the same seed (`companion.random.set_seed`) and builds its
    model and data the same way therefore sees the batches an uninterrupted run would have
    seen, and ends with the same weights, unless the training step itself draws random
    numbers (``Dropout``'s masks continue from the restarted program's stream). A ``fit``
    that ends normally (not by an exception) deletes the backup when ``delete_checkpoint``
    is True. The metrics of an epoch resumed mid-way cover only its remaining batches.

    In multi-worker training (``TF_CONFIG`` names a cluster) only the chief writes and
    deletes the backup; the other workers write nothing (saving needs no collective here)
    and all workers restore from the chief's file, so ``backup_dir`` must be a directory
    every worker can read, as in TensorFlow. Without a strategy it resumes a
    single-process ``fit`` the same way.

    Args:
        backup_dir: the directory for the backup (created when first needed). Use it for
            this training run only: another run or callback must not write there.
        save_freq: ``"epoch"`` to back up at the end of each epoch, or a positive integer to
            back up every that many batches (the resumed run then skips the batches done).
        delete_checkpoint: delete the backup when ``fit`` finishes (True), or keep it.
        save_before_preemption: TensorFlow's preemption notices on Google Cloud; companion
            has none, so only False is accepted.

    Raises:
        ValueError: ``backup_dir`` is empty, ``save_freq`` is neither ``"epoch"`` nor a
            positive integer, or ``save_before_preemption`` is True.
        TypeError: ``backup_dir`` is not a path or ``delete_checkpoint`` not a bool.

    Example:
        The first ``fit`` fails at the start of epoch 4 (0-based); the second resumes there
        and trains only the 6 remaining epochs:

        >>> import tempfile
        >>> import numpy as np
        >>> import companion as tf
        >>> class InterruptAtEpoch4(tf.keras.callbacks.Callback):
        ...     def on_epoch_begin(self, epoch, logs=None):
        ...         if epoch == 4:
        ...             raise RuntimeError("Interrupting!")
        >>> backup = tf.keras.callbacks.BackupAndRestore(backup_dir=tempfile.mkdtemp())
        >>> model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
        >>> model.compile(tf.keras.optimizers.SGD(), loss="mse")
        >>> x, y = np.arange(100.0).reshape(5, 20) / 100, np.zeros(5)
        >>> try:
        ...     model.fit(x, y, epochs=10, batch_size=1, callbacks=[backup, InterruptAtEpoch4()], verbose=0)
        ... except RuntimeError as error:
        ...     print(error)
        Interrupting!
        >>> history = model.fit(x, y, epochs=10, batch_size=1, callbacks=[backup], verbose=0)
        >>> len(history.history["loss"]), history.epoch[0]
        (6, 4)
    """

    _supports_tf_logs = True  # the batch hook reads no logs: fit need not convert them each batch

    def __init__(self, backup_dir, save_freq="epoch", delete_checkpoint=True, save_before_preemption=False):
        super().__init__()
        self.backup_dir = _checked_backup_dir(backup_dir)
        self.save_freq = _checked_save_freq(save_freq, save_before_preemption)
        if not isinstance(delete_checkpoint, bool):
            raise TypeError("`delete_checkpoint` must be True (delete the backup when training ends) or "
                            f"False (keep it). Received: delete_checkpoint={delete_checkpoint!r}")
        self.delete_checkpoint = delete_checkpoint
        self.save_before_preemption = False
        self._current_epoch = 0
        self._batches_since_save = 0
        self._resume_from = None

    @property
    def backup_path(self):
        """The backup file: ``{backup_dir}/latest.weights.h5``."""
        return os.path.join(self.backup_dir, BACKUP_NAME)

    def _files(self):
        """The backup, its metadata and an earlier version's backup, in that order."""
        names = (BACKUP_NAME, METADATA_NAME, LEGACY_BACKUP_NAME)
        return [os.path.join(self.backup_dir, name) for name in names]

    def on_train_begin(self, logs=None):
        """Restores the backup, if there is one, and records where ``fit`` resumes."""
        self._batches_since_save = 0
        self._resume_from = None
        if os.path.exists(self.backup_dir) and not os.path.isdir(self.backup_dir):
            raise NotADirectoryError(f"BackupAndRestore needs `backup_dir` to be a directory, but "
                                     f"{self.backup_dir!r} is a file. Pass a directory path used only "
                                     "for this backup.")
        backup, _, legacy = self._files()
        found = backup if os.path.isfile(backup) else legacy
        if not os.path.isfile(found):
            return
        values, manifest = _checkpoint_file.read(found)
        Restoration(self.model, values, manifest.get("aliases")).restore_existing()
        state = manifest.get(_STATE_KEY) or {}
        self._resume_from = (int(state.get("epoch", 0)), int(state.get("batch", 0)))

    def on_epoch_begin(self, epoch, logs=None):
        self._current_epoch = epoch

    def on_train_batch_end(self, batch, logs=None):
        if self.save_freq == "epoch":
            return
        self._batches_since_save += 1
        if self._batches_since_save >= self.save_freq:
            self._batches_since_save = 0
            self._save(self._current_epoch, batch + 1)

    def on_epoch_end(self, epoch, logs=None):
        if self.save_freq == "epoch":
            self._save(epoch + 1, 0)

    def on_train_end(self, logs=None):
        """Deletes the backup (chief only) unless ``delete_checkpoint=False``."""
        if not self.delete_checkpoint or not _chief.is_chief():
            return
        for path in self._files():
            if os.path.isfile(path):
                os.remove(path)
        try:
            os.rmdir(self.backup_dir)  # only when empty: files of others are never deleted
        except OSError:
            pass

    def _save(self, epoch, batch):
        """Writes the backup: training resumes at batch ``batch`` of epoch ``epoch`` (0-based)."""
        if not _chief.is_chief():
            return
        _checkpoint_file.write(self.backup_path, walk(self.model),
                               **{_STATE_KEY: {"epoch": int(epoch), "batch": int(batch)}})
        metadata = json.dumps({"epoch": int(epoch), "batch": max(int(batch) - 1, 0)})  # Keras: last index
        _checkpoint_file.atomic_write(os.path.join(self.backup_dir, METADATA_NAME),
                                      lambda f: f.write(metadata))
        legacy = os.path.join(self.backup_dir, LEGACY_BACKUP_NAME)
        if os.path.isfile(legacy):
            os.remove(legacy)


def resume_point(callbacks):
    """``(epoch, batch)`` where ``fit`` resumes after the callbacks' ``on_train_begin``, or None."""
    for callback in callbacks:
        found = getattr(callback, "_resume_from", None) if isinstance(callback, BackupAndRestore) else None
        if found is not None:
            return found
    return None


def _checked_backup_dir(backup_dir):
    if backup_dir is None or backup_dir == "":
        raise ValueError("Empty `backup_dir` argument passed: BackupAndRestore needs the directory where "
                         "it keeps the backup, e.g. backup_dir=os.path.join(working_dir, 'backup'). "
                         f"Received: backup_dir={backup_dir!r}")
    if not isinstance(backup_dir, (str, os.PathLike)):
        raise TypeError("`backup_dir` must be a directory path (a string or os.PathLike). Received: "
                        f"backup_dir={backup_dir!r} of type {type(backup_dir).__name__}")
    return os.fspath(backup_dir)


def _checked_save_freq(save_freq, save_before_preemption):
    if save_before_preemption:
        raise ValueError("`save_before_preemption=True` needs TensorFlow's preemption notices (Google "
                         "Cloud and Borg), which companion does not have. Back up often enough with "
                         "`save_freq` ('epoch' or a number of batches) instead. Received: "
                         f"save_before_preemption={save_before_preemption!r}")
    if save_freq == "epoch":
        return save_freq
    if isinstance(save_freq, bool) or not isinstance(save_freq, int) or save_freq < 1:
        raise ValueError("Invalid value for argument `save_freq`: expected 'epoch' (back up at the end of "
                         "each epoch) or a positive integer (back up every that many batches). Received: "
                         f"save_freq={save_freq!r}")
    return save_freq
