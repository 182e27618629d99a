"""``companion.io.gfile``: TensorFlow's file API for local paths (``GFile``, ``exists``, ``glob``, ...).

Paths are local files and folders (``str`` or ``os.PathLike``); TF's other file systems (``gs://``,
``hdfs://``) are not available. Failures raise TF's error classes (`NotFoundError`,
`AlreadyExistsError`, ...), which are also the matching Python ``OSError``-family builtins where
there is one.
"""

from companion.io.gfile._file import GFile
from companion.io.gfile._paths import (
    copy,
    exists,
    get_registered_schemes,
    glob,
    isdir,
    join,
    listdir,
    makedirs,
    mkdir,
    remove,
    rename,
    rmtree,
    stat,
    walk,
)

__all__ = ["GFile", "copy", "exists", "get_registered_schemes", "glob", "isdir", "join", "listdir",
           "makedirs", "mkdir", "remove", "rename", "rmtree", "stat", "walk"]
