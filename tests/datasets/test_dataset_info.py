"""DatasetInfo, SplitDict (slices too) and ClassLabel."""

import pytest

import companion.datasets as tfds


def test_breast_cancer_info():
    info = tfds.builder("breast_cancer").info
    assert info.name == "breast_cancer" and info.full_name == "breast_cancer/1.0.0"
    assert info.splits["train"].num_examples == 569
    assert info.splits["train[:80%]"].num_examples == 455
    assert info.splits["train[80%:]"].num_examples == 114
    assert info.splits.total_num_examples == 569
    assert info.features["label"].num_classes == 2
    assert info.features["label"].names == ["malignant", "benign"]
    assert info.features["features"].shape == (30,)
    assert info.supervised_keys == ("features", "label")
    assert info.metadata["feature_names"][0] == "mean radius" and len(info.metadata["feature_names"]) == 30
    assert "breast_cancer" in repr(info) and "num_examples=569" in repr(info)


def test_shapes_info_follows_its_config():
    info = tfds.builder("shapes", image_size=24, num_classes=3, train_size=9, test_size=6).info
    assert info.features["image"].shape == (24, 24, 3)
    assert info.features["label"].names == ["circle", "square", "triangle"]
    assert {n: s.num_examples for n, s in info.splits.items()} == {"train": 9, "test": 6}
    assert info.splits["train+test"].num_examples == 15


def test_class_label():
    label = tfds.ClassLabel(names=["a", "b", "c"])
    assert (label.num_classes, label.int2str(2), label.str2int("b")) == (3, "c", 1)
    with pytest.raises(ValueError, match="out of range"):
        label.int2str(3)
    with pytest.raises(ValueError, match="Unknown class name"):
        label.str2int("z")


def test_unknown_data_set_and_config():
    with pytest.raises(ValueError, match="Available: breast_cancer, digits"):
        tfds.builder("horses_or_humans")
    with pytest.raises(TypeError, match="unsupported builder_kwargs"):
        tfds.builder("digits", colour=True)
    assert tfds.list_builders() == ["breast_cancer", "digits", "fashion_mnist", "mnist", "shapes"]
