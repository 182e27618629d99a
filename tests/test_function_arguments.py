"""`function` arguments TF traces by spec (Variables, datasets), the names of its inputs, and calls
of its concrete functions. Every expected value is what TensorFlow 2.21 gives for the same program
(probed with /work/tfenv; see also tests/parity/function/{variable_arguments, dataset_arguments,
dict_argument_names, concrete_calls}.py)."""

import contextlib
import io

import pytest

import companion as tf


def printed(fn):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        fn()
    return out.getvalue().splitlines()


# -- Variables: one trace per VariableSpec ----------------------------------------------------------

def test_variables_of_one_spec_share_a_trace_and_each_call_writes_its_own():
    a, b = tf.Variable(1.0), tf.Variable(10.0)

    @tf.function
    def step(v, x):
        v.assign_add(x)
        return v * 2.0

    assert float(step(a, tf.constant(1.0))) == 4.0
    assert float(step(b, tf.constant(2.0))) == 24.0
    assert float(step(a, tf.constant(3.0))) == 10.0
    assert (a.numpy(), b.numpy()) == (5.0, 12.0)
    assert step.experimental_get_tracing_count() == 1  # TF 2.21: 1
    step(tf.Variable([1.0, 2.0]), tf.constant([1.0, 1.0]))  # another shape
    assert step.experimental_get_tracing_count() == 2
    step(tf.Variable(3.0, trainable=False), tf.constant(1.0))  # trainable is part of the spec
    assert step.experimental_get_tracing_count() == 3


def test_gradients_reach_the_variable_each_call_passes():
    @tf.function
    def loss(v, x):
        return v * x * x

    for var in (tf.Variable(1.0), tf.Variable(10.0)):
        with tf.GradientTape() as tape:
            y = loss(var, tf.constant(3.0))
        assert float(tape.gradient(y, var)) == 9.0
    assert loss.experimental_get_tracing_count() == 1


def test_a_variable_passed_twice_is_its_own_signature():
    a, b = tf.Variable(6.0), tf.Variable(13.0)

    @tf.function
    def both(u, w):
        u.assign_add(1.0)
        w.assign_add(10.0)
        return u + w

    assert float(both(a, b)) == 30.0 and (a.numpy(), b.numpy()) == (7.0, 23.0)
    assert float(both(a, a)) == 36.0 and a.numpy() == 18.0  # TF 2.21: both writes reach a
    assert float(both(b, a)) == 52.0 and (a.numpy(), b.numpy()) == (28.0, 24.0)
    assert both.experimental_get_tracing_count() == 2
    args, _ = both.get_concrete_function(b, b).structured_input_signature
    assert [spec.alias_id for spec in args] == [0, 0]
    assert repr(args[0]) == "VariableSpec(shape=(), dtype=companion.float32, trainable=True, alias_id=0)"


def test_a_global_read_of_the_traced_variable_follows_the_argument():
    a, b = tf.Variable(28.0), tf.Variable(25.0)

    @tf.function
    def plus_global(v):
        return v + a

    # TF 2.21: the trace read a through the argument's resource, so a call with b reads b twice
    assert (float(plus_global(a)), float(plus_global(b))) == (56.0, 50.0)
    assert plus_global.experimental_get_tracing_count() == 1


def test_a_concrete_function_takes_any_variable_of_its_spec():
    a, b = tf.Variable(5.0), tf.Variable(12.0)

    @tf.function
    def step(v, x):
        v.assign_add(x)
        return v * 2.0

    step(a, tf.constant(0.0))
    concrete = step.get_concrete_function(a, tf.constant(1.0))
    assert step.experimental_get_tracing_count() == 1
    assert float(concrete(a, tf.constant(1.0))) == 12.0 and a.numpy() == 6.0
    assert float(concrete(b, tf.constant(1.0))) == 26.0 and b.numpy() == 13.0
    assert float(concrete(v=b, x=tf.constant(1.0))) == 28.0 and b.numpy() == 14.0
    assert concrete.captured_inputs == []
    assert "Captures:\n  None" in str(concrete)
    assert [t.name for t in concrete.inputs] == ["v:0", "x:0"]
    assert repr(concrete.inputs[0]) == "<companion.Tensor 'v:0' shape=() dtype=resource>"
    with pytest.raises(tf.errors.InvalidArgumentError):  # TF 2.21: a float tensor for the resource
        concrete(tf.constant(1.0), tf.constant(1.0))


def test_variables_in_a_list_are_keyed_by_alias_pattern():
    a, b = tf.Variable(1.0), tf.Variable(2.0)
    traces = []

    @tf.function
    def pair_sum(vs, w):
        traces.append(1)
        return vs[0] + vs[1] + w

    assert float(pair_sum([a, b], a)) == 4.0
    assert float(pair_sum([b, a], b)) == 5.0
    assert float(pair_sum([b, b], b)) == 6.0
    assert pair_sum.experimental_get_tracing_count() == 2  # TF 2.21: [a, b], a and [b, b], b
    (vs, w), _ = pair_sum.get_concrete_function([a, b], a).structured_input_signature
    assert [s.alias_id for s in vs] + [w.alias_id] == [0, 1, 0]


# -- datasets: one trace per DatasetSpec ------------------------------------------------------------

def test_datasets_of_one_element_spec_share_a_trace():
    @tf.function
    def total(ds):
        print("trace", ds.element_spec.shape)
        s = tf.constant(0)
        for x in ds:
            s += x
        return s

    a = tf.data.Dataset.range(5).map(lambda x: tf.cast(x, tf.int32))
    b = tf.data.Dataset.from_tensor_slices(tf.constant([10, 20, 30]))
    lines = printed(lambda: [total(a), total(b), total(a)])
    assert lines == ["trace ()"]
    assert [int(total(d)) for d in (a, b, a)] == [10, 60, 10]
    assert total.experimental_get_tracing_count() == 1
    concrete = total.get_concrete_function(b)
    assert repr(concrete.structured_input_signature[0][0]) == (
        "DatasetSpec(TensorSpec(shape=(), dtype=companion.int32, name=None), TensorShape([]))")
    assert int(concrete(tf.data.Dataset.from_tensor_slices([7, 8]))) == 15
    with pytest.raises(tf.errors.InvalidArgumentError):  # TF 2.21: another element_spec
        concrete(tf.data.Dataset.range(3))
    assert total.experimental_get_tracing_count() == 1


def test_a_dataset_of_fixed_batches_runs_through_the_trace_for_batches_of_none():
    @tf.function
    def batched(ds):
        n = tf.constant(0)
        for x in ds:
            n += tf.reduce_sum(x)
        return n

    ints = tf.data.Dataset.range(7).map(lambda x: tf.cast(x, tf.int32))
    assert int(batched(ints.batch(3))) == 21
    assert int(batched(ints.take(4).batch(3))) == 6
    assert int(batched(ints.take(4).batch(2, drop_remainder=True))) == 6
    assert batched.experimental_get_tracing_count() == 1


def test_a_dataset_and_a_variable_of_a_trace_each_come_from_the_call():
    v = tf.Variable(0.0)

    @tf.function
    def train(ds, scale):
        for feats, label in ds:
            v.assign_add(tf.reduce_sum(feats["a"]) * scale + tf.cast(tf.reduce_sum(label), tf.float32))
        return v.read_value()

    def make(n):
        feats = {"a": tf.reshape(tf.range(n * 2, dtype=tf.float32), [n, 2])}
        return tf.data.Dataset.from_tensor_slices((feats, tf.range(n)))

    assert [float(train(make(n), tf.constant(s))) for n, s in ((3, 1.0), (5, 1.0), (3, 2.0))] == [
        18.0, 73.0, 106.0]
    assert train.experimental_get_tracing_count() == 1


# -- input names and dict order -------------------------------------------------------------------------

def test_dict_arguments_keep_their_order_and_name_inputs_as_tf():
    @tf.function
    def f(d, lst, x=None):
        for k in d:
            print(k, d[k])
        for t in lst:
            print(t)
        return d["zeta"] + d["alpha"]

    d = {"zeta": tf.constant(1.0), "alpha": tf.constant(2.0), "mid": tf.constant([1, 2])}
    lst = [tf.constant(1), tf.constant(2)]
    assert printed(lambda: f(d, lst)) == [
        'zeta Tensor("d:0", shape=(), dtype=float32)', 'alpha Tensor("d_1:0", shape=(), dtype=float32)',
        'mid Tensor("d_2:0", shape=(2,), dtype=int32)', 'Tensor("lst:0", shape=(), dtype=int32)',
        'Tensor("lst_1:0", shape=(), dtype=int32)']
    concrete = f.get_concrete_function(d, lst)
    args, _ = concrete.structured_input_signature
    assert list(args[0]) == ["zeta", "alpha", "mid"]
    assert [s.name for s in args[0].values()] + [s.name for s in args[1]] == [
        "d_zeta", "d_alpha", "d_mid", "lst_0", "lst_1"]
    assert [t.name for t in concrete.inputs] == ["d_1:0", "d_2:0", "d:0", "lst:0", "lst_1:0"]
    assert "d (POSITIONAL_OR_KEYWORD): Dict[['zeta', " in str(concrete)
    # another insertion order is the same signature (TF 2.21 does not retrace)
    f({"alpha": tf.constant(2.0), "mid": tf.constant([1, 2]), "zeta": tf.constant(1.0)}, lst)
    assert f.experimental_get_tracing_count() == 1
    # a TensorSpec's own name names its input, and is a signature of its own
    named = {"zeta": tf.TensorSpec([], name="zz"), "alpha": tf.TensorSpec([]),
             "mid": tf.TensorSpec([2], tf.int32)}
    lines = printed(lambda: f.get_concrete_function(named, lst))
    assert lines[:3] == ['zeta Tensor("zz:0", shape=(), dtype=float32)',
                         'alpha Tensor("d:0", shape=(), dtype=float32)',
                         'mid Tensor("d_1:0", shape=(2,), dtype=int32)']
    assert f.experimental_get_tracing_count() == 2


def test_nested_and_star_arguments_are_named_by_their_path():
    @tf.function
    def h(*args):
        return args[0]

    concrete = h.get_concrete_function(tf.constant(1), (tf.constant(2), tf.constant(3)))
    first, (second, third) = concrete.structured_input_signature[0]
    assert [first.name, second.name, third.name] == ["args_0", "args_1_0", "args_1_1"]
    assert [t.name for t in concrete.inputs] == ["args_0:0", "args_1:0", "args_1_1:0"]

    @tf.function
    def k(d):
        return d["a"]["x"] + d["b"][1]

    nested = {"b": (tf.constant(1.0), tf.constant(2.0)), "a": {"y": tf.constant(3.0), "x": tf.constant(4.0)}}
    ck = k.get_concrete_function(nested)
    assert [t.name for t in ck.inputs] == ["d_3:0", "d_2:0", "d:0", "d_1:0"]  # TF 2.21
    assert float(ck({"a": {"x": tf.constant(4.0), "y": tf.constant(3.0)},
                     "b": (tf.constant(1.0), tf.constant(2.0))})) == 6.0


# -- concrete function calls and what they show --------------------------------------------------------

def test_a_concrete_function_binds_the_structured_then_the_flat_signature():
    w = tf.Variable([1.0, 2.0])

    @tf.function
    def f(x, y, scale=2.0):
        return {"sum": x + y + w, "prod": x * y * scale}

    cf = f.get_concrete_function(tf.TensorSpec([2], tf.float32), tf.TensorSpec([2], tf.float32, name="yy"))
    one, two = tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])
    for call in (lambda: cf(one, two), lambda: cf(x=one, yy=two), lambda: cf(one, yy=two),
                 lambda: cf(one, two, 2.0), lambda: cf(x=one, y=two, scale=2.0)):
        assert call()["prod"].numpy().tolist() == [6.0, 16.0]
    for call, reason in ((lambda: cf(x=one, y=two), "missing required arguments: yy"),
                         (lambda: cf(x=one, y=two, scale=3.0), "missing required arguments: yy"),
                         (lambda: cf(one, two, two), r"f\(x, yy\) takes 2 positional arguments, got 3"),
                         (lambda: cf(one, two, z=two), "got unexpected keyword arguments: z")):
        with pytest.raises(TypeError, match=reason):  # TF 2.21's flat-signature reasons
            call()
    assert cf.output_shapes == {"sum": tf.TensorShape([2]), "prod": tf.TensorShape([2])}
    assert cf.output_dtypes == {"sum": tf.float32, "prod": tf.float32}
    assert cf.captured_inputs == [w] and len(cf.trainable_variables) == 1
    assert str(cf.structured_outputs) == (
        "{'sum': <companion.Tensor 'Identity_1:0' shape=(2,) dtype=float32>, "
        "'prod': <companion.Tensor 'Identity:0' shape=(2,) dtype=float32>}")
    assert [t.name for t in cf.outputs] == ["Identity:0", "Identity_1:0"]
    assert str(cf.function_type) == (
        "(x: TensorSpec(shape=(2,), dtype=companion.float32, name=None), y: TensorSpec(shape=(2,), "
        "dtype=companion.float32, name='yy'), scale: Literal[2.0]) -> Dict[['sum', TensorSpec(shape=(2,), "
        "dtype=companion.float32, name=None)], ['prod', TensorSpec(shape=(2,), dtype=companion.float32, "
        "name=None)]]")
    assert list(cf.function_type.parameters) == ["x", "y", "scale"]


def test_a_returned_python_number_is_an_output_tensor():
    @tf.function
    def g(x):
        return x * 2, [x + 1, 3]

    cg = g.get_concrete_function(tf.constant(1))
    assert cg.output_shapes == (tf.TensorShape([]), [tf.TensorShape([]), tf.TensorShape([])])
    assert cg.output_dtypes == (tf.int32, [tf.int32, tf.int32])
    assert [t.name for t in cg.outputs] == ["Identity:0", "Identity_1:0", "Identity_2:0"]
    out = cg(x=tf.constant(5))
    assert (int(out[0]), int(out[1][0]), int(out[1][1])) == (10, 6, 3)


def test_structured_arguments_must_match_the_traced_structure_and_values():
    @tf.function
    def p(x, pair, n=3):
        return x * pair[0] + pair[1] + n

    cp = p.get_concrete_function(tf.TensorSpec([2]), (tf.constant(1.0), tf.TensorSpec([], name="bias")))
    one = tf.constant([1.0, 2.0])
    assert cp([1.0, 2.0], (2.0, 1.0), 3).numpy().tolist() == [6.0, 8.0]  # Python values convert
    assert cp(one, (tf.constant(2.0), tf.constant(1.0)), 3).numpy().tolist() == [6.0, 8.0]
    assert cp(one, bias=tf.constant(1.0), pair=tf.constant(2.0)).numpy().tolist() == [6.0, 8.0]  # flat
    for call in (lambda: cp(one, (tf.constant(2.0), tf.constant(1.0))),  # n missing: TF binds no defaults
                 lambda: cp(one, (tf.constant(2.0), tf.constant(1.0)), 4),  # not the traced n
                 lambda: cp(tf.constant([1.0, 2.0, 3.0]), (tf.constant(2.0), tf.constant(1.0)), 3),
                 lambda: cp(one, pair_1=tf.constant(1.0), pair=tf.constant(2.0))):
        with pytest.raises(TypeError):
            call()
    assert [t.name for t in cp.inputs] == ["x:0", "pair:0", "bias:0"]
    x, (first, bias), n = cp.structured_input_signature[0]
    assert (x.name, first.name, bias.name, n) == ("x", "pair_0", "bias", 3)


def test_string_arguments_trace_once_per_spec_and_compute_on_each_call_s_strings(capsys):
    # TF 2.21: one trace for TensorSpec([], string), whatever the strings; each call sees its own
    # values (before, an input_signature reused the first call's strings: length("de") gave 3)
    @tf.function(input_signature=[tf.TensorSpec([], tf.string)])
    def length(s):
        print("trace", s)
        return tf.strings.length(s)

    assert [int(length(tf.constant(w))) for w in ("abc", "de", "abc")] + [int(length("wxyz"))] == [3, 2, 3, 4]
    assert length.experimental_get_tracing_count() == 1
    assert capsys.readouterr().out == 'trace Tensor("s:0", shape=(), dtype=string)\n'

    @tf.function
    def shout(s, n):
        return tf.strings.upper(s) + "!", n * 2

    assert [shout(tf.constant(w), tf.constant(1))[0].numpy() for w in ("hi", "there")] == [b"HI!", b"THERE!"]
    assert shout.experimental_get_tracing_count() == 1
    concrete = shout.get_concrete_function(tf.TensorSpec([], tf.string), tf.TensorSpec([], tf.int32))
    assert concrete(tf.constant("bye"), tf.constant(3))[0].numpy() == b"BYE!"
    assert shout.experimental_get_tracing_count() == 1
    with pytest.raises(TypeError):  # a string of another shape does not bind
        concrete(tf.constant(["a", "b"]), tf.constant(3))


def test_a_string_spec_with_unknown_size_takes_any_length():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def joined(words):
        return tf.strings.reduce_join(words, separator="-")

    assert joined(tf.constant(["a", "b"])).numpy() == b"a-b"
    assert joined(tf.constant(["x", "y", "z"])).numpy() == b"x-y-z"
    assert joined.get_concrete_function()(tf.constant(["p"])).numpy() == b"p"
    assert joined.experimental_get_tracing_count() == 1
