"""The checkpoint file: one ``.npz`` archive of Variable values keyed by object-graph path.

A checkpoint with prefix ``P`` is the single file ``P.npz`` (a prefix that already ends in
``.npz`` is the file itself). It holds

* ``__manifest__``: a JSON string ``{"format": "companion.checkpoint", "version": 1,
  "variables": [{"path", "key", "dtype", "shape", "name"}, ...], "aliases": {...}}`` plus what
  the writer adds (weights files list their layer ``weights`` paths);
* ``v0``, ``v1``, ...: one array per Variable, named by the manifest's ``key``. Dtypes
  NumPy cannot store natively (``bfloat16``) are stored as unsigned integers of the
  same width and viewed back on reading.

Files are written to a temporary file in the same directory and moved into place with
``os.replace``, so a reader never sees half a checkpoint. No pickles are written or read.
"""

import json
import os
import uuid

import numpy as np

from companion._core import _dtypes
from companion.errors import NotFoundError

FORMAT = "companion.checkpoint"
VERSION = 1


class CheckpointNotFoundError(NotFoundError, FileNotFoundError):
    """No checkpoint file at the path given (``tf.errors.NotFoundError`` and ``FileNotFoundError``)."""


def filename(prefix):
    """The file of the checkpoint ``prefix``: ``prefix + '.npz'`` unless it ends in ``.npz`` or is a
    Keras weights file name (``.weights.h5``, ``.h5``: written under that very name)."""
    prefix = os.fspath(prefix)
    return prefix if prefix.endswith((".npz", ".h5")) else prefix + ".npz"


def exists(prefix):
    return os.path.isfile(filename(prefix))


def write(prefix, graph, **manifest_extra):
    """Writes the Variables of ``graph`` (an `ObjectGraph`) to ``filename(prefix)``."""
    entries, arrays = [], {}
    for index, (path, var) in enumerate(graph.variables.items()):
        key = f"v{index}"
        arrays[key] = _storable(np.asarray(var.numpy()))
        entries.append({"path": path, "key": key, "dtype": var.dtype.name,
                        "shape": list(var.shape.as_list()), "name": var.name.rsplit(":", 1)[0]})
    manifest = {"format": FORMAT, "version": VERSION, "variables": entries,
                "aliases": graph.aliases, **manifest_extra}
    target = filename(prefix)
    _atomic_savez(target, __manifest__=np.array(json.dumps(manifest)), **arrays)
    return target


def read(prefix):
    """``(values, manifest)``: the arrays by path and the manifest of checkpoint ``prefix``."""
    path = filename(prefix)
    if not os.path.isfile(path):
        raise CheckpointNotFoundError(f"No checkpoint file {path!r} (for the checkpoint path "
                                      f"{os.fspath(prefix)!r}). Pass the path that save(), write() or "
                                      "save_weights() returned or used, e.g. manager.latest_checkpoint.")
    with np.load(path, allow_pickle=False) as data:
        manifest = _manifest(data, path)
        values = {e["path"]: _restored(data[e["key"]], e["dtype"]) for e in manifest["variables"]}
    return values, manifest


def _manifest(data, path):
    if "__manifest__" not in data.files:
        raise ValueError(f"{path!r} is not a companion checkpoint: it has no '__manifest__' entry.")
    manifest = json.loads(str(data["__manifest__"]))
    if manifest.get("format") != FORMAT or manifest.get("version", 0) > VERSION:
        raise ValueError(f"{path!r} is not a companion checkpoint of version <= {VERSION}. Received: "
                         f"format={manifest.get('format')!r}, version={manifest.get('version')!r}")
    return manifest


def _storable(array):
    if array.dtype.kind in "biufcSU":
        return array
    return array.view(f"u{array.dtype.itemsize}")  # bfloat16 and other ml_dtypes


def _restored(array, dtype_name):
    dtype = np.dtype(_dtypes.as_dtype(dtype_name).as_numpy_dtype)
    return array if array.dtype == dtype else array.view(dtype)


def _atomic_savez(target, **arrays):
    atomic_write(target, lambda f: np.savez(f, **arrays), "wb")


def atomic_write(target, write, mode="w"):
    """Calls ``write(file)`` on a temporary file beside ``target``, then moves it into place."""
    directory = os.path.dirname(target) or "."
    os.makedirs(directory, exist_ok=True)
    temp = os.path.join(directory, f".tmp-{uuid.uuid4().hex}-{os.path.basename(target)}")
    try:
        with open(temp, mode) as f:  # open() rather than mkstemp: the umask sets the permissions
            write(f)
        os.replace(temp, target)
    except BaseException:
        if os.path.exists(temp):
            os.remove(temp)
        raise
