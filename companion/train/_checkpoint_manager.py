"""`CheckpointManager`: numbered checkpoints in a directory, the oldest deleted beyond a limit."""

import os
import shutil
import time

import numpy as np

from companion.train import _checkpoint_file, _checkpoint_state, _chief


class CheckpointManager:
    """Saves numbered checkpoints of a `Checkpoint` into a directory, TF's ``tf.train.CheckpointManager``.

    Checkpoints are ``{directory}/{checkpoint_name}-{number}`` (the files ``.index`` and
    ``.data-00000-of-00001`` of that prefix, both deleted when it is retired); the directory's
    ``checkpoint`` state file lists them, so a manager created again on the same directory
    carries on with the same list. Beyond ``max_to_keep`` the oldest are deleted, except
    that with ``keep_checkpoint_every_n_hours`` one checkpoint per that many hours is kept
    on disk (and no longer managed).

    In multi-worker training (``TF_CONFIG`` set) only the chief writes into ``directory``:
    another worker writes into ``workertemp_{index}`` beside it and deletes that at once,
    and its `latest_checkpoint` and `checkpoints` read the chief's state file.

    Args:
        checkpoint: the `Checkpoint` to save and restore.
        directory: where checkpoints go (created if missing).
        max_to_keep: how many recent checkpoints to keep; None keeps all.
        keep_checkpoint_every_n_hours: also keep one checkpoint per this many hours.
        checkpoint_name: the checkpoints' file-name prefix.
        step_counter: a Variable (or int) giving the training step, for ``checkpoint_interval``.
        checkpoint_interval: with ``step_counter``, `save` skips saves fewer than this many
            steps after the last one.
        init_fn: called by `restore_or_initialize` when there is no checkpoint to restore.

    Example:
        >>> import tempfile
        >>> import companion as tf
        >>> ckpt = tf.train.Checkpoint(step=tf.Variable(0))
        >>> manager = tf.train.CheckpointManager(ckpt, tempfile.mkdtemp(), max_to_keep=2)
        >>> paths = [manager.save() for _ in range(3)]
        >>> [p.rsplit("/", 1)[-1] for p in manager.checkpoints]
        ['ckpt-2', 'ckpt-3']
        >>> manager.latest_checkpoint == paths[-1]
        True
    """

    def __init__(self, checkpoint, directory, max_to_keep=5, keep_checkpoint_every_n_hours=None,
                 checkpoint_name="ckpt", step_counter=None, checkpoint_interval=None, init_fn=None):
        _check_arguments(max_to_keep, step_counter, checkpoint_interval)
        self._checkpoint = checkpoint
        self._directory = os.fspath(directory)
        self._max_to_keep = max_to_keep
        self._keep_seconds = (None if keep_checkpoint_every_n_hours is None
                              else keep_checkpoint_every_n_hours * 3600.0)
        self._checkpoint_name = checkpoint_name
        self._step_counter = step_counter
        self._checkpoint_interval = checkpoint_interval
        self._init_fn = init_fn
        self._last_step = None
        self._load_state()

    @property
    def directory(self):
        """The checkpoint directory."""
        return self._directory

    @property
    def checkpoints(self):
        """The managed checkpoints' paths, oldest first."""
        if not _chief.is_chief():
            state = _checkpoint_state.get_checkpoint_state(self._directory)
            return [] if state is None else _existing(state.all_model_checkpoint_paths)
        return [path for path, _ in self._kept]

    @property
    def latest_checkpoint(self):
        """The newest checkpoint's path, or None (what `Checkpoint.restore` takes)."""
        paths = self.checkpoints
        return paths[-1] if paths else None

    @property
    def checkpoint_interval(self):
        return self._checkpoint_interval

    def save(self, checkpoint_number=None, check_interval=True):
        """Saves a checkpoint numbered ``checkpoint_number`` (default: the save counter) and returns its path.

        ``checkpoint_number`` may be an int or an integer Variable such as a step counter.
        The checkpoint's ``save_counter`` is incremented either way. Returns None when
        ``checkpoint_interval`` says it is too early.
        """
        step = None if self._step_counter is None else int(np.asarray(self._step_counter))
        if check_interval and self._too_early(step):
            return None
        self._checkpoint.save_counter.assign_add(1)
        if checkpoint_number is None:
            checkpoint_number = self._checkpoint.save_counter
        number = int(np.asarray(checkpoint_number))
        self._last_step = step
        if not _chief.is_chief():
            return self._save_as_worker(number)
        path = self._checkpoint.write(os.path.join(self._directory, f"{self._checkpoint_name}-{number}"))
        self._record(path)
        return path

    def restore_or_initialize(self):
        """Restores the latest checkpoint and returns its path, or calls ``init_fn`` and returns None."""
        latest = self.latest_checkpoint
        if latest is not None:
            self._checkpoint.restore(latest)
            return latest
        if self._init_fn is not None:
            self._init_fn()
        return None

    # -- bookkeeping ----------------------------------------------------------------------------
    def _load_state(self):
        self._kept, self._last_preserved = [], time.time()
        state = _checkpoint_state.get_checkpoint_state(self._directory)
        if state is None or not _chief.is_chief():
            return
        paths, stamps = state.all_model_checkpoint_paths, state.all_model_checkpoint_timestamps
        if len(stamps) != len(paths):
            stamps = [self._last_preserved] * len(paths)
        self._kept = [(p, t) for p, t in zip(paths, stamps) if _checkpoint_file.exists(p)]
        self._last_preserved = state.last_preserved_timestamp or self._last_preserved

    def _too_early(self, step):
        interval = self._checkpoint_interval
        return interval is not None and self._last_step is not None and step < self._last_step + interval

    def _record(self, path):
        self._kept = [(p, t) for p, t in self._kept if p != path] + [(path, time.time())]
        while self._max_to_keep is not None and len(self._kept) > self._max_to_keep:
            self._retire(*self._kept.pop(0))
        _checkpoint_state.write_state(self._directory, path, [p for p, _ in self._kept],
                                      [t for _, t in self._kept], self._last_preserved)

    def _retire(self, path, timestamp):
        if self._keep_seconds is not None and timestamp - self._last_preserved >= self._keep_seconds:
            self._last_preserved = timestamp  # kept on disk, no longer managed
            return
        _checkpoint_file.remove(path)

    def _save_as_worker(self, number):
        temp_dir = _chief.worker_temp_dir(self._directory)
        path = self._checkpoint.write(os.path.join(temp_dir, f"{self._checkpoint_name}-{number}"))
        shutil.rmtree(temp_dir, ignore_errors=True)
        return path


def _existing(paths):
    return [p for p in paths if _checkpoint_file.exists(p)]


def _check_arguments(max_to_keep, step_counter, checkpoint_interval):
    if max_to_keep is not None and max_to_keep < 1:
        raise ValueError("`max_to_keep` must be a positive integer or None (keep every checkpoint). "
                         f"Received: max_to_keep={max_to_keep!r}")
    if checkpoint_interval is not None and step_counter is None:
        raise ValueError("`step_counter` is needed with `checkpoint_interval`: pass the Variable "
                         "counting training steps. Received: step_counter=None")
