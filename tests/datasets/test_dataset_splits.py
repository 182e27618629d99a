"""Split strings: tfds's slicing arithmetic (rounding='closest', Python's round) and its errors."""

import pytest

from companion.datasets._splits import Instruction, resolve

SIZES = {"train": 569, "test": 100}


def _ranges(spec, sizes=SIZES):
    return [(i.name, i.start, i.stop) for i in resolve(spec, sizes)]


def test_whole_split_and_sum():
    assert _ranges("train") == [("train", 0, 569)]
    assert _ranges("train+test") == [("train", 0, 569), ("test", 0, 100)]
    assert _ranges("all") == [("train", 0, 569), ("test", 0, 100)]


def test_percent_slices_round_to_the_closest_example():
    # tfds: bound = int(round(percent * n / 100)): 80% of 569 = 455.2 → 455, 90% = 512.1 → 512
    assert _ranges("train[:80%]") == [("train", 0, 455)]
    assert _ranges("train[80%:90%]") == [("train", 455, 512)]
    assert _ranges("train[90%:]") == [("train", 512, 569)]
    assert _ranges("train[:-20%]") == [("train", 0, 455)]


def test_percent_slices_use_round_half_to_even():
    sizes = {"train": 10}
    assert _ranges("train[:25%]", sizes) == [("train", 0, 2)]   # 2.5 → 2
    assert _ranges("train[:35%]", sizes) == [("train", 0, 4)]   # 3.5 → 4
    assert _ranges("train[:50.5%]", {"train": 100}) == [("train", 0, 50)]  # 50.5 → 50


def test_consecutive_percent_slices_partition_the_split():
    for n in (1, 7, 99, 569, 1797):
        parts = [resolve(f"train[{a}%:{b}%]", {"train": n})[0] for a, b in ((0, 33), (33, 66), (66, 100))]
        assert sum(p.num_examples for p in parts) == n
        assert parts[0].stop == parts[1].start and parts[1].stop == parts[2].start


def test_absolute_slices():
    assert _ranges("train[10:20]") == [("train", 10, 20)]
    assert _ranges("train[-10:]") == [("train", 559, 569)]
    assert _ranges("test[:5]+train[5:7]") == [("test", 0, 5), ("train", 5, 7)]
    assert _ranges("train[20:10]") == [("train", 20, 20)]  # empty, as a Python slice
    assert resolve("train[1:3]", SIZES) == [Instruction("train", 1, 3)]


@pytest.mark.parametrize("spec, message", [
    ("validation", "Unknown split 'validation'"),
    ("train[:80]]", "Unrecognized split format"),
    ("train[5]", "colon"),
    ("train[:]", "Unrecognized split slice"),
    ("train[:101%]", r"\[-100, 100\]"),
    ("train[:600]", "incompatible with 569"),
    ("train[:1.5]", "integers"),
    ("all[:50%]", "cannot be sliced"),
])
def test_errors(spec, message):
    with pytest.raises(ValueError, match=message):
        resolve(spec, SIZES)


def test_not_a_string():
    with pytest.raises(TypeError, match="string"):
        resolve(3, SIZES)
