"""The path functions of ``tf.io.gfile`` on the local file system: exists, glob, listdir, walk, ..."""

import collections
import glob as _glob
import os
import shutil

from companion.io.gfile._errors import tf_errors, translate

FileStatistics = collections.namedtuple("FileStatistics", ["length", "mtime_nsec", "is_directory"])
FileStatistics.__doc__ = "What `stat` returns: size in bytes, modification time in ns, whether a folder."


def exists(path):
    """True if ``path`` names a file or folder."""
    return os.path.exists(path)


def isdir(path):
    """True if ``path`` is a folder (False if it is a file or does not exist)."""
    return os.path.isdir(path)


def glob(pattern):
    """The paths matching the shell ``pattern`` (``*``, ``?``, ``[...]``), as a list of ``str``."""
    return _glob.glob(os.fspath(pattern))


def listdir(path):
    """The names (not paths) of the entries of folder ``path``, in no particular order."""
    with tf_errors("listdir", path):
        return os.listdir(path)


def makedirs(path):
    """Creates folder ``path`` and any missing parents; an existing folder is fine."""
    with tf_errors("makedirs", path):
        os.makedirs(path, exist_ok=True)


def mkdir(path):
    """Creates folder ``path`` (its parent must exist); an existing folder is fine, as in TF."""
    with tf_errors("mkdir", path):
        if not os.path.isdir(path):
            os.mkdir(path)


def remove(path):
    """Deletes the file ``path`` (a folder raises `FailedPreconditionError`: use `rmtree`)."""
    with tf_errors("remove", path):
        if os.path.isdir(path):
            raise IsADirectoryError(21, "Is a directory")
        os.remove(path)


def rmtree(path):
    """Deletes folder ``path`` and everything in it."""
    with tf_errors("rmtree", path):
        shutil.rmtree(path)


def rename(src, dst, overwrite=False):
    """Moves ``src`` to ``dst``; an existing ``dst`` raises `AlreadyExistsError` unless ``overwrite``."""
    with tf_errors("rename", dst):
        _refuse_existing(dst, overwrite)
        os.replace(src, dst)


def copy(src, dst, overwrite=False):
    """Copies file ``src`` to ``dst``; an existing ``dst`` raises `AlreadyExistsError` unless
    ``overwrite``."""
    with tf_errors("copy", dst):
        _refuse_existing(dst, overwrite)
        shutil.copyfile(src, dst)


def stat(path):
    """``FileStatistics(length, mtime_nsec, is_directory)`` of ``path``."""
    with tf_errors("stat", path):
        info = os.stat(path)
    return FileStatistics(info.st_size, info.st_mtime_ns, os.path.isdir(path))


def walk(top, topdown=True, onerror=None):
    """Yields ``(folder, subfolder names, file names)`` for ``top`` and every folder below it.

    A ``top`` that does not exist yields nothing, as in TF; ``onerror`` gets the TF error of a
    folder that cannot be listed.
    """

    def on_error(error):
        if onerror is not None:
            onerror(_translate_for_walk(error))

    yield from os.walk(os.fspath(top), topdown=topdown, onerror=on_error)


def join(path, *paths):
    """Joins path components with the local separator."""
    return os.path.join(path, *paths)


def get_registered_schemes():
    """The URL schemes this file API understands: none beyond local paths."""
    return []


def _refuse_existing(dst, overwrite):
    if not overwrite and os.path.exists(dst):
        raise FileExistsError(17, "File exists")


def _translate_for_walk(error):
    return translate(error, "walk", error.filename) if isinstance(error, OSError) else error


__all__ = ["FileStatistics", "copy", "exists", "get_registered_schemes", "glob", "isdir", "join", "listdir",
           "makedirs", "mkdir", "remove", "rename", "rmtree", "stat", "walk"]
