"""Checkpoint, CheckpointManager and latest_checkpoint: round trips, resuming, deferred restoration."""

import glob
import json
import os
import re

import numpy as np
import pytest

import companion as tf
from companion.train import _deferred
from companion.train._object_graph import walk
from tests.train.nets import Net, train_step, values


@pytest.fixture(autouse=True)
def no_pending_restorations():
    _deferred.pending.clear()
    yield
    _deferred.pending.clear()


def _trained(steps=2):
    net, opt = Net(), tf.keras.optimizers.Adam(0.1)
    for _ in range(steps):
        train_step(net, opt)
    return net, opt


def test_paths_follow_structure_not_names():
    first, second = _trained(1)[0], _trained(1)[0]
    assert first.hidden.name != second.hidden.name
    assert list(walk(first).variables) == list(walk(second).variables) == [
        "hidden/kernel", "hidden/bias", "out/kernel", "out/bias"]
    net, opt = _trained(1)
    ckpt = tf.train.Checkpoint(model=net, optimizer=opt)
    assert "save_counter" not in walk(ckpt).variables  # made when first needed, as in TF
    ckpt.save_counter  # noqa: B018
    paths = list(walk(ckpt).variables)
    assert paths[:6] == ["model/hidden/kernel", "model/hidden/bias", "model/out/kernel", "model/out/bias",
                         "optimizer/iter", "optimizer/learning_rate"]
    assert "model/hidden/kernel/.OPTIMIZER_SLOT/optimizer/m" in paths
    assert paths[6] == "save_counter"  # slots come last, named after their variables


def test_root_children_sit_at_the_top_level(tmp_path):
    from companion.keras import _weights_file

    net = _trained(1)[0]
    assert list(walk(tf.train.Checkpoint(root=net)).variables) == [
        "hidden/kernel", "hidden/bias", "out/kernel", "out/bias"]
    path = _weights_file.save_weights(net, str(tmp_path / "weights"))
    fresh = Net()
    tf.train.Checkpoint(root=fresh).read(path).expect_partial()
    fresh(np.zeros((1, 3), np.float32))
    for got, want in zip(values(fresh.weights), values(net.weights)):
        np.testing.assert_array_equal(got, want)


def test_round_trip_restores_the_saved_arrays(tmp_path):
    net, opt = _trained()
    ckpt = tf.train.Checkpoint(model=net, optimizer=opt, step=tf.Variable(7))
    path = ckpt.save(str(tmp_path / "ckpt"))
    saved = {name.removesuffix("/.ATTRIBUTES/VARIABLE_VALUE"): tf.train.load_variable(path, name)
             for name, _ in tf.train.list_variables(path) if name != "_CHECKPOINTABLE_OBJECT_GRAPH"}
    graph = walk(ckpt)
    for name, var in graph.variables.items():
        np.testing.assert_array_equal(saved[name], var.numpy())
        var.assign(np.zeros(var.shape.as_list(), var.dtype.as_numpy_dtype))
    ckpt.restore(path).assert_consumed()
    for name, var in graph.variables.items():
        np.testing.assert_array_equal(var.numpy(), saved[name])
    # TF's names, and no temporary files left
    assert sorted(os.listdir(tmp_path)) == ["checkpoint", "ckpt-1.data-00000-of-00001", "ckpt-1.index"]


def test_files_are_an_npz_archive_and_a_json_index(tmp_path):
    path = tf.train.Checkpoint(w=tf.Variable([[1.0, 2.0]])).write(str(tmp_path / "w"))
    assert sorted(os.listdir(tmp_path)) == ["w.data-00000-of-00001", "w.index"]  # as TF names them
    with np.load(path + ".data-00000-of-00001", allow_pickle=False) as data:
        manifest = json.loads(str(data["__manifest__"]))
        assert manifest["format"] == "companion.checkpoint" and manifest["version"] == 1
        entry = next(e for e in manifest["variables"] if e["path"] == "w")
        assert entry["dtype"] == "float32" and entry["shape"] == [1, 2]
        np.testing.assert_array_equal(data[entry["key"]], [[1.0, 2.0]])
    with open(path + ".index") as f:
        assert json.load(f) == manifest


def test_tf_idioms_find_the_files(tmp_path):
    ckpt = tf.train.Checkpoint(v=tf.Variable(1.0))
    first, second = ckpt.save(str(tmp_path / "ckpt")), ckpt.save(str(tmp_path / "ckpt"))
    assert os.path.exists(first + ".index") and not os.path.exists(first)  # TF: True, False
    expected = [str(tmp_path / "ckpt-1.index"), str(tmp_path / "ckpt-2.index")]
    assert sorted(glob.glob(str(tmp_path / "*.index"))) == expected
    assert sorted(tf.io.gfile.glob(str(tmp_path / "*.index"))) == expected
    assert tf.train.latest_checkpoint(str(tmp_path)) == second


def test_a_checkpoint_an_earlier_version_wrote_as_one_npz_is_read():
    # written by companion aa7e5d0 as the one file ckpt-1.npz (see test_checkpoint_manager)
    path = os.path.join(os.path.dirname(__file__), "..", "fixtures", "checkpoint_npz", "ckpt-1")
    ckpt = tf.train.Checkpoint(w=tf.Variable([0.0, 0.0]), half=tf.Variable([0.0], dtype=tf.bfloat16),
                               step=tf.Variable(0))
    ckpt.restore(path).assert_consumed()
    assert ckpt.w.numpy().tolist() == [1.0, 2.0] and int(ckpt.step.numpy()) == 7
    assert float(ckpt.half.numpy()[0]) == 1.5
    assert tf.train.list_variables(path) == [("_CHECKPOINTABLE_OBJECT_GRAPH", []),
                                             ("half/.ATTRIBUTES/VARIABLE_VALUE", [1]),
                                             ("save_counter/.ATTRIBUTES/VARIABLE_VALUE", []),
                                             ("step/.ATTRIBUTES/VARIABLE_VALUE", []),
                                             ("w/.ATTRIBUTES/VARIABLE_VALUE", [2])]
    assert tf.train.load_variable(path, "w").tolist() == [1.0, 2.0]


def test_writing_over_an_earlier_versions_checkpoint_replaces_its_npz(tmp_path):
    fixture = os.path.join(os.path.dirname(__file__), "..", "fixtures", "checkpoint_npz", "ckpt-1.npz")
    (tmp_path / "ckpt-1.npz").write_bytes(open(fixture, "rb").read())
    ckpt = tf.train.Checkpoint(w=tf.Variable([0.0, 0.0]), half=tf.Variable([0.0], dtype=tf.bfloat16),
                               step=tf.Variable(0))
    ckpt.restore(str(tmp_path / "ckpt-1")).assert_consumed()
    ckpt.step.assign(8)
    ckpt.write(str(tmp_path / "ckpt-1"))
    assert sorted(os.listdir(tmp_path)) == ["ckpt-1.data-00000-of-00001", "ckpt-1.index"]
    ckpt.step.assign(0)
    ckpt.restore(str(tmp_path / "ckpt-1")).assert_consumed()
    assert int(ckpt.step.numpy()) == 8 and ckpt.w.numpy().tolist() == [1.0, 2.0]


def test_list_variables_reads_only_the_index(tmp_path):
    # TF: list_variables works with the data file gone; restoring then fails with a bare OpError
    ckpt = tf.train.Checkpoint(v=tf.Variable([1.0, 2.0]))
    path = ckpt.save(str(tmp_path / "ckpt"))
    os.remove(path + ".data-00000-of-00001")
    assert tf.train.list_variables(path) == [("_CHECKPOINTABLE_OBJECT_GRAPH", []),
                                             ("save_counter/.ATTRIBUTES/VARIABLE_VALUE", []),
                                             ("v/.ATTRIBUTES/VARIABLE_VALUE", [2])]
    assert tf.train.latest_checkpoint(str(tmp_path)) == path
    with pytest.raises(tf.errors.OpError) as caught:
        ckpt.restore(path)
    assert type(caught.value).__name__ == "OpError" and caught.value.error_code == 2
    assert str(caught.value) == f"{path}.data-00000-of-00001; No such file or directory"


@pytest.mark.parametrize("build_first", [False, True], ids=["unbuilt", "built"])
@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "function"])
def test_resuming_equals_an_uninterrupted_run(tmp_path, build_first, compiled):
    net, opt = _trained(2)
    path = tf.train.Checkpoint(model=net, optimizer=opt).save(str(tmp_path / "ckpt"))
    train_step(net, opt)
    expected = values(net.weights + opt.variables)

    fresh, fresh_opt = Net(), tf.keras.optimizers.Adam(0.1)
    if build_first:
        fresh(np.zeros((1, 3), np.float32))
    status = tf.train.Checkpoint(model=fresh, optimizer=fresh_opt).restore(path)
    status.assert_existing_objects_matched()
    with pytest.raises(AssertionError, match="OPTIMIZER_SLOT"):
        status.assert_consumed()  # slots (and the unbuilt weights) wait for their variables
    step = tf.function(train_step) if compiled else train_step
    step(fresh, fresh_opt)
    status.assert_consumed()
    assert int(fresh_opt.iterations.numpy()) == 3
    for got, want in zip(values(fresh.weights + fresh_opt.variables), expected):
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)


def test_attribute_named_differently_from_add_weight_is_restored_when_built(tmp_path):
    class Scale(tf.keras.layers.Layer):
        def build(self, input_shape):
            self.w = self.add_weight(name="weight", shape=(input_shape[-1],))
            self.add_weight(name="unattached", shape=(), initializer="ones")

    saved = Scale()
    saved(np.ones((1, 3), np.float32))
    saved.weights[1].assign(5.0)
    path = tf.train.Checkpoint(model=saved).save(str(tmp_path / "ckpt"))
    assert [name for name, _ in tf.train.list_variables(path)] == [
        "_CHECKPOINTABLE_OBJECT_GRAPH", "model/unattached/.ATTRIBUTES/VARIABLE_VALUE",
        "model/w/.ATTRIBUTES/VARIABLE_VALUE", "save_counter/.ATTRIBUTES/VARIABLE_VALUE"]
    fresh = Scale()
    status = tf.train.Checkpoint(model=fresh).restore(path)
    fresh(np.ones((1, 3), np.float32))
    status.assert_consumed()
    np.testing.assert_array_equal(fresh.w.numpy(), saved.w.numpy())
    assert float(fresh.weights[1].numpy()) == 5.0


def test_shape_mismatch_names_the_path_and_both_shapes(tmp_path):
    net, opt = _trained(1)
    path = tf.train.Checkpoint(model=net).save(str(tmp_path / "ckpt"))
    wider = Net(hidden=5)
    wider(np.zeros((1, 3), np.float32))
    with pytest.raises(ValueError, match=r"'model/hidden/kernel'.*shape \(3, 5\).*shape \(3, 4\)"):
        tf.train.Checkpoint(model=wider).restore(path)
    unbuilt = Net(hidden=5)
    tf.train.Checkpoint(model=unbuilt).restore(path)
    with pytest.raises(ValueError, match="model/hidden/kernel"):
        unbuilt(np.zeros((1, 3), np.float32))  # deferred: raised when the kernel is created


def test_assert_consumed_reports_unmatched_values_and_variables(tmp_path):
    # TF 2.21's messages (first lines); which unmatched objects it lists first varies run to run
    path = tf.train.Checkpoint(a=tf.Variable(1.0), b=tf.Variable(2.0, name="bee")).save(str(tmp_path / "ck"))
    status = tf.train.Checkpoint(a=tf.Variable(0.0)).restore(path)
    status.assert_existing_objects_matched()
    with pytest.raises(AssertionError) as info:
        status.assert_consumed()
    assert str(info.value).startswith(
        'Unresolved object in checkpoint (root).b: attributes {\n  name: "VARIABLE_VALUE"\n'
        '  full_name: "bee"\n  checkpoint_key: "b/.ATTRIBUTES/VARIABLE_VALUE"\n}\n'
        'has_checkpoint_values {\n  value: true\n}\n')
    status = tf.train.Checkpoint(a=tf.Variable(0.0), c=tf.Variable(0.0, name="c")).restore(path)
    unbound = (r"^Found 1 Python objects that were not bound to checkpointed values, likely due to changes "
               r"in the Python program. Showing 1 of 1 unmatched objects: \[<companion.Variable 'c:0'")
    with pytest.raises(AssertionError, match=unbound):
        status.assert_existing_objects_matched()
    # a checkpoint only write() wrote has no save_counter; restore() makes one, which it then lacks
    written = tf.train.Checkpoint(a=tf.Variable(1.0)).write(str(tmp_path / "w"))
    assert "save_counter/.ATTRIBUTES/VARIABLE_VALUE" not in dict(tf.train.list_variables(written))
    status = tf.train.Checkpoint(a=tf.Variable(0.0)).restore(written)
    with pytest.raises(AssertionError, match="'save_counter:0'"):
        status.assert_consumed()
    assert status.assert_nontrivial_match() is status
    assert tf.train.Checkpoint(z=tf.Variable(0.0)).read(path).assert_nontrivial_match()  # the counter
    with pytest.raises(AssertionError, match="Nothing was restored"):
        tf.train.Checkpoint(z=tf.Variable(0.0)).read(written).expect_partial().assert_nontrivial_match()


def test_restore_none_changes_nothing():
    v = tf.Variable(4.0)
    status = tf.train.Checkpoint(v=v).restore(None)
    assert status.expect_partial() is status
    with pytest.raises(AssertionError, match="save_path=None"):
        status.assert_consumed()
    assert float(v.numpy()) == 4.0


def test_missing_checkpoint_raises_tf_not_found_with_tf_text(tmp_path):
    ckpt, nope = tf.train.Checkpoint(v=tf.Variable(1.0)), str(tmp_path / "nope")
    with pytest.raises(tf.errors.NotFoundError) as caught:
        ckpt.restore(nope)
    assert type(caught.value).__name__ == "NotFoundError" and isinstance(caught.value, FileNotFoundError)
    assert str(caught.value) == (  # TF 2.21's text
        f"Error when restoring from checkpoint or SavedModel at {nope}: Unsuccessful TensorSliceReader "
        f"constructor: Failed to find any matching files for {nope}\nPlease double-check that the path is "
        "correct. You may be missing the checkpoint suffix (e.g. the '-1' in 'path/to/ckpt-1').")
    short = f"Unsuccessful TensorSliceReader constructor: Failed to find any matching files for {nope}"
    for read in (ckpt.read, tf.train.list_variables):
        with pytest.raises(tf.errors.NotFoundError) as caught:
            read(nope)
        assert str(caught.value) == short


def test_a_checkpoint_whose_index_is_gone_is_not_found(tmp_path):
    ckpt = tf.train.Checkpoint(v=tf.Variable(1.0))
    path = ckpt.save(str(tmp_path / "ckpt"))
    os.remove(path + ".index")
    with pytest.raises(tf.errors.NotFoundError, match="Failed to find any matching files for"):
        ckpt.restore(path)
    assert tf.train.latest_checkpoint(str(tmp_path)) is None


def test_a_file_name_is_not_a_checkpoint_path(tmp_path):
    ckpt = tf.train.Checkpoint(v=tf.Variable(1.0))
    path = ckpt.save(str(tmp_path / "ckpt"))
    # TF restores nothing from P.index, silently: companion says what to pass
    with pytest.raises(tf.errors.NotFoundError, match=f"its prefix: '{re.escape(path)}', without"):
        ckpt.restore(path + ".index")
    data, text = path + ".data-00000-of-00001", str(tmp_path / "notes.txt")
    open(text, "w").close()
    # TF 2.21: a file that is not an index is DataLossError; the reason depends on its size
    cases = ((data, "not an sstable (bad magic number)"), (text, "file is too short to be an sstable"))
    for name, reason in cases:
        for read in (ckpt.restore, ckpt.read, tf.train.list_variables):
            with pytest.raises(tf.errors.DataLossError) as caught:
                read(name)
            assert str(caught.value).startswith(
                f"Unable to open table file {name}: DATA_LOSS: {reason}: perhaps your file is in a different "
                "file format and you need to use a different restore operator?")
    assert str(caught.value).endswith("?")  # the hint is for TF's file names only
    with pytest.raises(tf.errors.DataLossError, match=f"its prefix: '{re.escape(path)}', without"):
        ckpt.read(data)
    with pytest.raises(tf.errors.DataLossError) as caught:  # TF's class and text for a directory
        ckpt.restore(str(tmp_path))
    assert str(caught.value).startswith(f"Unable to open table file {tmp_path}: FAILED_PRECONDITION: "
                                        f"{tmp_path}; Is a directory")


def test_children_are_attributes_and_must_be_trackable():
    ckpt = tf.train.Checkpoint(step=tf.Variable(1))
    ckpt.extra = [tf.Variable(2.0)]
    assert int(ckpt.step.numpy()) == 1 and "extra/0" in walk(ckpt).variables
    with pytest.raises(ValueError, match="trackable"):
        tf.train.Checkpoint(step=3)


def test_bfloat16_and_metric_state_round_trip(tmp_path):
    mean = tf.keras.metrics.Mean()
    mean.update_state([1.0, 2.0, 6.0])
    half = tf.Variable([1.5, -2.0], dtype=tf.bfloat16)
    path = tf.train.Checkpoint(mean=mean, half=half).save(str(tmp_path / "ckpt"))
    fresh_mean, fresh_half = tf.keras.metrics.Mean(), tf.Variable([0.0, 0.0], dtype=tf.bfloat16)
    tf.train.Checkpoint(mean=fresh_mean, half=fresh_half).restore(path).assert_consumed()
    assert float(fresh_mean.result().numpy()) == 3.0
    assert fresh_half.numpy().tolist() == [1.5, -2.0]


def test_list_and_load_variable_use_tfs_keys(tmp_path):
    # TF 2.21: [('_CHECKPOINTABLE_OBJECT_GRAPH', []), ('save_counter/.ATTRIBUTES/VARIABLE_VALUE', []),
    # ('v/.ATTRIBUTES/VARIABLE_VALUE', [2])]; load_variable(path, "nope") raises NotFoundError "Key nope not
    # found in checkpoint"
    path = tf.train.Checkpoint(v=tf.Variable([1.0, 2.0])).save(str(tmp_path / "ckpt"))
    assert tf.train.list_variables(str(tmp_path)) == [
        ("_CHECKPOINTABLE_OBJECT_GRAPH", []), ("save_counter/.ATTRIBUTES/VARIABLE_VALUE", []),
        ("v/.ATTRIBUTES/VARIABLE_VALUE", [2])]
    np.testing.assert_array_equal(tf.train.load_variable(path, "v/.ATTRIBUTES/VARIABLE_VALUE"), [1.0, 2.0])
    np.testing.assert_array_equal(tf.train.load_variable(path, "v"), [1.0, 2.0])
    with pytest.raises(tf.errors.NotFoundError, match="Key nope not found in checkpoint"):
        tf.train.load_variable(path, "nope")


def test_load_checkpoint_reads_values_shapes_and_dtypes_by_key(tmp_path):
    path = tf.train.Checkpoint(w=tf.Variable([1.0, 2.0]), n=tf.Variable(3)).save(str(tmp_path / "c"))
    reader = tf.train.load_checkpoint(str(tmp_path))  # a directory: its latest checkpoint
    shapes = reader.get_variable_to_shape_map()
    assert shapes == {"_CHECKPOINTABLE_OBJECT_GRAPH": [], "w/.ATTRIBUTES/VARIABLE_VALUE": [2],
                      "n/.ATTRIBUTES/VARIABLE_VALUE": [], "save_counter/.ATTRIBUTES/VARIABLE_VALUE": []}
    dtypes = reader.get_variable_to_dtype_map()
    assert dtypes["w/.ATTRIBUTES/VARIABLE_VALUE"] == tf.float32
    assert dtypes["n/.ATTRIBUTES/VARIABLE_VALUE"] == tf.int32
    np.testing.assert_array_equal(reader.get_tensor("w/.ATTRIBUTES/VARIABLE_VALUE"), [1.0, 2.0])
    assert reader.has_tensor("n/.ATTRIBUTES/VARIABLE_VALUE")
    assert not reader.has_tensor("m/.ATTRIBUTES/VARIABLE_VALUE") and not reader.has_tensor("n")
    with pytest.raises(tf.errors.NotFoundError):
        reader.get_tensor("m/.ATTRIBUTES/VARIABLE_VALUE")
    assert tf.train.load_checkpoint(path).get_variable_to_shape_map() == shapes
