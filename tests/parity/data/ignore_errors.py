"""Dataset.ignore_errors: failing map elements, string parsing, CSV records, batches of mixed shapes."""
import os
import tempfile

import tensorflow as tf

values = tf.data.Dataset.from_tensor_slices([1.0, 0.0, 2.0, 0.0, 4.0])
inverted = values.map(lambda x: tf.debugging.check_numerics(1.0 / x, "inf")).ignore_errors()
print([float(x) for x in inverted])
print(int(inverted.cardinality()), int(tf.data.Dataset.range(3).ignore_errors().cardinality()))
print(int(tf.data.Dataset.range(3).repeat().ignore_errors().cardinality()))
words = tf.data.Dataset.from_tensor_slices(["1", "x", "3"]).map(tf.strings.to_number)
print([float(x) for x in words.ignore_errors()])
d = tempfile.mkdtemp()
path = os.path.join(d, "bad.csv")
with open(path, "w") as f:
    f.write("a,b\n1,x\nbad,y\n3,z\n")
rows = tf.data.experimental.CsvDataset(path, [[0], [""]], header=True)
print([int(a) for a, _ in rows.ignore_errors()])
ds = tf.data.experimental.make_csv_dataset(path, 5, column_defaults=[[0], [""]], num_epochs=1, shuffle=False,
                                           ignore_errors=True)
print({k: v.numpy().tolist() for k, v in next(iter(ds)).items()})
shapes = tf.data.Dataset.range(4).map(lambda x: tf.range(x % 2 + 1)).batch(2).ignore_errors()
print(len(list(shapes)))
