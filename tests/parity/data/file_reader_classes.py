"""The file readers are Dataset classes (isinstance, type names, reprs); FixedLengthRecordDataset's records,
parallel reads and errors; empty file lists read no records."""
import gzip
import os
import tempfile

import tensorflow as tf

d = tempfile.mkdtemp()
a, b, g, t = (os.path.join(d, name) for name in ("a.bin", "b.bin", "g.gz", "t.txt"))
with open(a, "wb") as f:
    f.write(b"HH" + b"abcdefghijkl" + b"F")
with open(b, "wb") as f:
    f.write(b"HH" + b"mnopqr" + b"F")
with open(g, "wb") as f:
    f.write(gzip.compress(b"xyzuvw"))
with open(t, "w") as f:
    f.write("1,x\n2,y\n")

ds = tf.data.FixedLengthRecordDataset([a, b], 3, header_bytes=2, footer_bytes=1)
print(type(ds).__name__, isinstance(ds, tf.data.FixedLengthRecordDataset), isinstance(ds, tf.data.Dataset))
print(ds.element_spec.shape, ds.element_spec.dtype.name)
print([r.numpy() for r in ds])
print([r.numpy() for r in tf.data.FixedLengthRecordDataset([a, b], 3, 2, 1, num_parallel_reads=2)])
print([r.numpy() for r in tf.data.FixedLengthRecordDataset(a, 4, 2, 1)])
print([r.numpy() for r in tf.data.FixedLengthRecordDataset(g, 2, compression_type="GZIP")])
print([r.numpy() for r in tf.data.FixedLengthRecordDataset(a, 5, 2, 1).take(0)])
for path, size in ((a, 5), (os.path.join(d, "none"), 5)):
    try:
        print([r.numpy() for r in tf.data.FixedLengthRecordDataset(path, size, 2, 1)])
    except tf.errors.OpError as error:
        print(type(error).__name__, "body length" in str(error), "No such file" in str(error))

readers = [(tf.data.TFRecordDataset([]), tf.data.TFRecordDataset),
           (tf.data.TextLineDataset(t), tf.data.TextLineDataset),
           (tf.data.experimental.CsvDataset(t, [tf.int32, ["?"]]), tf.data.experimental.CsvDataset)]
for dataset, reader in readers:
    print(type(dataset).__name__, isinstance(dataset, reader), isinstance(dataset, tf.data.Dataset),
          isinstance(dataset.map(lambda *x: x), reader), repr(dataset).split(" ")[0])
print(list(tf.data.TFRecordDataset([])), list(tf.data.TextLineDataset([])))
print([[v.numpy() for v in row] for row in readers[2][0]])
