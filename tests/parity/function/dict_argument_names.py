"""Names of a traced function's inputs for dicts, lists, *args and **kwargs, and the dict order it sees."""
import tensorflow as tf


@tf.function
def f(d, lst, x=None):
    for k in d:
        print(k, d[k])
    for t in lst:
        print(t)
    if x is not None:
        for k in x:
            print(k, x[k])
    return d["zeta"] + d["alpha"]


d = {"zeta": tf.constant(1.0), "alpha": tf.constant(2.0), "mid": tf.constant([1, 2])}
lst = [tf.constant(1), tf.constant(2)]
print(f(d, lst))
cf = f.get_concrete_function(d, lst)
print(cf.structured_input_signature)
print(cf.inputs)
print(cf)
print(f(d, lst, x={"b": tf.constant(1.0), "a": tf.constant(2.0)}))
print(f.get_concrete_function(d, lst, x={"b": tf.constant(1.0), "a": tf.constant(2.0)}).inputs)
print(f({"alpha": tf.constant(2.0), "mid": tf.constant([1, 2]), "zeta": tf.constant(1.0)}, lst))
print(f.experimental_get_tracing_count())
named = {"zeta": tf.TensorSpec([], name="zz"), "alpha": tf.TensorSpec([]),
         "mid": tf.TensorSpec([2], tf.int32)}
cf3 = f.get_concrete_function(named, [tf.constant(1), tf.TensorSpec([], tf.int32)])
print(cf3.structured_input_signature)
print(cf3.inputs)
print(cf3(d, lst, None))
print(f.experimental_get_tracing_count())


@tf.function
def g(**kw):
    for k, v in kw.items():
        print(k, v)
    return kw["b"]


g(b=tf.constant(1), a=tf.constant(2.0))
print(g.get_concrete_function(b=tf.constant(1), a=tf.constant(2.0)).structured_input_signature)
g(a=tf.constant(2.0), b=tf.constant(1))
print(g.experimental_get_tracing_count())


@tf.function
def h(*args):
    print(args)
    return args[0]


h(tf.constant(1), (tf.constant(2), tf.constant(3)))
ch = h.get_concrete_function(tf.constant(1), (tf.constant(2), tf.constant(3)))
print(ch.structured_input_signature)
print(ch.inputs)


@tf.function
def k(d):
    return d["a"]["x"] + d["b"][1]


nested = {"b": (tf.constant(1.0), tf.constant(2.0)), "a": {"y": tf.constant(3.0), "x": tf.constant(4.0)}}
ck = k.get_concrete_function(nested)
print(ck.structured_input_signature)
print(ck.inputs)
print(ck(nested))
print(ck({"a": {"x": tf.constant(4.0), "y": tf.constant(3.0)}, "b": (tf.constant(1.0), tf.constant(2.0))}))
