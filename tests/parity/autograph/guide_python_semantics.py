"""Python semantics under tf.function as TF's guide "Better performance with tf.function" shows them:
side effects at trace time, iterators, captured Variables and globals, leaked tensors, Variables made
in a function, AutoGraph loops and branches, TensorArray accumulation."""
import tensorflow as tf


@tf.function
def f(x):
    print("Traced with", x)
    tf.print("Executed with", x)


f(1)
f(1)
f(2)

external_list = []


@tf.function
def side_effect(x):
    print('Python side effect')
    external_list.append(x)


side_effect(1)
side_effect(1)
side_effect(1)
print(len(external_list))


@tf.function
def buggy_consume_next(iterator):
    tf.print("Value:", next(iterator))


iterator = iter([1, 2, 3])
buggy_consume_next(iterator)
buggy_consume_next(iterator)

ds = tf.data.Dataset.from_tensor_slices([1, 2, 3])
iterator = iter(ds)
buggy_consume_next(iterator)
buggy_consume_next(iterator)

external_var = tf.Variable(3)


@tf.function
def times_var(x):
    return x * external_var


traced_f = times_var.get_concrete_function(4)
print(traced_f(4))
external_var = tf.Variable(4)
try:
    traced_f(4)
except tf.errors.FailedPreconditionError as e:
    print(type(e).__name__)

x = None


@tf.function
def leaky_function(a):
    global x
    x = a + 1
    return a + 2


print(leaky_function(tf.constant(1)).numpy())
try:
    x.numpy()
except AttributeError as expected:
    print(type(expected).__name__)


@tf.function
def buggy_add():
    return 1 + foo


@tf.function
def recommended_add(foo):
    return 1 + foo


foo = 1
print("Buggy:", buggy_add())
print("Correct:", recommended_add(foo))
foo = 100
print("Buggy:", buggy_add())
print("Correct:", recommended_add(foo))


class SimpleModel(tf.Module):
    def __init__(self):
        self.bias = 0.
        self.weight = 2.


@tf.function
def evaluate(model, x):
    return model.weight * x + model.bias


simple_model = SimpleModel()
x = tf.constant(10.)
print(evaluate(simple_model, x))
simple_model.bias += 5.0
print(evaluate(simple_model, x))


class BetterModel:
    def __init__(self):
        self.bias = tf.Variable(0.)
        self.weight = tf.Variable(2.)


better_model = BetterModel()
print(evaluate(better_model, x))
better_model.bias.assign_add(5.0)
print(evaluate(better_model, x))


@tf.function
def makes_variable(x):
    v = tf.Variable(1.0)
    return v


try:
    makes_variable(1.0)
except ValueError as e:
    print(type(e).__name__)


class Count(tf.Module):
    def __init__(self):
        self.count = None

    @tf.function
    def __call__(self):
        if self.count is None:
            self.count = tf.Variable(0)
        return self.count.assign_add(1)


c = Count()
print(c())
print(c())


@tf.function
def squash(x):
    while tf.reduce_sum(x) > 1:
        x = tf.tanh(x)
    return x


print(squash(tf.constant([0.5, 0.6, 0.7])))


@tf.function
def fizzbuzz(n):
    for i in tf.range(1, n + 1):
        print('Tracing for loop')
        if i % 15 == 0:
            print('Tracing fizzbuzz branch')
        elif i % 3 == 0:
            print('Tracing fizz branch')
        elif i % 5 == 0:
            print('Tracing buzz branch')
        else:
            print('Tracing default branch')


fizzbuzz(tf.constant(5))
fizzbuzz(tf.constant(20))


def rnn_step(inp, state):
    return inp + state


@tf.function
def dynamic_rnn(rnn_step, input_data, initial_state):
    input_data = tf.transpose(input_data, [1, 0, 2])
    max_seq_len = input_data.shape[0]
    states = tf.TensorArray(tf.float32, size=max_seq_len)
    state = initial_state
    for i in tf.range(max_seq_len):
        state = rnn_step(input_data[i], state)
        states = states.write(i, state)
    return tf.transpose(states.stack(), [1, 0, 2])


print(dynamic_rnn(rnn_step, tf.ones([2, 3, 4]), tf.zeros([2, 4])))
