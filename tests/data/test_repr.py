"""A Dataset's repr names TensorFlow 2.21's dataset class for each transformation (``<_MapDataset ...>``)."""

import companion as tf
from companion.data import Dataset


def test_reprs_name_tfs_classes():
    # TF 2.21's reprs for the same pipelines
    ds = Dataset.range(6)
    cases = {
        "_RangeDataset": ds, "_TensorSliceDataset": Dataset.from_tensor_slices([1]),
        "_TensorDataset": Dataset.from_tensors(1), "_MapDataset": ds.map(lambda x: x),
        "_ParallelMapDataset": ds.map(lambda x: x, num_parallel_calls=2),
        "_FilterDataset": ds.filter(lambda x: True), "_BatchDataset": ds.batch(2),
        "_ParallelBatchDataset": ds.batch(2, num_parallel_calls=2), "_UnbatchDataset": ds.batch(2).unbatch(),
        "_PaddedBatchDataset": ds.padded_batch(2), "_ShuffleDataset": ds.shuffle(2),
        "_RepeatDataset": ds.repeat(), "_TakeDataset": ds.take(1), "_SkipDataset": ds.skip(1),
        "_ShardDataset": ds.shard(2, 0), "_PrefetchDataset": ds.prefetch(1), "CacheDataset": ds.cache(),
        "_ZipDataset": ds.enumerate(), "_ConcatenateDataset": ds.concatenate(ds),
        "_FlatMapDataset": ds.flat_map(lambda x: Dataset.from_tensors(x)),
        "_InterleaveDataset": ds.interleave(lambda x: Dataset.from_tensors(x)),
        "_ParallelInterleaveDataset": ds.interleave(lambda x: Dataset.from_tensors(x), num_parallel_calls=2),
        "_ScanDataset": ds.scan(tf.constant(0, tf.int64), lambda s, x: (s, x)),
        "_TakeWhileDataset": ds.take_while(lambda x: True), "_WindowDataset": ds.window(2),
        "_OptionsDataset": ds.with_options(tf.data.Options()),
    }
    for name, dataset in cases.items():
        assert repr(dataset).split(" ")[0] == "<" + name, (name, repr(dataset))
    assert repr(ds.batch(4, drop_remainder=True)) == (
        "<_BatchDataset element_spec=TensorSpec(shape=(4,), dtype=companion.int64, name=None)>")
