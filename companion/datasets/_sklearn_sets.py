"""``digits`` and ``breast_cancer``: the small data sets that ship inside scikit-learn."""

import importlib.util
from pathlib import Path

import jax
import numpy as np

from companion.datasets import _info
from companion.datasets._builder import Builder


def _data_file(name):
    """The path of a table scikit-learn ships (``sklearn/datasets/data/NAME``), found without
    importing scikit-learn: its import (SciPy's included) takes about a second, reading the
    table a few milliseconds."""
    spec = importlib.util.find_spec("sklearn")
    folder = None if spec is None or spec.origin is None else Path(spec.origin).parent
    path = None if folder is None else folder / "datasets" / "data" / name
    if path is None or not path.is_file():
        where = "" if folder is None else f" in {folder}"
        raise ImportError(f"The 'digits' and 'breast_cancer' data sets come from scikit-learn, whose data "
                          f"file {name} was not found{where}. Install it with: pip install scikit-learn  "
                          "(or the [labs] extra).")
    return path


def _digits():
    """(images float64 [1797, 8, 8] with 0-16 grey levels, labels int64), as ``load_digits`` gives."""
    table = np.loadtxt(_data_file("digits.csv.gz"), delimiter=",")
    return table[:, :64].reshape(-1, 8, 8), table[:, 64].astype(np.int64)


def _breast_cancer():
    """(features float64 [569, 30], labels int64): the table after its header line of counts and names."""
    table = np.loadtxt(_data_file("breast_cancer.csv"), delimiter=",", skiprows=1)
    return table[:, :30], table[:, 30].astype(np.int64)


# each of ten measurements of the cell nuclei as its mean, its standard error and its worst value
_MEASUREMENTS = ("radius", "texture", "perimeter", "area", "smoothness", "compactness", "concavity",
                 "concave points", "symmetry", "fractal dimension")
BREAST_CANCER_FEATURES = ([f"mean {m}" for m in _MEASUREMENTS] + [f"{m} error" for m in _MEASUREMENTS]
                          + [f"worst {m}" for m in _MEASUREMENTS])


class Digits(Builder):
    """scikit-learn's 1,797 handwritten digits (8×8, 16 grey levels, classes 0-9), one ``'train'`` split.

    Pixels are rescaled to ``uint8`` 0-255. Config: ``image_size`` (default 8) resizes the
    images bilinearly, e.g. ``image_size=28`` for an MNIST-sized stand-in.
    """

    name = "digits"
    description = ("Optical recognition of handwritten digits (UCI, bundled with scikit-learn): 1,797 "
                   "8x8 grayscale images of the digits 0-9, 43 writers.")
    homepage = "https://archive.ics.uci.edu/dataset/80"

    def __init__(self, data_dir=None, image_size=8):
        if not isinstance(image_size, int) or image_size < 1:
            raise ValueError(f"digits: image_size must be a positive integer. Received: {image_size!r}")
        super().__init__(data_dir, image_size=image_size)

    def _generate(self):
        images, labels = _digits()
        images = _resize(images * (255.0 / 16.0), self.config["image_size"])
        pixels = np.clip(np.round(images), 0, 255).astype(np.uint8)[..., None]
        return {"train": {"image": pixels, "label": labels}}

    def _features(self):
        size = self.config["image_size"]
        return {"image": _info.Image((size, size, 1), "uint8"),
                "label": _info.ClassLabel([str(i) for i in range(10)])}


class BreastCancer(Builder):
    """The Wisconsin diagnostic breast cancer table: 569 rows of 30 float features, one ``'train'`` split.

    Labels follow scikit-learn: 0 = malignant, 1 = benign. Elements are
    ``{'features': float32[30], 'label': int64}``; ``info.metadata['feature_names']`` names
    the 30 columns.
    """

    name = "breast_cancer"
    description = ("Breast Cancer Wisconsin (Diagnostic), bundled with scikit-learn: 569 tumours, 30 "
                   "features computed from a digitized image of a fine needle aspirate, malignant or benign.")
    homepage = "https://archive.ics.uci.edu/dataset/17"
    supervised_keys = ("features", "label")

    def _generate(self):
        features, labels = _breast_cancer()
        return {"train": {"features": features.astype(np.float32), "label": labels}}

    def _features(self):
        return {"features": _info.Tensor((30,), "float32"),
                "label": _info.ClassLabel(["malignant", "benign"])}

    def _metadata(self):
        return {"feature_names": list(BREAST_CANCER_FEATURES)}


def _resize(images, size):
    if images.shape[-1] == size:
        return images

    resized = jax.image.resize(images.astype(np.float32), (len(images), size, size), "linear", antialias=True)
    return np.asarray(resized)
