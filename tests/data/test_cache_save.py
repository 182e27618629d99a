"""cache (memory and files, reused across processes) and save/load round trips."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import companion as tf
from companion._ops._py_function import py_function
from companion.data import Dataset
from tests.data.helpers import spec_shapes, values


def _counted(calls):
    def note(x):
        calls.append(int(x))
        return x
    return lambda x: py_function(note, [x], tf.int64)


def test_memory_cache_example_and_reuse():
    calls = []
    ds = Dataset.range(5).map(_counted(calls)).map(lambda x: x ** 2).cache()
    assert [int(x) for x in ds] == [0, 1, 4, 9, 16]
    assert [int(x) for x in ds] == [0, 1, 4, 9, 16]
    assert calls == [0, 1, 2, 3, 4]


def test_a_partial_first_pass_is_not_cached():
    calls = []
    ds = Dataset.range(5).map(_counted(calls)).cache()
    assert [int(x) for x in ds.take(2)] == [0, 1]
    assert [int(x) for x in ds] == [0, 1, 2, 3, 4]
    assert [int(x) for x in ds] == [0, 1, 2, 3, 4]
    assert calls == [0, 1, 0, 1, 2, 3, 4]


def test_cache_then_shuffle_reshuffles_cached_elements():
    ds = Dataset.range(20).map(lambda x: x * 2).cache().shuffle(20, seed=1)
    first, second = [int(x) for x in ds], [int(x) for x in ds]
    assert sorted(first) == sorted(second) == list(range(0, 40, 2))
    assert first != second


_SCRIPT = textwrap.dedent("""
    import sys
    import companion as tf
    import companion.data
    marker = sys.argv[2]

    def gen():
        open(marker, "a").write("read\\n")
        yield from [(1, "a"), (2, "b"), (3, "c")]

    sig = (tf.TensorSpec([], tf.int32), tf.TensorSpec([], tf.string))
    ds = tf.data.Dataset.from_generator(gen, output_signature=sig).cache(sys.argv[1])
    print([(int(x), s.numpy().decode()) for x, s in ds])
""")


def test_file_cache_is_reused_by_another_process(tmp_path):
    script, marker = tmp_path / "run.py", tmp_path / "marker.txt"
    script.write_text(_SCRIPT)
    prefix = str(tmp_path / "cache")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    command = [sys.executable, str(script), prefix, str(marker)]
    outputs = [subprocess.run(command, capture_output=True, text=True, cwd=root, check=True).stdout
               for _ in range(2)]
    assert outputs[0] == outputs[1] == "[(1, 'a'), (2, 'b'), (3, 'c')]\n"
    assert marker.read_text() == "read\n"  # the second process read the files, not the generator


def test_file_cache_in_process_and_partial_passes_leave_no_files(tmp_path):
    prefix = str(tmp_path / "c")
    ds = Dataset.from_tensor_slices(np.arange(6.0).reshape(3, 2)).cache(prefix)
    list(ds.take(1))
    assert os.listdir(tmp_path) == []
    assert values(ds) == [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]
    assert sorted(os.listdir(tmp_path)) == ["c.data-00000-of-00001", "c.index"]
    assert values(ds) == [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]


def test_save_and_load_example_from_the_docs(tmp_path):
    path = str(tmp_path / "saved_data")
    Dataset.range(2).save(path)
    loaded = Dataset.load(path)
    assert values(loaded) == [0, 1]
    assert spec_shapes(loaded) == ([], "int64")
    assert len(loaded) == 2


@pytest.mark.parametrize("compression", [None, "GZIP"])
def test_save_load_round_trip_of_nested_elements(tmp_path, compression):
    ds = Dataset.from_tensor_slices({"x": np.arange(12, dtype=np.float32).reshape(4, 3),
                                     "label": ["cat", "dog", "", "b\x00"]}).batch(3)
    tf.data.experimental.save(ds, str(tmp_path), compression=compression)
    loaded = tf.data.experimental.load(str(tmp_path))
    assert values(loaded) == values(ds)
    assert spec_shapes(loaded) == spec_shapes(ds)


def test_save_with_shards_and_a_reader_function(tmp_path):
    Dataset.range(10).save(str(tmp_path), shard_func=lambda x: x % 3)
    assert sorted(int(x) for x in Dataset.load(str(tmp_path))) == list(range(10))
    loaded = Dataset.load(str(tmp_path),
                          reader_func=lambda shards: shards.interleave(lambda d: d, cycle_length=3))
    assert sorted(int(x) for x in loaded) == list(range(10))


def test_loading_an_incomplete_folder_is_a_clear_error(tmp_path):
    with pytest.raises(tf.errors.NotFoundError, match="dataset.save"):
        Dataset.load(str(tmp_path))
