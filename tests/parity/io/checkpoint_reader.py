"""tf.train.load_checkpoint: a checkpoint's values, shapes and dtypes by key, without the objects."""
import os
import tempfile

import tensorflow as tf

d = tempfile.mkdtemp()
p = tf.train.Checkpoint(v=tf.Variable([1.0, 2.0]), n=tf.Variable(3)).save(os.path.join(d, "ckpt"))
for source in (p, d):
    r = tf.train.load_checkpoint(source)
    print(sorted(k for k in r.get_variable_to_shape_map() if k != "_CHECKPOINTABLE_OBJECT_GRAPH"))
    key = "v/.ATTRIBUTES/VARIABLE_VALUE"
    print(r.get_tensor(key), r.get_variable_to_dtype_map()[key], r.get_variable_to_shape_map()[key])
    n = "n/.ATTRIBUTES/VARIABLE_VALUE"
    print(r.get_tensor(n), r.get_variable_to_dtype_map()[n])
    print(r.has_tensor(key), r.has_tensor("w/.ATTRIBUTES/VARIABLE_VALUE"))
    try:
        r.get_tensor("w/.ATTRIBUTES/VARIABLE_VALUE")
    except Exception as e:
        print(type(e).__name__, isinstance(e, tf.errors.NotFoundError))
