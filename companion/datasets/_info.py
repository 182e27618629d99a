"""`DatasetInfo` and its parts (`SplitInfo`, `ClassLabel`, `Image`, `Tensor` features), as in tfds."""

import dataclasses

from companion.datasets import _splits


@dataclasses.dataclass(frozen=True)
class Tensor:
    """A feature holding a tensor of a fixed ``shape`` and ``dtype`` (a NumPy dtype name)."""

    shape: tuple
    dtype: str

    def __repr__(self):
        return f"Tensor(shape={self.shape}, dtype={self.dtype})"


@dataclasses.dataclass(frozen=True)
class Image(Tensor):
    """An image feature: ``uint8`` pixels ``[height, width, channels]``."""

    def __repr__(self):
        return f"Image(shape={self.shape}, dtype={self.dtype})"


class ClassLabel:
    """An integer label feature with ``num_classes`` classes named ``names``, as ``tfds.features.ClassLabel``.

    Example:
        >>> from companion.datasets import ClassLabel
        >>> label = ClassLabel(names=["cat", "dog"])
        >>> label.num_classes, label.int2str(1), label.str2int("cat")
        (2, 'dog', 0)
    """

    shape = ()
    dtype = "int64"

    def __init__(self, names):
        self.names = [str(n) for n in names]

    @property
    def num_classes(self):
        return len(self.names)

    def int2str(self, index):
        """The name of class ``index``."""
        index = int(index)
        if not 0 <= index < self.num_classes:
            raise ValueError(f"Class index {index} is out of range: this label has {self.num_classes} "
                             f"classes (0 to {self.num_classes - 1}).")
        return self.names[index]

    def str2int(self, name):
        """The index of the class called ``name``."""
        try:
            return self.names.index(str(name))
        except ValueError:
            raise ValueError(f"Unknown class name {name!r}. The classes are {self.names}.") from None

    def __repr__(self):
        return f"ClassLabel(shape=(), dtype=int64, num_classes={self.num_classes})"


class FeaturesDict(dict):
    """The features of one example: a dict from feature name to feature (``info.features['label']``)."""

    def __repr__(self):
        inner = "".join(f"\n    '{k}': {v!r}," for k, v in self.items())
        return f"FeaturesDict({{{inner}\n}})"


@dataclasses.dataclass(frozen=True)
class SplitInfo:
    """One split (or slice of splits): its ``name`` and ``num_examples``."""

    name: str
    num_examples: int


class SplitDict(dict):
    """Split name → `SplitInfo`; also answers for slices: ``info.splits['train[:80%]'].num_examples``."""

    def __getitem__(self, spec):
        if dict.__contains__(self, spec):
            return dict.__getitem__(self, spec)
        sizes = {name: info.num_examples for name, info in self.items()}
        instructions = _splits.resolve(spec, sizes)
        return SplitInfo(spec, sum(i.num_examples for i in instructions))

    @property
    def total_num_examples(self):
        return sum(info.num_examples for info in self.values())


@dataclasses.dataclass
class DatasetInfo:
    """What a data set holds, as ``tfds.core.DatasetInfo``: its features, splits and description.

    Example:
        >>> import companion as tf
        >>> info = tf.datasets.builder("breast_cancer").info  # or load(..., with_info=True)
        >>> info.splits["train"].num_examples, info.features["label"].names
        (569, ['malignant', 'benign'])
    """

    name: str
    description: str
    features: FeaturesDict
    splits: SplitDict
    supervised_keys: tuple = None
    homepage: str = ""
    citation: str = ""
    version: str = "1.0.0"
    metadata: dict = dataclasses.field(default_factory=dict)

    @property
    def full_name(self):
        return f"{self.name}/{self.version}"

    def __repr__(self):
        splits = "".join(f"\n        '{n}': <SplitInfo num_examples={s.num_examples}>,"
                         for n, s in self.splits.items())
        features = repr(self.features).replace("\n", "\n    ")
        return (f"tfds.core.DatasetInfo(\n    name='{self.name}',\n    full_name='{self.full_name}',\n"
                f"    description=\"\"\"\n    {self.description}\n    \"\"\",\n"
                f"    homepage='{self.homepage}',\n"
                f"    features={features},\n    supervised_keys={self.supervised_keys},\n"
                f"    splits={{{splits}\n    }},\n)")


def make_info(name, description, features, sizes, supervised_keys, homepage="", citation="", metadata=None):
    """A `DatasetInfo` from plain values; ``sizes`` maps split name → num_examples."""
    splits = SplitDict({n: SplitInfo(n, int(size)) for n, size in sizes.items()})
    return DatasetInfo(name=name, description=description, features=FeaturesDict(features), splits=splits,
                       supervised_keys=supervised_keys, homepage=homepage, citation=citation,
                       metadata=dict(metadata or {}))
