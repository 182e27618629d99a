"""load() as Datasets: dict or (image, label) elements, batching, lists of splits, shuffle_files."""

import numpy as np

import companion as tf
import companion.datasets as tfds

SHAPES = {"image_size": 16, "train_size": 3000, "test_size": 7}


def test_elements_are_dicts_by_default():
    ds, info = tfds.load("digits", split="train[:3]", with_info=True)
    elements = list(ds)
    assert len(elements) == 3 and sorted(elements[0]) == ["image", "label"]
    assert elements[0]["image"].shape == [8, 8, 1] and elements[0]["image"].dtype == tf.uint8
    assert elements[0]["label"].dtype == tf.int64
    assert info.features["label"].num_classes == 10


def test_as_supervised_gives_tuples_and_matches_the_arrays():
    ds = tfds.load("breast_cancer", split="train[-4:]", as_supervised=True)
    arrays = tfds.builder("breast_cancer").as_arrays("train[-4:]")
    rows = [(x.numpy(), int(y)) for x, y in ds]
    np.testing.assert_array_equal(np.stack([r[0] for r in rows]), arrays["features"])
    assert [r[1] for r in rows] == arrays["label"].tolist()


def test_lists_of_splits_and_batching():
    train, test = tfds.load("shapes", split=["train[:10]", "test"], as_supervised=True, batch_size=4,
                            builder_kwargs=SHAPES)
    assert [int(x.shape[0]) for x, _ in train] == [4, 4, 2]
    assert sum(int(y.shape[0]) for _, y in test) == 7
    every = tfds.load("shapes", builder_kwargs=SHAPES)
    assert sorted(every) == ["test", "train"]


def test_shuffle_files_moves_whole_blocks():
    tf.random.set_seed(1)
    shuffled = tfds.load("shapes", split="train", shuffle_files=True, batch_size=-1, builder_kwargs=SHAPES)
    original = tfds.builder("shapes", **SHAPES).as_arrays("train")
    images = shuffled["image"].numpy()
    starts = [next(s for s in (0, 1000, 2000) if np.array_equal(images[b], original["image"][s]))
              for b in (0, 1000, 2000)]
    assert sorted(starts) == [0, 1000, 2000]
    assert images.shape == original["image"].shape
    np.testing.assert_array_equal(np.sort(shuffled["label"].numpy()), np.sort(original["label"]))


def test_as_numpy():
    ds = tfds.load("digits", split="train[:2]", as_supervised=True)
    first = next(iter(tfds.as_numpy(ds)))
    assert isinstance(first[0], np.ndarray) and first[0].shape == (8, 8, 1)
    whole = tfds.as_numpy(tfds.load("digits", split="train[:2]", batch_size=-1))
    assert whole["image"].shape == (2, 8, 8, 1)
