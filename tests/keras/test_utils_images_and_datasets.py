"""keras.utils image helpers (img_to_array, array_to_img, load_img, save_img), image and text datasets from
directories, and split_dataset: against NumPy / Pillow oracles on small folders built in tmp_path."""

import io
import os
import random

import numpy as np
import pytest
from PIL import Image

import companion as tf
from companion.keras.utils import _image_dataset

utils = tf.keras.utils


def _pixels(height, width, channels=3, offset=0):
    return ((np.arange(height * width * channels).reshape(height, width, channels) * 7 + offset) % 256
            ).astype(np.uint8)


def _write_png(path, pixels):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    Image.fromarray(pixels[..., 0] if pixels.shape[-1] == 1 else pixels).save(path)


@pytest.fixture
def image_dir(tmp_path):
    """cats (3 images, one in a nested folder), dogs (2), birds (1), plus files and folders to skip."""
    root = tmp_path / "images"
    sizes = {"cats": [(4, 6), (6, 4), (4, 4)], "dogs": [(8, 8), (2, 6)], "birds": [(4, 8)]}
    for index, (name, shapes) in enumerate(sizes.items()):
        for i, (height, width) in enumerate(shapes):
            folder = root / name / ("nested" if i == 2 else "")
            _write_png(str(folder / f"im{i}.png"), _pixels(height, width, offset=30 * index + i))
        (root / name / "readme.txt").write_text("not an image")
    _write_png(str(root / ".hidden" / "skip.png"), _pixels(4, 4))
    (root / "birds" / "upper.PNG").write_bytes((root / "birds" / "im0.png").read_bytes())
    return root


def _files(root):
    """Keras's order without shuffling: class folders sorted, then each folder walked in sorted order."""
    found = []
    for name in sorted(d for d in os.listdir(root) if not d.startswith(".")):
        for folder, _, files in sorted(os.walk(root / name), key=lambda entry: entry[0]):
            found += [os.path.join(folder, f) for f in sorted(files) if f.lower().endswith((".png", ".jpg"))]
    return found


def _all(ds):
    xs, ys = [], []
    for x, y in ds:
        xs.append(x.numpy())
        ys.append(y.numpy())
    return np.concatenate(xs), np.concatenate(ys)


# -- array_to_img / img_to_array -----------------------------------------------------------------------
def test_array_to_img_scales_to_0_255_and_picks_the_mode():
    array = np.arange(24, dtype=np.float64).reshape(2, 4, 3)
    image = utils.array_to_img(array)
    assert (image.mode, image.size) == ("RGB", (4, 2))
    expected = (array - array.min()) / (array.max() - array.min()) * 255
    np.testing.assert_array_equal(np.asarray(image), expected.astype(np.float32).astype(np.uint8))
    assert utils.array_to_img(np.zeros((2, 2, 4))).mode == "RGBA"
    assert utils.array_to_img(np.zeros((2, 2, 1))).mode == "L"
    wide = utils.array_to_img(np.full((2, 2, 1), 1000.0), scale=False)
    assert wide.mode == "I" and np.asarray(wide).max() == 1000


def test_array_to_img_channels_first_and_img_to_array_round_trip():
    pixels = _pixels(3, 5)
    image = utils.array_to_img(pixels.transpose(2, 0, 1), data_format="channels_first", scale=False)
    np.testing.assert_array_equal(np.asarray(image), pixels)
    back = utils.img_to_array(image)
    assert back.dtype == np.float32 and back.shape == (3, 5, 3)
    np.testing.assert_array_equal(back, pixels)
    assert utils.img_to_array(image, data_format="channels_first").shape == (3, 3, 5)
    assert utils.img_to_array(image, dtype="uint8").dtype == np.uint8


def test_img_to_array_gives_grayscale_a_channel_axis():
    gray = Image.fromarray(_pixels(3, 4, 1)[..., 0])
    assert utils.img_to_array(gray).shape == (3, 4, 1)
    assert utils.img_to_array(gray, data_format="channels_first").shape == (1, 3, 4)


@pytest.mark.parametrize("call, error, message", [
    (lambda: utils.array_to_img(np.zeros((2, 2))), ValueError, r"rank 3.*\(2, 2\)"),
    (lambda: utils.array_to_img(np.zeros((2, 2, 2))), ValueError, "2 channels"),
    (lambda: utils.img_to_array(np.zeros((2, 2, 2, 2))), ValueError, r"rank 2.*\(2, 2, 2, 2\)"),
    (lambda: utils.img_to_array(np.zeros((2, 2)), data_format="nchw"), ValueError, "data_format='nchw'"),
])
def test_image_array_helpers_reject_bad_input(call, error, message):
    with pytest.raises(error, match=message):
        call()


# -- save_img / load_img ---------------------------------------------------------------------------------
def test_save_img_then_load_img_round_trips_a_png(tmp_path):
    pixels = _pixels(4, 5)
    path = tmp_path / "x.png"
    utils.save_img(path, pixels, scale=False)
    loaded = utils.load_img(path)
    assert (loaded.mode, loaded.size) == ("RGB", (5, 4))
    np.testing.assert_array_equal(np.asarray(loaded), pixels)
    assert utils.load_img(str(path), color_mode="rgba").mode == "RGBA"
    gray = utils.load_img(str(path).encode(), color_mode="grayscale")
    np.testing.assert_array_equal(np.asarray(gray), np.asarray(Image.open(path).convert("L")))


def test_load_img_resizes_as_pillow_does(tmp_path):
    path = tmp_path / "x.png"
    _write_png(str(path), _pixels(6, 9))
    oracle = Image.open(path)
    got = utils.load_img(path, target_size=(3, 4), interpolation="bilinear")
    expected = oracle.resize((4, 3), Image.Resampling.BILINEAR)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(expected))
    got = utils.load_img(path, target_size=(3, 3), keep_aspect_ratio=True)  # centred 6x6 crop, columns 1..7
    expected = oracle.resize((3, 3), Image.Resampling.NEAREST, box=[1, 0, 7, 6])
    np.testing.assert_array_equal(np.asarray(got), np.asarray(expected))
    assert utils.load_img(path, target_size=(6, 9), interpolation="no such filter").size == (9, 6)


def test_save_img_takes_file_objects_and_converts_rgba_for_jpeg(tmp_path):
    buffer = io.BytesIO()
    utils.save_img(buffer, _pixels(3, 3, 4), file_format="png", scale=False)
    buffer.seek(0)
    assert utils.load_img(buffer, color_mode="rgba").mode == "RGBA"
    with pytest.warns(UserWarning, match="RGBA"):
        utils.save_img(tmp_path / "x.jpg", _pixels(3, 3, 4))
    assert Image.open(tmp_path / "x.jpg").format == "JPEG"


@pytest.mark.parametrize("kwargs, error, message", [
    (dict(path=42), TypeError, "io.BytesIO. Received: 42 of type int"),
    (dict(color_mode="hsv"), ValueError, "color_mode='hsv'"),
    (dict(target_size=(2, 2), interpolation="cubic"), ValueError, "interpolation='cubic'"),
])
def test_load_img_rejects_bad_input(tmp_path, kwargs, error, message):
    path = tmp_path / "x.png"
    _write_png(str(path), _pixels(3, 3))
    kwargs = {"path": path, **kwargs}
    with pytest.raises(error, match=message):
        utils.load_img(**kwargs)


def test_preprocessing_image_names_are_the_utils_functions():
    assert tf.keras.preprocessing.image.load_img is utils.load_img
    assert tf.keras.preprocessing.image.img_to_array is utils.img_to_array
    assert tf.keras.preprocessing.image_dataset_from_directory is utils.image_dataset_from_directory
    assert tf.keras.preprocessing.text_dataset_from_directory is utils.text_dataset_from_directory


# -- image_dataset_from_directory -----------------------------------------------------------------------
def test_image_dataset_lists_classes_files_and_labels_in_keras_order(image_dir, capsys):
    ds = utils.image_dataset_from_directory(image_dir, image_size=(4, 4), batch_size=3, shuffle=False)
    assert capsys.readouterr().out == "Found 7 files belonging to 3 classes.\n"
    assert ds.class_names == ["birds", "cats", "dogs"]
    assert ds.file_paths == _files(image_dir)
    assert len(ds) == 3
    images_spec, labels_spec = ds.element_spec
    assert images_spec.shape.as_list() == [None, 4, 4, 3] and images_spec.dtype == tf.float32
    assert labels_spec.shape.as_list() == [None] and labels_spec.dtype == tf.int32
    images, labels = _all(ds)
    assert images.shape == (7, 4, 4, 3) and images.dtype == np.float32
    expected = [["birds", "cats", "dogs"].index(os.path.relpath(p, image_dir).split(os.sep)[0])
                for p in ds.file_paths]
    assert labels.tolist() == expected


def test_image_dataset_pixels_match_the_files(image_dir):
    """Same size: the decoded pixels; half size: the mean of each 2x2 block (bilinear, pixel centres)."""
    same = utils.image_dataset_from_directory(image_dir, labels=None, image_size=(4, 4), shuffle=False,
                                              batch_size=None, verbose=False)
    assert len(same.file_paths) == len(same) == 8  # without labels the hidden folder is walked too
    for path, image in zip(same.file_paths, same):
        oracle = np.asarray(Image.open(path).convert("RGB"), dtype=np.float32)
        if oracle.shape[:2] == (4, 4):
            np.testing.assert_array_equal(image.numpy(), oracle)
        if oracle.shape[:2] == (8, 8):
            blocks = oracle.reshape(4, 2, 4, 2, 3).mean(axis=(1, 3))
            np.testing.assert_allclose(image.numpy(), blocks, rtol=1e-6)


@pytest.mark.parametrize("source, target", [((5, 7), (4, 4)), ((60, 97), (64, 64)), ((100, 33), (17, 50)),
                                             ((8, 8), (3, 11)), ((13, 13), (13, 13))])
def test_numpy_resize_kernels_agree_with_companion_image_resize(source, target):
    """The loader's NumPy kernels (TensorFlow's, bit for bit; see the parity program) against JAX's."""
    pixels = np.random.RandomState(0).randint(0, 256, (*source, 3)).astype(np.uint8)
    for method, atol in (("bilinear", 1e-2), ("bicubic", 0.5), ("nearest", 0)):
        got = _image_dataset._resize(pixels, target, method)
        expected = tf.image.resize(pixels, target, method=method).numpy()
        assert got.dtype == expected.dtype and got.shape == expected.shape
        np.testing.assert_allclose(got, expected, atol=atol, rtol=0)


def test_image_dataset_area_and_lanczos_resize_with_companion_image_resize(image_dir):
    for method in ("area", "lanczos3", "lanczos5"):
        ds = utils.image_dataset_from_directory(image_dir, image_size=(3, 2), shuffle=False, batch_size=None,
                                                interpolation=method, verbose=False)
        image, _ = next(iter(ds))
        oracle = np.asarray(Image.open(ds.file_paths[0]).convert("RGB"))
        np.testing.assert_array_equal(image.numpy(), tf.image.resize(oracle, (3, 2), method=method).numpy())


def test_image_dataset_pad_of_a_sliver_fails_as_tensorflow(tmp_path):
    _write_png(str(tmp_path / "a" / "thin.png"), _pixels(1, 9))
    ds = utils.image_dataset_from_directory(tmp_path, image_size=(5, 2), pad_to_aspect_ratio=True,
                                            verbose=False)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"\(1, 9, 3\) to \(0, 2\)"):
        next(iter(ds))


def test_image_dataset_crop_and_pad_to_aspect_ratio(image_dir):
    birds = Image.open(image_dir / "birds" / "im0.png")  # 4 x 8
    oracle = np.asarray(birds, dtype=np.float32)
    crop = utils.image_dataset_from_directory(image_dir, image_size=(4, 4), shuffle=False, batch_size=None,
                                              crop_to_aspect_ratio=True, verbose=False)
    image, _ = next(iter(crop))
    np.testing.assert_array_equal(image.numpy(), oracle[:, 2:6])
    pad = utils.image_dataset_from_directory(image_dir, image_size=(8, 8), shuffle=False, batch_size=None,
                                             pad_to_aspect_ratio=True, verbose=False)
    image, _ = next(iter(pad))
    expected = np.zeros((8, 8, 3), np.float32)
    expected[2:6] = oracle
    np.testing.assert_array_equal(image.numpy(), expected)


def test_image_dataset_color_modes_nearest_and_channels_first(image_dir):
    def first(**kwargs):
        ds = utils.image_dataset_from_directory(image_dir, image_size=(2, 2), shuffle=False, verbose=False,
                                                **kwargs)
        return next(iter(ds))[0]

    assert first(color_mode="grayscale").shape == (7, 2, 2, 1)
    rgba = first(color_mode="rgba").numpy()
    assert rgba.shape == (7, 2, 2, 4) and (rgba[..., 3] == 255).all()
    nearest = first(interpolation="Nearest")
    assert nearest.dtype == tf.uint8  # as TensorFlow: nearest neighbour keeps the decoded dtype
    assert first(data_format="channels_first").shape == (7, 3, 2, 2)


def test_image_dataset_label_modes(image_dir):
    def labels(**kwargs):
        ds = utils.image_dataset_from_directory(image_dir, image_size=(2, 2), shuffle=False, verbose=False,
                                                **kwargs)
        return ds, _all(ds)[1]

    ints = labels()[1]
    ds, onehot = labels(label_mode="categorical")
    assert ds.element_spec[1].shape.as_list() == [None, 3]
    np.testing.assert_array_equal(onehot, np.eye(3, dtype=np.float32)[ints])
    ds, binary = labels(label_mode="binary", class_names=["dogs", "cats"])
    assert ds.class_names == ["dogs", "cats"] and binary.dtype == np.float32
    assert binary.tolist() == [[0.0]] * 2 + [[1.0]] * 3
    images_only = utils.image_dataset_from_directory(image_dir, image_size=(2, 2), label_mode=None,
                                                     verbose=False)
    assert images_only.class_names is None and images_only.element_spec.shape.as_list() == [None, 2, 2, 3]


def test_image_dataset_explicit_labels_index_every_file_under_the_directory(image_dir):
    found = len(_files(image_dir)) + 1  # with labels given, the hidden folder is walked too
    ds = utils.image_dataset_from_directory(image_dir, labels=list(range(found))[::-1], image_size=(2, 2),
                                            shuffle=False, verbose=False)
    assert ds.class_names == [str(i) for i in range(found)]
    assert _all(ds)[1].tolist() == list(range(found))[::-1]


def test_image_dataset_unbatched_elements(image_dir):
    ds = utils.image_dataset_from_directory(image_dir, image_size=(3, 5), batch_size=None, verbose=False,
                                            seed=1)
    assert len(ds) == 7
    image, label = next(iter(ds))
    assert image.shape == (3, 5, 3) and label.shape == ()


def test_image_dataset_validation_split_is_tensorflows_seeded_permutation(image_dir):
    train, val = utils.image_dataset_from_directory(image_dir, image_size=(2, 2), validation_split=0.3,
                                                    subset="both", seed=5, verbose=False, batch_size=2)
    paths = _files(image_dir)
    np.random.RandomState(5).shuffle(paths)
    count = int(0.3 * len(paths))
    assert train.file_paths == paths[:-count] and val.file_paths == paths[-count:]
    assert len(train) == 3 and len(val) == 1
    names = train.class_names
    for part in (train, val):
        expected = sorted(names.index(os.path.relpath(p, image_dir).split(os.sep)[0])
                          for p in part.file_paths)
        assert sorted(_all(part)[1].tolist()) == expected
    first, again = (utils.image_dataset_from_directory(image_dir, image_size=(2, 2), validation_split=0.3,
                                                       subset="training", seed=5, verbose=False, batch_size=2)
                    for _ in range(2))
    assert first.file_paths == again.file_paths == train.file_paths
    np.testing.assert_array_equal(_all(again)[1], _all(first)[1])  # the same seed, the same order


def test_image_dataset_follows_links_only_when_asked(image_dir, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    _write_png(str(elsewhere / "linked.png"), _pixels(4, 4))
    os.symlink(elsewhere, image_dir / "dogs" / "link")
    count = len(utils.image_dataset_from_directory(image_dir, batch_size=None, verbose=False, seed=0))
    linked = utils.image_dataset_from_directory(image_dir, batch_size=None, verbose=False, seed=0,
                                                follow_links=True)
    assert len(linked) == count + 1


@pytest.mark.parametrize("kwargs, error, message", [
    (dict(label_mode="binary"), ValueError, "exactly 2 classes"),
    (dict(label_mode="sparse"), ValueError, "label_mode='sparse'"),
    (dict(labels="folders"), ValueError, "labels='folders'"),
    (dict(labels=[0, 1]), ValueError, "one label per file: found 8 files.*Received: 2 labels"),
    (dict(labels=[0] * 8, class_names=["cats"]), ValueError, "class_names"),
    (dict(class_names=["cats", "fish"]), ValueError, "fish"),
    (dict(color_mode="hsv"), ValueError, "color_mode='hsv'"),
    (dict(image_size=(2, 2, 2)), ValueError, r"image_size=\(2, 2, 2\)"),
    (dict(interpolation="cubic"), ValueError, "interpolation='cubic'"),
    (dict(interpolation="gaussian"), NotImplementedError, "gaussian"),
    (dict(format="grain"), NotImplementedError, "grain"),
    (dict(validation_split=0.2, subset="training"), ValueError, "seed"),
    (dict(validation_split=1.5, subset="training", seed=1), ValueError, "validation_split=1.5"),
    (dict(validation_split=0.2), ValueError, "subset=None"),
    (dict(validation_split=0.2, subset="test", seed=1), ValueError, "subset='test'"),
    (dict(crop_to_aspect_ratio=True, pad_to_aspect_ratio=True), ValueError, "Only one"),
])
def test_image_dataset_rejects_bad_arguments(image_dir, kwargs, error, message):
    with pytest.raises(error, match=message):
        utils.image_dataset_from_directory(image_dir, verbose=False, **kwargs)


def test_image_dataset_without_images_says_so(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "x.txt").write_text("text")
    with pytest.raises(ValueError, match="No images found"):
        utils.image_dataset_from_directory(tmp_path, verbose=False)


# -- text_dataset_from_directory ------------------------------------------------------------------------
@pytest.fixture
def text_dir(tmp_path):
    root = tmp_path / "texts"
    for name, texts in (("neg", ["bad", "dull film"]), ("pos", ["great", "fine", "café au lait"])):
        (root / name).mkdir(parents=True)
        for i, text in enumerate(texts):
            (root / name / f"{i}.txt").write_text(text, encoding="utf-8")
        (root / name / "skip.md").write_text("ignored")
    return root


def test_text_dataset_reads_the_files_with_their_labels(text_dir):
    ds = utils.text_dataset_from_directory(text_dir, batch_size=2, shuffle=False, verbose=False)
    assert ds.class_names == ["neg", "pos"] and len(ds) == 3
    texts_spec, labels_spec = ds.element_spec
    assert texts_spec.dtype == tf.string and texts_spec.shape.as_list() == [None]
    texts, labels = _all(ds)
    assert texts.tolist() == [b"bad", b"dull film", b"great", b"fine", "café au lait".encode()]
    assert labels.tolist() == [0, 0, 1, 1, 1]


def test_text_dataset_max_length_counts_bytes(text_dir):
    ds = utils.text_dataset_from_directory(text_dir, batch_size=None, shuffle=False, verbose=False,
                                           label_mode=None, max_length=4)
    assert ds.element_spec.shape.as_list() == []
    assert [t.numpy() for t in ds] == [b"bad", b"dull", b"grea", b"fine", "café".encode()[:4]]


def test_text_dataset_split_and_categorical_labels(text_dir):
    train, val = utils.text_dataset_from_directory(text_dir, validation_split=0.4, subset="both", seed=3,
                                                   label_mode="categorical", verbose=False)
    texts = {}
    for name, part in (("train", train), ("val", val)):
        values, labels = _all(part)
        assert labels.shape[1] == 2 and labels.dtype == np.float32
        texts[name] = set(values.tolist())
    assert len(texts["val"]) == 2 and len(texts["train"]) == 3 and not texts["val"] & texts["train"]


def test_text_dataset_rejects_bad_arguments(text_dir, tmp_path):
    with pytest.raises(ValueError, match="max_length=-1"):
        utils.text_dataset_from_directory(text_dir, max_length=-1)
    with pytest.raises(ValueError, match="No text files found"):
        utils.text_dataset_from_directory(tmp_path / "texts" / "neg", labels=None, follow_links=False,
                                          verbose=False, validation_split=0.4, subset="training", seed=1)


# -- split_dataset ---------------------------------------------------------------------------------------
def test_split_dataset_of_an_array_by_fraction_and_count():
    left, right = utils.split_dataset(np.arange(10.0), left_size=0.8)
    assert [float(v) for v in left] == list(range(8)) and [float(v) for v in right] == [8.0, 9.0]
    assert left.element_spec.dtype == tf.float64
    left, right = utils.split_dataset(np.arange(10), left_size=3, right_size=2)
    assert [int(v) for v in left] == [0, 1, 2] and [int(v) for v in right] == [8, 9]
    assert left.element_spec.dtype == tf.int32  # a list of NumPy integers converts as TensorFlow does
    left, _ = utils.split_dataset(np.arange(20).reshape(10, 2), right_size=0.5)
    assert left.element_spec.shape.as_list() == [2] and left.element_spec.dtype == tf.int64


def test_split_dataset_shuffles_as_python_random_with_the_seed():
    left, right = utils.split_dataset(np.arange(10), left_size=0.3, shuffle=True, seed=2)
    order = list(range(10))
    random.seed(2)
    random.shuffle(order)
    assert [int(v) for v in left] == order[:3] and [int(v) for v in right] == order[3:]


def test_split_dataset_of_tuples_lists_and_datasets():
    left, right = utils.split_dataset((np.arange(6.0), np.arange(6)), left_size=4)
    assert [(float(a), int(b)) for a, b in right] == [(4.0, 4), (5.0, 5)]
    assert [s.dtype for s in left.element_spec] == [tf.float64, tf.int64]
    left, _ = utils.split_dataset([np.zeros((4, 2)), np.ones(4)], left_size=1)
    assert isinstance(left.element_spec, tuple)
    left, right = utils.split_dataset(tf.data.Dataset.range(10).batch(3), right_size=4)
    assert [b.numpy().tolist() for b in left] == [[0, 1, 2], [3, 4, 5]]
    assert [b.numpy().tolist() for b in right] == [[6, 7, 8], [9]]
    records = tf.data.Dataset.from_tensor_slices({"a": [1.0, 2.0, 3.0], "b": [b"x", b"y", b"z"]})
    _, right = utils.split_dataset(records, left_size=2)
    assert [{k: v for k, v in e.items()} for e in right.as_numpy_iterator()] == [{"a": 3.0, "b": b"z"}]


@pytest.mark.parametrize("dataset, kwargs, error, message", [
    (np.arange(10), {}, ValueError, "left_size=None and right_size=None"),
    (np.arange(10), dict(left_size=0), ValueError, "left_size=0"),
    (np.arange(10), dict(left_size=10), ValueError, "smaller than 10"),
    (np.arange(10), dict(right_size=1.5), ValueError, "right_size=1.5"),
    (np.arange(10), dict(left_size=np.int64(2)), TypeError, "type\\(left_size\\)=int64"),
    (np.arange(10), dict(left_size="a", right_size="b"), TypeError, "left_size` and `right_size"),
    (np.arange(10), dict(left_size=0.5, right_size=0.6), ValueError, "greater than 1"),
    (np.arange(10), dict(left_size=7, right_size=4), ValueError, "left_size \\+ right_size = 11"),
    (np.arange(10), dict(left_size=0.01), ValueError, "left split empty"),
    (tf.constant([1, 2]), dict(left_size=1), TypeError, "Received: EagerTensor|Received: Tensor"),
    ("abc", dict(left_size=1), TypeError, "Received: str"),
    ([], dict(left_size=1), ValueError, "empty list"),
    ([np.arange(3), np.arange(4)], dict(left_size=1), ValueError, "different lengths"),
    ((np.arange(3), [1, 2, 3]), dict(left_size=1), ValueError, "list at index 1"),
    (np.zeros((0, 2)), dict(left_size=1), ValueError, "empty dataset"),
])
def test_split_dataset_rejects_bad_input(dataset, kwargs, error, message):
    with pytest.raises(error, match=message):
        utils.split_dataset(dataset, **kwargs)
