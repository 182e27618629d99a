"""shapes: deterministic per seed, balanced, varied, and separable enough to learn."""

import numpy as np
import pytest

import companion.datasets as tfds
from companion.datasets._keras_style import shapes_load_data
from companion.datasets._shapes import CLASSES, render


def _arrays(**config):
    return tfds.builder("shapes", **config).splits()


def test_same_seed_same_pixels_other_seed_other_pixels():
    config = dict(image_size=32, train_size=40, test_size=10)
    first, again = _arrays(seed=3, **config), _arrays(seed=3, **config)
    np.testing.assert_array_equal(first["train"]["image"], again["train"]["image"])
    np.testing.assert_array_equal(first["test"]["label"], again["test"]["label"])
    other = _arrays(seed=4, **config)
    assert not np.array_equal(first["train"]["image"], other["train"]["image"])
    assert not np.array_equal(first["train"]["image"][:10], first["test"]["image"])


def test_rendering_does_not_depend_on_chunking():
    big = render(300, 16, 5, (7, 0), 0.05)[0]  # rendered in chunks of 128
    assert big.shape == (300, 16, 16, 3)
    np.testing.assert_array_equal(render(300, 16, 5, (7, 0), 0.05)[1], render(300, 16, 5, (7, 0), 0.05)[1])


def test_classes_are_balanced_and_images_vary():
    arrays = _arrays(image_size=48, train_size=100, test_size=0, num_classes=5)["train"]
    assert np.bincount(arrays["label"]).tolist() == [20] * 5
    images = arrays["image"].astype(float)
    assert images.dtype == float and arrays["image"].dtype == np.uint8
    assert images.std(axis=(1, 2, 3)).min() > 5  # a shape on a background, not a flat image
    assert np.abs(images[0] - images[1]).mean() > 5


def _foreground(images):
    """How far each pixel is from the image's median colour (the background), flattened."""
    x = images.astype(np.float32)
    median = np.median(x.reshape(len(x), -1, 3), axis=1)[:, None, None, :]
    return (np.linalg.norm(x - median, axis=-1) / 255).reshape(len(x), -1)


def test_classes_are_learnable_from_the_shape_not_the_colours():
    svm = pytest.importorskip("sklearn.svm")
    arrays = _arrays(image_size=24, train_size=1000, test_size=300)
    train, test = arrays["train"], arrays["test"]
    by_shape = svm.SVC(C=10).fit(_foreground(train["image"]), train["label"])
    assert by_shape.score(_foreground(test["image"]), test["label"]) > 0.45  # chance: 0.2
    colours = [a["image"].reshape(len(a["image"]), -1, 3).mean(axis=1) for a in (train, test)]
    by_colour = svm.SVC(C=10).fit(colours[0], train["label"])
    assert by_colour.score(colours[1], test["label"]) < 0.35


def test_load_and_keras_style():
    config = {"image_size": 20, "num_classes": 2, "train_size": 4, "test_size": 6}
    (x, y), info = tfds.load("shapes", split="test", batch_size=-1, as_supervised=True, with_info=True,
                             builder_kwargs=config)
    assert x.shape == [6, 20, 20, 3] and info.features["label"].names == list(CLASSES[:2])
    (x_train, y_train), (x_test, y_test) = shapes_load_data(image_size=16, train_size=8, test_size=2)
    assert x_train.shape == (8, 16, 16, 3) and y_train.dtype == np.uint8 and len(x_test) == 2


@pytest.mark.parametrize("config, message", [
    ({"num_classes": 1}, "num_classes"), ({"image_size": 4}, "image_size"),
    ({"train_size": -1}, "train_size")])
def test_config_errors(config, message):
    with pytest.raises(ValueError, match=message):
        tfds.builder("shapes", **config)
