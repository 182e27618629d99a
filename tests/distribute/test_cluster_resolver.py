"""TFConfigClusterResolver and TPUClusterResolver against TensorFlow's documented TF_CONFIG examples."""

import json

import jax
import pytest

import companion as tf
from companion.distribute import _tpu_system
from companion.distribute.cluster_resolver import ClusterSpec, TFConfigClusterResolver, TPUClusterResolver

CHIEF_AND_WORKERS = {"cluster": {"chief": ["host0:2222"], "worker": ["host1:2222", "host2:2222"]},
                     "task": {"type": "worker", "index": 1}}
WORKERS_ONLY = {"cluster": {"worker": ["localhost:12345", "localhost:23456"]},
                "task": {"type": "worker", "index": 0}}


def with_task(config, task_type, index):
    return dict(config, task={"type": task_type, "index": index})


def test_reads_the_environment_variable(monkeypatch):
    monkeypatch.setenv("TF_CONFIG", json.dumps(CHIEF_AND_WORKERS))
    resolver = TFConfigClusterResolver()
    assert (resolver.task_type, resolver.task_id) == ("worker", 1)
    assert resolver.cluster_spec().as_dict() == CHIEF_AND_WORKERS["cluster"]
    assert resolver.master() == "host2:2222"
    assert resolver.master("chief", 0, rpc_layer="grpc") == "grpc://host0:2222"


@pytest.mark.parametrize("task_type, index, process_id",
                         [("chief", 0, 0), ("worker", 0, 1), ("worker", 1, 2)])
def test_chief_is_process_zero_then_the_workers(task_type, index, process_id):
    resolver = TFConfigClusterResolver(tf_config=with_task(CHIEF_AND_WORKERS, task_type, index))
    assert resolver.process_id() == process_id
    assert resolver.num_processes() == 3
    assert resolver.coordinator_address() == "host0:2222"


@pytest.mark.parametrize("index", [0, 1])
def test_without_a_chief_worker_zero_coordinates(index):
    resolver = TFConfigClusterResolver(tf_config=json.dumps(with_task(WORKERS_ONLY, "worker", index)))
    assert resolver.process_id() == index
    assert resolver.num_processes() == 2
    assert resolver.coordinator_address() == "localhost:12345"


@pytest.mark.parametrize("value", [None, ""])
def test_without_tf_config_one_local_process(monkeypatch, value):
    if value is None:
        monkeypatch.delenv("TF_CONFIG", raising=False)
    else:
        monkeypatch.setenv("TF_CONFIG", value)
    resolver = TFConfigClusterResolver()
    assert (resolver.num_processes(), resolver.process_id(), resolver.coordinator_address()) == (1, 0, None)
    assert (resolver.task_type, resolver.task_id, resolver.master()) == (None, None, "")
    assert not resolver.cluster_spec()
    accelerators = {kind: len(tf.config.list_physical_devices(kind)) for kind in ("GPU", "TPU")}
    assert resolver.num_accelerators() == {k: n for k, n in accelerators.items() if n}  # {} on a CPU


def test_arguments_replace_the_task():
    cluster_only = {"cluster": CHIEF_AND_WORKERS["cluster"]}
    resolver = TFConfigClusterResolver(task_type="chief", task_id=0, tf_config=cluster_only)
    assert (resolver.task_type, resolver.task_id, resolver.process_id()) == ("chief", 0, 0)


def test_rpc_layer_and_environment_come_from_tf_config():
    resolver = TFConfigClusterResolver(tf_config=dict(WORKERS_ONLY, rpc_layer="grpc", environment="cloud"))
    assert (resolver.rpc_layer, resolver.environment) == ("grpc", "cloud")
    assert resolver.master() == "grpc://localhost:12345"


def test_cluster_spec():
    spec = ClusterSpec({"worker": ["a:1", "b:2"], "chief": ["c:3"]})
    assert spec.jobs == ["chief", "worker"]
    assert (spec.num_tasks("worker"), spec.task_indices("worker")) == (2, [0, 1])
    assert spec.task_address("worker", 1) == "b:2"
    assert spec == ClusterSpec(spec)
    with pytest.raises(ValueError, match="No such job in cluster: 'ps'"):
        spec.num_tasks("ps")
    with pytest.raises(ValueError, match="No task with index 2 in job 'worker'"):
        spec.task_address("worker", 2)


ONE_WORKER = {"worker": ["a:1"]}


def bad_cluster(cluster):
    return {"cluster": cluster, "task": {}}


def bad_task(task, cluster=ONE_WORKER):
    return {"cluster": cluster, "task": task}


BAD_TF_CONFIGS = [
    ('{"cluster": {"worker": ["a:1"]}', r"TF_CONFIG is not valid JSON.*Received: TF_CONFIG='\{\"cluster\""),
    ("[1, 2]", r"TF_CONFIG must be a JSON object"),
    ({"task": {"type": "worker", "index": 0}}, r"TF_CONFIG has no 'cluster' key"),
    ({"cluster": ONE_WORKER}, r"TF_CONFIG has no 'task' key"),
    (bad_cluster(["localhost:1"]), r"TF_CONFIG\['cluster'\] must be a non-empty dict"),
    (bad_cluster({}), r"TF_CONFIG\['cluster'\] must be a non-empty dict"),
    (bad_cluster({"worker": []}), r"TF_CONFIG\['cluster'\]\['worker'\] must be a non-empty list"),
    (bad_cluster({"worker": "a:1"}), r"\['worker'\] must be a non-empty list.*Received: 'a:1'"),
    (bad_cluster({"worker": ["localhost"]}), r"\['worker'\]\[0\] must be a 'host:port'.*'localhost'"),
    (bad_cluster({"worker": ["a:1", "b:99999"]}), r"\['worker'\]\[1\] must be a 'host:port'.*'b:99999'"),
    (bad_cluster({"worker": ["a:1", ":80"]}), r"\['worker'\]\[1\] must be a 'host:port'.*':80'"),
    (bad_cluster({"worker": ["a:x"]}), r"\['worker'\]\[0\] must be a 'host:port'.*'a:x'"),
    (bad_cluster({"worker": [8080]}), r"\['worker'\]\[0\] must be a 'host:port'.*8080"),
    (bad_cluster({"chief": ["a:1", "b:1"]}), r"\['chief'\] must list exactly one address"),
    (bad_cluster({"chief": ["a:1"], "worker": ["b:1", "a:1"]}),
     r"\['worker'\]\[1\] repeats the address 'a:1' of TF_CONFIG\['cluster'\]\['chief'\]\[0\]"),
    (bad_cluster({"worker": ["a:1"], "evaluator": ["b:1"]}), r"\['evaluator'\]: a side-car evaluator"),
    (bad_cluster({"workers": ["a:1"]}), r"unknown job 'workers'"),
    (bad_task("worker"), r"TF_CONFIG\['task'\] must be a dict"),
    (bad_task({"index": 0}), r"TF_CONFIG\['task'\]\['type'\] must be one of .*missing"),
    (bad_task({"type": "chief", "index": 0}),
     r"TF_CONFIG\['task'\]\['type'\] must be one of the cluster's jobs \['worker'\]. Received: 'chief'"),
    (bad_task({"type": "ps", "index": 0}),
     r"TF_CONFIG\['task'\]\['type'\] must be one of the cluster's jobs \['worker'\]. Received: 'ps'"),
    (bad_task({"type": "worker"}), r"TF_CONFIG\['task'\]\['index'\] must be an integer.*missing"),
    (bad_task({"type": "worker", "index": 2}, {"worker": ["a:1", "b:1"]}),
     r"\['index'\] must be an integer from 0 to 1 \(the 'worker' job has 2 task\(s\)\). Received: 2"),
    (bad_task({"type": "worker", "index": -1}), r"TF_CONFIG\['task'\]\['index'\] must be.*Received: -1"),
    (bad_task({"type": "worker", "index": "0"}), r"TF_CONFIG\['task'\]\['index'\] must be.*Received: '0'"),
    (bad_task({"type": "worker", "index": True}), r"TF_CONFIG\['task'\]\['index'\] must be.*True"),
]


@pytest.mark.parametrize("value, message", BAD_TF_CONFIGS)
def test_bad_tf_config_names_the_field(monkeypatch, value, message):
    monkeypatch.setenv("TF_CONFIG", value if isinstance(value, str) else json.dumps(value))
    with pytest.raises(ValueError, match=message):
        TFConfigClusterResolver()


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match=r"task_id must be an integer from 0 to 1"):
        TFConfigClusterResolver(task_id=5, tf_config=WORKERS_ONLY)
    with pytest.raises(ValueError, match=r"task_type must be one of"):
        TFConfigClusterResolver(task_type="chief", tf_config=WORKERS_ONLY)


def test_tpu_resolver_without_a_tpu_says_how_to_fall_back():
    platform = jax.devices()[0].platform  # 'gpu' on a GPU machine
    expected = rf"No TPU found: TPUClusterResolver\(tpu='local'\) looks for TPU.*'{platform}' devic.*default"
    with pytest.raises(ValueError, match=expected):
        TPUClusterResolver(tpu="local")


def test_tpu_system_without_a_tpu():
    with pytest.raises(ValueError, match=r"No TPU found: TPUClusterResolver\(tpu=None\)"):
        _tpu_system.initialize_tpu_system()
    resolver_made_elsewhere = object.__new__(TPUClusterResolver)  # as if made on a TPU host
    with pytest.raises(ValueError, match=r"No TPU found: experimental_connect_to_cluster looks for"):
        _tpu_system.experimental_connect_to_cluster(resolver_made_elsewhere)


def test_connect_to_cluster_accepts_only_a_tpu_resolver():
    with pytest.raises(ValueError, match=r"accepts only a TPUClusterResolver.*MultiWorkerMirroredStrategy"):
        _tpu_system.experimental_connect_to_cluster(TFConfigClusterResolver(tf_config=WORKERS_ONLY))


class FakeTPU:
    platform = "tpu"


def test_tpu_resolver_on_a_tpu_host(monkeypatch):
    import jax

    devices = [FakeTPU() for _ in range(4)]
    monkeypatch.setattr(jax, "devices", lambda: devices)
    monkeypatch.setattr(jax, "local_devices", lambda: devices)
    resolver = TPUClusterResolver.connect()
    assert resolver.devices == tuple(devices)
    assert (resolver.master(), resolver.num_accelerators()) == ("", {"TPU": 4})
    assert resolver.cluster_spec().as_dict() == {}
    assert (resolver.task_type, resolver.task_id) == ("worker", 0)
    topology = _tpu_system.initialize_tpu_system(resolver)
    assert (topology.num_tasks, topology.num_tpus_per_task) == (1, 4)


def test_tpu_entry_points_explain_themselves_without_a_tpu():
    import companion as tf

    for call in (lambda: tf.distribute.TPUStrategy(),
                 lambda: tf.tpu.experimental.initialize_tpu_system(),
                 lambda: tf.config.experimental_connect_to_cluster(
                     tf.distribute.cluster_resolver.TPUClusterResolver())):
        with pytest.raises(ValueError, match="No TPU found"):
            call()
