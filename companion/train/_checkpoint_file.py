"""The checkpoint files: Variable values keyed by object-graph path, under TensorFlow's file names.

A checkpoint with prefix ``P`` is the two files TF writes for it, so that TF code looking for them
(``os.path.exists(P + ".index")``, a glob of ``*.index``, a listing of the directory) finds them:

* ``P.data-00000-of-00001``: an ``.npz`` archive holding ``__manifest__``, a JSON string
  ``{"format": "companion.checkpoint", "version": 1, "variables": [{"path", "key", "dtype",
  "shape", "name"}, ...], "aliases": {...}}`` plus what the writer adds (weights files list their
  layer ``weights`` paths), and ``v0``, ``v1``, ...: one array per Variable, named by the
  manifest's ``key``. Dtypes NumPy cannot store natively (``bfloat16``) are stored as unsigned
  integers of the same width and viewed back on reading;
* ``P.index``: the same manifest as JSON text. As TF's index, it says which values the
  checkpoint holds and their shapes (`tf.train.list_variables` reads only it), and it is
  written last: a checkpoint exists when its index does.

The bytes are companion's own (TF's index is a binary table): TF cannot read these files, nor
companion TF's. A prefix ending in ``.npz`` or ``.h5`` (a Keras weights file name) is one file,
the archive itself. ``P.npz``, the one file earlier versions wrote for ``P``, is still read
when ``P.index`` is absent. Each file is written to a temporary name in the same directory and
moved into place with ``os.replace``, so a reader never sees half a file. No pickles are written
or read.
"""

import json
import os
import uuid
import zipfile

import numpy as np

from companion._core import _dtypes
from companion._core._errors import DataLossError, NotFoundError, OpError, _shown_as

FORMAT = "companion.checkpoint"
VERSION = 1
DATA_SUFFIX, INDEX_SUFFIX, LEGACY_SUFFIX = ".data-00000-of-00001", ".index", ".npz"
_HDF5_SIGNATURE = b"\x89HDF\r\n\x1a\n"
_TABLE_FOOTER_BYTES = 48  # a smaller file is "too short to be an sstable" to TF

# No checkpoint at the path given: TF's NotFoundError (its name shows), also a FileNotFoundError.
CheckpointNotFoundError = _shown_as("NotFoundError", (NotFoundError, FileNotFoundError),
                                    "No checkpoint at the path given (TF's NotFoundError).")
# An index whose data file is gone: TF's reader fails with a bare OpError (error_code UNKNOWN).
MissingDataError = _shown_as("OpError", (OpError, FileNotFoundError),
                             "A checkpoint's index is there but its data file is not (TF's OpError).")


def _single_file(prefix):
    return prefix.endswith((LEGACY_SUFFIX, ".h5"))


def filename(prefix):
    """The archive of the checkpoint ``prefix``: ``prefix + '.data-00000-of-00001'``, or ``prefix``
    itself when it ends in ``.npz`` or is a Keras weights file name (``.weights.h5``, ``.h5``)."""
    prefix = os.fspath(prefix)
    return prefix if _single_file(prefix) else prefix + DATA_SUFFIX


def _index(prefix):
    """The file whose presence makes checkpoint ``prefix`` exist, or None when there is none."""
    if _single_file(prefix):
        return prefix if os.path.isfile(prefix) else None
    for name in (prefix + INDEX_SUFFIX, prefix + LEGACY_SUFFIX):
        if os.path.isfile(name):
            return name
    return None


def exists(prefix):
    """Whether checkpoint ``prefix`` exists: its ``.index`` file (as TF checks), or the one file of
    a weights file or of an earlier version's checkpoint."""
    return _index(os.fspath(prefix)) is not None


def remove(prefix):
    """Deletes the files of checkpoint ``prefix`` (those of an earlier version's too)."""
    prefix = os.fspath(prefix)
    names = [prefix] if _single_file(prefix) else [prefix + s for s in (INDEX_SUFFIX, DATA_SUFFIX,
                                                                        LEGACY_SUFFIX)]
    for name in names:
        if os.path.isfile(name):
            os.remove(name)


def write(prefix, graph, **manifest_extra):
    """Writes the Variables of ``graph`` (an `ObjectGraph`) as checkpoint ``prefix``: the archive,
    then the index, then deletes the ``P.npz`` an earlier version wrote for it (which it replaces).
    Returns the archive's name."""
    entries, arrays = [], {}
    for index, (path, var) in enumerate(graph.variables.items()):
        key = f"v{index}"
        arrays[key] = _storable(np.asarray(var.numpy()))
        entries.append({"path": path, "key": key, "dtype": var.dtype.name,
                        "shape": list(arrays[key].shape), "name": var.name.rsplit(":", 1)[0]})
    manifest = json.dumps({"format": FORMAT, "version": VERSION, "variables": entries,
                           "aliases": graph.aliases, **manifest_extra})
    prefix = os.fspath(prefix)
    target = filename(prefix)
    _atomic_savez(target, __manifest__=np.array(manifest), **arrays)
    if not _single_file(prefix):
        atomic_write(prefix + INDEX_SUFFIX, lambda f: f.write(manifest))
        if os.path.isfile(prefix + LEGACY_SUFFIX):
            os.remove(prefix + LEGACY_SUFFIX)
    return target


def read(prefix):
    """``(values, manifest)``: the arrays by path and the manifest of checkpoint ``prefix``."""
    archive = _archive(os.fspath(prefix))
    if not zipfile.is_zipfile(archive):  # an npz archive is a zip; np.load would guess at pickles
        with open(archive, "rb") as f:
            hdf5 = f.read(8) == _HDF5_SIGNATURE
        raise ValueError(f"{archive!r} is not a companion checkpoint or weights file"
                         + (": it is HDF5, as Keras writes weights. Companion reads only the files it "
                            "wrote itself; rebuild the weights in companion (or load them with Keras)."
                            if hdf5 else "."))
    with np.load(archive, allow_pickle=False) as data:
        manifest = _manifest(data, archive)
        values = {e["path"]: _restored(data[e["key"]], e["dtype"]) for e in manifest["variables"]}
    return values, manifest


def read_manifest(prefix):
    """The manifest of checkpoint ``prefix``, from its index alone (the data file is not read)."""
    prefix = os.fspath(prefix)
    index = _index(prefix)
    if index is None or index != prefix + INDEX_SUFFIX:
        values, manifest = read(prefix)  # one file: the shapes of what it holds
        for entry in manifest["variables"]:
            entry["shape"] = list(values[entry["path"]].shape)
        return manifest
    with open(index) as f:
        return _checked(json.load(f), index)


def _archive(prefix):
    index = _index(prefix)
    if index is None and os.path.isdir(prefix):
        raise DataLossError(None, None, f"Unable to open table file {prefix}: FAILED_PRECONDITION: {prefix}; "
                            "Is a directory: perhaps your file is in a different file format and you "
                            "need to use a different restore operator?")
    hint = next((f" (a checkpoint's path is its prefix: {prefix[:-len(suffix)]!r}, without {suffix!r})"
                 for suffix in (INDEX_SUFFIX, DATA_SUFFIX) if prefix.endswith(suffix)), "")
    if index is None and os.path.isfile(prefix) and not prefix.endswith(INDEX_SUFFIX):
        # TF reads a file given as the path as an index table (a data file too): its DataLossError,
        # whose reason depends on whether the file can hold a table footer (48 bytes)
        reason = ("file is too short to be an sstable" if os.path.getsize(prefix) < _TABLE_FOOTER_BYTES
                  else "not an sstable (bad magic number)")
        raise DataLossError(None, None, f"Unable to open table file {prefix}: DATA_LOSS: {reason}: perhaps "
                            "your file is in a different file format and you need to use a different "
                            f"restore operator?{hint}")
    if index is None:
        raise CheckpointNotFoundError(None, None, "Unsuccessful TensorSliceReader constructor: Failed to "
                                      f"find any matching files for {prefix}{hint}")
    if index != prefix + INDEX_SUFFIX:
        return index  # one file: a weights file, or a checkpoint an earlier version wrote
    if not os.path.isfile(prefix + DATA_SUFFIX):
        raise MissingDataError(None, None, f"{prefix + DATA_SUFFIX}; No such file or directory")
    return prefix + DATA_SUFFIX


def _manifest(data, path):
    if "__manifest__" not in data.files:
        raise ValueError(f"{path!r} is not a companion checkpoint: it has no '__manifest__' entry.")
    return _checked(json.loads(str(data["__manifest__"])), path)


def _checked(manifest, path):
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
