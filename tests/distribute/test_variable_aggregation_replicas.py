"""Variables with an aggregation, updated inside Strategy.run on 2 forced CPU devices.

TF 2.21 (two logical CPUs, each replica adding replica_id + 1 to a Variable starting at 10)
gives SUM 13.0, MEAN 11.5 and ONLY_FIRST_REPLICA 11.0 on both copies. (With NONE, TF leaves the
copies different, 11.0 and 12.0; companion keeps them equal, averaged.)
"""

import pytest

from tests.distribute.replicas import run_with_devices

pytestmark = pytest.mark.slow

AGGREGATED = """
strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    variables = {a.name: tf.Variable(10.0, aggregation=a) for a in tf.VariableAggregation}

@tf.function
def step():
    def fn():
        replica = tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32)
        for v in variables.values():
            v.assign_add(replica + 1.0)
        return replica
    return strategy.run(fn)

replicas = step()
emit(values={k: float(v) for k, v in variables.items()},
     replicas=[int(r) for r in strategy.experimental_local_results(replicas)],
     in_scope=strategy.extended.variable_created_in_scope(variables["SUM"]),
     cross=tf.distribute.in_cross_replica_context())
"""


def test_aggregations_combine_the_replicas_updates_as_tf_does():
    out = run_with_devices(AGGREGATED, devices=2)
    # (a MirroredVariable's copies are one replicated array: one value stands for both)
    assert out["values"] == {"SUM": 13.0, "MEAN": 11.5, "ONLY_FIRST_REPLICA": 11.0,
                             "NONE": 11.5}  # NONE: companion averages (TF leaves them different)
    assert out["replicas"] == [0, 1]
    assert out["in_scope"] is True and out["cross"] is False
