"""An eager `Strategy.run` of a mirrored strategy on one replica calls the function as written (TF)."""

import logging

import pytest

import companion as tf
from companion.distribute import _strategy


@pytest.fixture
def strategy():
    return tf.distribute.MirroredStrategy(["/cpu:0"])


def test_each_eager_call_runs_the_python_and_a_function_traces_it_again(strategy, monkeypatch):
    monkeypatch.setattr(_strategy, "_eager_warnings_left", 5)
    with strategy.scope():
        v = tf.Variable(1.0)
    ran = []

    def step(x):
        ran.append(x.is_traced)
        v.assign_add(x)
        return tf.distribute.get_replica_context().all_reduce("SUM", x * 2.0)

    results = [float(strategy.run(step, args=(tf.constant(float(i)),))) for i in range(3)]
    assert results == [0.0, 2.0, 4.0] and v.numpy() == 4.0  # TF 2.21's values
    assert ran == [False, False, False]
    staged = tf.function(lambda x: strategy.run(step, args=(x,)))
    assert float(staged(tf.constant(2.0))) == 4.0 and float(staged(tf.constant(3.0))) == 6.0
    assert ran == [False, False, False, True] and v.numpy() == 9.0


def test_the_eager_overhead_warning_is_logged_for_the_first_five_calls(strategy, monkeypatch, caplog):
    monkeypatch.setattr(_strategy, "_eager_warnings_left", 5)
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        for _ in range(7):
            strategy.run(lambda: tf.constant(1.0))
    texts = [record.getMessage() for record in caplog.records if record.name == "tensorflow"]
    assert texts == ["Using MirroredStrategy eagerly has significant overhead currently. We will be working "
                     "on improving this in the future, but for now please wrap `call_for_each_replica` or "
                     "`experimental_run` or `run` inside a tf.function to get the best performance."] * 5


def test_a_one_replica_per_replica_argument_arrives_as_its_value(strategy):
    dataset = strategy.experimental_distribute_dataset(tf.data.Dataset.range(4).batch(2))
    seen = [strategy.run(lambda batch: batch + 1, args=(batch,)).numpy().tolist() for batch in dataset]
    assert seen == [[1, 2], [3, 4]]
