"""``mnist`` and ``fashion_mnist``: the four standard IDX files, read from a local cache folder.

Nothing is downloaded. The files are looked for in ``<root>/<name>/`` where ``<root>`` is
the ``data_dir`` argument, else the ``COMPANION_DATA_DIR`` environment variable, else
``~/.companion/datasets``. A gzipped file (``train-images-idx3-ubyte.gz``, as published)
is checked against the SHA-256 pinned below, copied from the checksum files of
TensorFlow Datasets (``url_checksums/mnist.txt`` and ``fashion_mnist.txt``), which list
the published files' hashes. An uncompressed copy cannot be checked against those hashes:
it is accepted when its IDX header and length are consistent (or, when you pass
``checksums={file name: sha256}``, when it matches the hash you give).
"""

import os

import numpy as np

from companion._core._errors import NotFoundError
from companion.datasets import _idx, _info
from companion.datasets._builder import Builder

ENV_VAR = "COMPANION_DATA_DIR"
DEFAULT_ROOT = os.path.join("~", ".companion", "datasets")
FILES = {"train_images": "train-images-idx3-ubyte", "train_labels": "train-labels-idx1-ubyte",
         "test_images": "t10k-images-idx3-ubyte", "test_labels": "t10k-labels-idx1-ubyte"}
SHA256 = {
    "mnist": {
        "train-images-idx3-ubyte.gz": "440fcabf73cc546fa21475e81ea370265605f56be210a4024d2ca8f203523609",
        "train-labels-idx1-ubyte.gz": "3552534a0a558bbed6aed32b30c495cca23d567ec52cac8be1a0730e8010255c",
        "t10k-images-idx3-ubyte.gz": "8d422c7b0a1c1c79245a5bcf07fe86e33eeafee792b84584aec276f5a2dbc4e6",
        "t10k-labels-idx1-ubyte.gz": "f7ae60f92e00ec6debd23a6088c31dbd2371eca3ffa0defaefb259924204aec6",
    },
    "fashion_mnist": {
        "train-images-idx3-ubyte.gz": "3aede38d61863908ad78613f6a32ed271626dd12800ba2636569512369268a84",
        "train-labels-idx1-ubyte.gz": "a04f17134ac03560a47e3764e11b92fc97de4d1bfaf8ba1a3aa29af54cc90845",
        "t10k-images-idx3-ubyte.gz": "346e55b948d973a97e58d2351dde16a484bd415d4595297633bb08f03db6a073",
        "t10k-labels-idx1-ubyte.gz": "67da17c76eaffca5446c3361aaab5c3cd6d1c2608764d35dfb1850b086bf8dd5",
    },
}
HOMEPAGES = {"mnist": "https://yann.lecun.com/exdb/mnist/",
             "fashion_mnist": "https://github.com/zalandoresearch/fashion-mnist"}
FASHION_NAMES = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag",
                 "Ankle boot"]


class DatasetFilesNotFoundError(NotFoundError, FileNotFoundError):
    """A data set's files are not in the cache folder (a `NotFoundError` and a ``FileNotFoundError``)."""


class _IdxSet(Builder):
    """A set stored as the four MNIST-style IDX files; ``checksums`` overrides the pinned SHA-256s."""

    def __init__(self, data_dir=None, checksums=None):
        super().__init__(data_dir)
        self.checksums = {**SHA256[self.name], **(checksums or {})}

    def folder(self):
        """The folder the four files are read from."""
        return data_folder(self.name, self.data_dir)

    def _generate(self):
        arrays = read_files(self.name, self.folder(), self.checksums)
        return {split: {"image": arrays[f"{split}_images"][..., None],
                        "label": arrays[f"{split}_labels"].astype(np.int64)} for split in ("train", "test")}

    def _features(self):
        names = FASHION_NAMES if self.name == "fashion_mnist" else [str(i) for i in range(10)]
        return {"image": _info.Image((28, 28, 1), "uint8"), "label": _info.ClassLabel(names)}


class Mnist(_IdxSet):
    """MNIST: 70,000 28×28 handwritten digits (60,000 train, 10,000 test), from local IDX files."""

    name = "mnist"
    description = "The MNIST database of handwritten digits (LeCun, Cortes and Burges)."
    homepage = HOMEPAGES["mnist"]


class FashionMnist(_IdxSet):
    """Fashion-MNIST: 70,000 28×28 grayscale images of 10 kinds of clothing, from local IDX files."""

    name = "fashion_mnist"
    description = "Fashion-MNIST: Zalando's article images, a drop-in replacement for MNIST (Xiao et al.)."
    homepage = HOMEPAGES["fashion_mnist"]


def data_folder(name, data_dir=None):
    """``<root>/<name>``; root: ``data_dir``, else ``$COMPANION_DATA_DIR``, else ``~/.companion/datasets``."""
    root = data_dir or os.environ.get(ENV_VAR) or DEFAULT_ROOT
    return os.path.join(os.path.expanduser(os.fspath(root)), name)


def read_files(name, folder, checksums):
    """The four arrays (``train_images``, ``train_labels``, ``test_images``, ``test_labels``), verified."""
    paths = {key: _locate(folder, base) for key, base in FILES.items()}
    missing = [FILES[key] for key, path in paths.items() if path is None]
    if missing:
        raise _not_found(name, folder, missing)
    for path in paths.values():
        expected = checksums.get(os.path.basename(path))
        if expected is not None:
            _idx.verify(path, expected)
    return {key: _idx.read_idx(path) for key, path in paths.items()}


def _locate(folder, base):
    for candidate in (base + ".gz", base):
        path = os.path.join(folder, candidate)
        if os.path.isfile(path):
            return path
    return None


def _not_found(name, folder, missing):
    files = "\n".join(f"    {base}.gz" for base in FILES.values())
    return DatasetFilesNotFoundError(
        f"The {name} data set is not in the local cache: {', '.join(missing)} (.gz or not) not found in "
        f"{folder!r}.\nNothing is downloaded at run time. Put these four files, as published at "
        f"{HOMEPAGES[name]}, in that folder:\n{files}\n(uncompressed copies without .gz work too). Or point "
        f"to another folder with load(..., data_dir=ROOT) or the {ENV_VAR} environment variable; the files "
        f"are read from ROOT/{name}/.")
