"""CSV reading: CsvDataset (defaults, select_cols), make_csv_dataset (type inference, label, batches,
select_columns, na_value, endless repeat), io.decode_csv (eager and in Dataset.map)."""
import os
import tempfile

import tensorflow as tf

d = tempfile.mkdtemp()
path = os.path.join(d, "titanic.csv")
with open(path, "w") as f:
    f.write("survived,sex,age,fare,class,note\n")
    f.write('0,male,22.0,7.25,Third,"a, b"\n')
    f.write("1,female,38.0,71.2833,First,\n")
    f.write("1,female,,7.925,Third,x\n")
    f.write("0,male,35.0,8.05,Third,y\n")
    f.write("1,male,28,13,Second,z\n")
ds = tf.data.experimental.CsvDataset(path, [tf.int32, ["?"], [0.0], [0.0], [""], ["none"]], header=True)
for row in ds:
    print([t.numpy() for t in row])
print(ds.element_spec)
ds = tf.data.experimental.CsvDataset(path, [[0.0], [0.0]], header=True, select_cols=[2, 3])
print([[float(v) for v in r] for r in ds])
batches = tf.data.experimental.make_csv_dataset(path, batch_size=2, label_name="survived", num_epochs=1,
                                                shuffle=False)
for features, label in batches:
    print({k: v.numpy() for k, v in features.items()}, label.numpy())
print(batches.element_spec)
b2 = tf.data.experimental.make_csv_dataset(path, batch_size=2, select_columns=["age", "class"], num_epochs=1,
                                           shuffle=False, na_value="?")
for f in b2:
    print({k: v.numpy() for k, v in f.items()})
b3 = tf.data.experimental.make_csv_dataset(path, batch_size=4, shuffle=False)
print(len(list(b3.take(3))), {k: v.shape for k, v in next(iter(b3)).items()})
print(tf.io.decode_csv(["1,2.5,x", "3,,y"], [[0], [1.0], [""]]))
print(tf.io.decode_csv(tf.constant([["1;2"], ["3;4"]]), [[0], [0]], field_delim=";"))
try:
    tf.io.decode_csv(["1,2"], [[0]])
except Exception as e:
    print(type(e).__name__)
try:
    tf.io.decode_csv([","], [tf.constant([], tf.int32), [0]])
except Exception as e:
    print(type(e).__name__)
lines = tf.data.TextLineDataset(path).skip(1).map(
    lambda line: tf.io.decode_csv(line, [[0], [""], [0.0], [0.0], [""], [""]]))
print([float(r[2]) for r in lines])
