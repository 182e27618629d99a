"""Week 4 (C2W4): public checks on 4 forced devices, and the grader on the distributed mistakes (CLI).

The checks need several devices, which this test process does not have (JAX fixes its device count
when it starts), so the public checks run in a child interpreter with 4 forced CPU devices (and one
with a single device); the grader's own children get 4 from the assignment's `host_devices`.
"""

import json

import pytest

from graders import c2w4
from graders._assignments import load_assignment
from tests.distribute.replicas import run_with_devices
from tests.graders.course_submissions import ROOT, grade_with_cli, variant

SOLUTION = ROOT / "solutions" / "week4" / "C2W4_Assignment.ipynb"
LAST_CHECK = 'check("distributed_train_test_step_fns"'

COURSE_CODE = '''
from graders import c2w4


def set_global_batch_size(batch_size_per_replica, strategy):
    return batch_size_per_replica * strategy.num_replicas_in_sync


def distribute_datasets(strategy, train_batches, validation_batches, test_batches):
    return (strategy.experimental_distribute_dataset(train_batches),
            strategy.experimental_distribute_dataset(validation_batches),
            strategy.experimental_distribute_dataset(test_batches))


def steps_with(loss_of=None, apply=True, test_loss_of=None):
    """The course's train_test_step_fns, with the train loss, the update or the test loss swapped."""
    def train_test_step_fns(strategy, model, compute_loss, optimizer, train_accuracy, loss_object, test_loss,
                            test_accuracy):
        def train_step(inputs):
            images, labels = inputs
            with tf.GradientTape() as tape:
                predictions = model(images, training=True)
                if loss_of:
                    loss = loss_of(labels, predictions, loss_object)
                else:
                    loss = compute_loss(labels, predictions)
            if apply:
                gradients = tape.gradient(loss, model.trainable_variables)
                optimizer.apply_gradients(zip(gradients, model.trainable_variables))
            train_accuracy.update_state(labels, predictions)
            return loss

        def test_step(inputs):
            images, labels = inputs
            predictions = model(images, training=False)
            t_loss = test_loss_of(compute_loss, labels, predictions) if test_loss_of else \\
                loss_object(labels, predictions)
            test_loss.update_state(t_loss)
            test_accuracy.update_state(labels, predictions)

        return train_step, test_step

    return train_test_step_fns


def distributed_with(op=tf.distribute.ReduceOp.SUM, run=True, compiled=True, test=True):
    """The course's distributed_train_test_step_fns, with the reduction, strategy.run, @tf.function or the
    test step changed."""
    def distributed_train_test_step_fns(strategy, train_step, test_step, model, compute_loss, optimizer,
                                        train_accuracy, loss_object, test_loss, test_accuracy):
        wrap = tf.function if compiled else (lambda f: f)

        @wrap
        def distributed_train_step(dataset_inputs):
            per_replica_losses = strategy.run(train_step, args=(dataset_inputs,)) if run else \\
                train_step(dataset_inputs)
            return strategy.reduce(op, per_replica_losses, axis=None)

        @wrap
        def distributed_test_step(dataset_inputs):
            if test:
                strategy.run(test_step, args=(dataset_inputs,))

        return distributed_train_step, distributed_test_step

    return distributed_train_test_step_fns


outcomes = {}


def attempt(name, exercise, obj):
    try:
        c2w4.check(exercise, obj)
        outcomes[name] = "passed"
    except AssertionError as error:
        outcomes[name] = str(error)
'''

MISTAKES = '''
NOTEBOOK_STRATEGY = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
attempt("course set_global_batch_size", "set_global_batch_size", set_global_batch_size)
attempt("per-replica batch", "set_global_batch_size", lambda batch, strategy: batch)
attempt("four replicas assumed", "set_global_batch_size", lambda batch, strategy: batch * 4)
attempt("tensor batch size", "set_global_batch_size",
        lambda batch, strategy: tf.constant(batch * strategy.num_replicas_in_sync))

attempt("course distribute_datasets", "distribute_datasets", distribute_datasets)
attempt("not distributed", "distribute_datasets", lambda strategy, *datasets: datasets)
attempt("validation and test swapped", "distribute_datasets",
        lambda strategy, train, validation, test: distribute_datasets(strategy, train, test, validation))
attempt("the notebook's strategy", "distribute_datasets",
        lambda strategy, *datasets: distribute_datasets(NOTEBOOK_STRATEGY, *datasets))

attempt("course train_test_step_fns", "train_test_step_fns", steps_with())
attempt("per-replica mean loss", "train_test_step_fns",
        steps_with(lambda labels, predictions, loss_object: tf.reduce_mean(loss_object(labels, predictions))))
attempt("average without the global batch size", "train_test_step_fns", steps_with(
    lambda labels, predictions, loss_object: tf.nn.compute_average_loss(loss_object(labels, predictions))))
attempt("per-example losses returned", "train_test_step_fns",
        steps_with(lambda labels, predictions, loss_object: loss_object(labels, predictions)))
attempt("no update", "train_test_step_fns", steps_with(apply=False))
attempt("test loss from compute_loss", "train_test_step_fns",
        steps_with(test_loss_of=lambda compute_loss, labels, predictions: compute_loss(labels, predictions)))

attempt("course distributed_train_test_step_fns", "distributed_train_test_step_fns", distributed_with())
attempt("MEAN over replicas", "distributed_train_test_step_fns",
        distributed_with(op=tf.distribute.ReduceOp.MEAN))
attempt("step without strategy.run", "distributed_train_test_step_fns", distributed_with(run=False))
attempt("no tf.function", "distributed_train_test_step_fns", distributed_with(compiled=False))
attempt("test step not run", "distributed_train_test_step_fns", distributed_with(test=False))
emit(**outcomes)
'''

ONE_DEVICE = '''
attempt("set_global_batch_size on one device", "set_global_batch_size", set_global_batch_size)
attempt("distribute_datasets on one device", "distribute_datasets", distribute_datasets)
emit(**outcomes)
'''


@pytest.mark.parametrize("seed", [0, 1, 7, 2**40 + 7])
def test_generated_hidden_cases_expose_the_distributed_mistakes(seed):
    """Every strategy has 2 or more replicas, and every step case ends on a batch that does not split
    evenly and is padded to less than the global batch size: there a per-replica average, a MEAN over
    replicas and a per-replica batch size all give other numbers than the course's code."""
    exercises = {exercise.id: exercise for exercise in load_assignment("c2w4").for_seed(seed).exercises}
    assert all(case.args[1] >= 2 for case in exercises["set_global_batch_size"].cases)
    assert all(case.args[0] >= 2 for case in exercises["distribute_datasets"].cases)
    step_cases = [*exercises["train_test_step_fns"].cases,
                  *exercises["distributed_train_test_step_fns"].cases]
    assert [case.args[0] for case in step_cases] == [4, 4, 4, 3]
    for case in step_cases:
        replicas, global_batch_size, _, (images, _), *_ = case.args
        last = len(images) % global_batch_size
        assert len(images) > global_batch_size and last % replicas
        assert -(-last // replicas) * replicas < global_batch_size


@pytest.fixture(scope="module")
def outcomes():
    """What each implementation's public check said, on 4 devices (and the course code on one)."""
    found = run_with_devices(COURSE_CODE + MISTAKES, devices=4, timeout=600)
    found.update(run_with_devices(COURSE_CODE + ONE_DEVICE, devices=1, timeout=300))
    return found


@pytest.mark.slow
@pytest.mark.parametrize("name, exercise", [
    ("course set_global_batch_size", "set_global_batch_size"),
    ("course distribute_datasets", "distribute_datasets"),
    ("course train_test_step_fns", "train_test_step_fns"),
    ("course distributed_train_test_step_fns", "distributed_train_test_step_fns"),
])
def test_the_course_code_passes_the_public_checks(outcomes, name, exercise):
    assert outcomes[name] == "passed", outcomes[name]


@pytest.mark.slow
@pytest.mark.parametrize("name, exercise, words, hint", [
    ("per-replica batch", "set_global_batch_size", "in global batch size: wrong values", "global batch size"),
    ("four replicas assumed", "set_global_batch_size", "public test 2 of 2 failed in global batch size",
     "global batch size"),
    ("tensor batch size", "set_global_batch_size", "in global batch size: it returned a companion.Tensor",
     "global batch size:type"),
    ("not distributed", "distribute_datasets", "in distributed datasets", "distributed datasets"),
    ("validation and test swapped", "distribute_datasets", "in validation shares", "validation shares"),
    ("the notebook's strategy", "distribute_datasets", "in train shares", "train shares"),
    ("per-replica mean loss", "train_test_step_fns", "in per-replica training losses: wrong values",
     "per-replica training losses"),
    ("average without the global batch size", "train_test_step_fns",
     "in per-replica training losses: wrong values", "per-replica training losses"),
    ("per-example losses returned", "train_test_step_fns", "in per-replica training losses: wrong shape",
     "per-replica training losses:shape"),
    ("no update", "train_test_step_fns", "in optimizer steps", "optimizer steps"),
    ("test loss from compute_loss", "train_test_step_fns", "in test loss totals", "test loss totals"),
    ("MEAN over replicas", "distributed_train_test_step_fns", "in training losses: wrong values",
     "training losses"),
    ("step without strategy.run", "distributed_train_test_step_fns", "failed: the function raised",
     "raised"),
    ("no tf.function", "distributed_train_test_step_fns", "in tf.function", "tf.function"),
    ("test step not run", "distributed_train_test_step_fns", "in test loss totals", "test loss totals"),
    ("set_global_batch_size on one device", "set_global_batch_size", "in replicas", "replicas"),
    ("distribute_datasets on one device", "distribute_datasets", "in replicas", "replicas"),
])
def test_each_mistake_fails_its_public_check_with_its_hint(outcomes, name, exercise, words, hint):
    message = outcomes[name]
    assert words in message and "\nHint: " + c2w4.CHECKS.exercises[exercise].hints[hint] in message, message


SUBMISSIONS = {
    "per_replica_global": {"set_global_batch_size": """
        def set_global_batch_size(batch_size_per_replica, strategy):
            global_batch_size = batch_size_per_replica
            return global_batch_size
        """},
    "per_replica_mean_loss": {"train_test_step_fns": """
        def train_test_step_fns(strategy, model, compute_loss, optimizer, train_accuracy, loss_object,
                                test_loss, test_accuracy):
            with strategy.scope():
                def train_step(inputs):
                    images, labels = inputs
                    with tf.GradientTape() as tape:
                        predictions = model(images, training=True)
                        loss = tf.reduce_mean(loss_object(labels, predictions))
                    gradients = tape.gradient(loss, model.trainable_variables)
                    optimizer.apply_gradients(zip(gradients, model.trainable_variables))
                    train_accuracy.update_state(labels, predictions)
                    return loss

                def test_step(inputs):
                    images, labels = inputs
                    predictions = model(images, training=False)
                    test_loss.update_state(loss_object(labels, predictions))
                    test_accuracy.update_state(labels, predictions)

                return train_step, test_step
        """},
    "average_without_global": {"train_test_step_fns": """
        def train_test_step_fns(strategy, model, compute_loss, optimizer, train_accuracy, loss_object,
                                test_loss, test_accuracy):
            with strategy.scope():
                def train_step(inputs):
                    images, labels = inputs
                    with tf.GradientTape() as tape:
                        predictions = model(images, training=True)
                        loss = tf.nn.compute_average_loss(loss_object(labels, predictions))
                    gradients = tape.gradient(loss, model.trainable_variables)
                    optimizer.apply_gradients(zip(gradients, model.trainable_variables))
                    train_accuracy.update_state(labels, predictions)
                    return loss

                def test_step(inputs):
                    images, labels = inputs
                    predictions = model(images, training=False)
                    test_loss.update_state(loss_object(labels, predictions))
                    test_accuracy.update_state(labels, predictions)

                return train_step, test_step
        """},
    # eager steps whose objects claim to be tf.functions (isinstance believes a __class__ property)
    "claims_function_class": {"distributed_train_test_step_fns": """
        class Claims:
            __class__ = property(lambda self: tf.Function)

            def __init__(self, step):
                self.step = step

            def __call__(self, *args):
                return self.step(*args)

        def distributed_train_test_step_fns(strategy, train_step, test_step, model, compute_loss, optimizer,
                                            train_accuracy, loss_object, test_loss, test_accuracy):
            def distributed_train_step(dataset_inputs):
                per_replica_losses = strategy.run(train_step, args=(dataset_inputs,))
                return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_losses, axis=None)

            def distributed_test_step(dataset_inputs):
                strategy.run(test_step, args=(dataset_inputs,))

            return Claims(distributed_train_step), Claims(distributed_test_step)
        """},
    # eager steps, and a thread that rebinds companion.Function while the harness reads, not while it checks
    "thread_patches": {"distributed_train_test_step_fns": """
        import sys
        import threading
        import time

        import companion

        REAL = companion.Function
        Claims = lambda step: step

        def _watch():
            main = threading.main_thread().ident
            while True:
                frame, names = sys._current_frames().get(main), set()
                while frame is not None:
                    names.add(frame.f_code.co_name)
                    frame = frame.f_back
                harness = "distributed_train_test_step_fns" in names and not {"changed", "check"} & names
                companion.Function = object if harness else REAL
                time.sleep(0.0001)

        threading.Thread(target=_watch, daemon=True).start()

        def distributed_train_test_step_fns(strategy, train_step, test_step, model, compute_loss, optimizer,
                                            train_accuracy, loss_object, test_loss, test_accuracy):
            def distributed_train_step(dataset_inputs):
                per_replica_losses = strategy.run(train_step, args=(dataset_inputs,))
                return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_losses, axis=None)

            def distributed_test_step(dataset_inputs):
                strategy.run(test_step, args=(dataset_inputs,))

            return Claims(distributed_train_step), Claims(distributed_test_step)
        """},
    "mean_reduce": {"distributed_train_test_step_fns": """
        def distributed_train_test_step_fns(strategy, train_step, test_step, model, compute_loss, optimizer,
                                            train_accuracy, loss_object, test_loss, test_accuracy):
            with strategy.scope():
                @tf.function
                def distributed_train_step(dataset_inputs):
                    per_replica_losses = strategy.run(train_step, args=(dataset_inputs,))
                    return strategy.reduce(tf.distribute.ReduceOp.MEAN, per_replica_losses, axis=None)

                @tf.function
                def distributed_test_step(dataset_inputs):
                    strategy.run(test_step, args=(dataset_inputs,))

                return distributed_train_step, distributed_test_step
        """},
    "no_run": {"distributed_train_test_step_fns": """
        def distributed_train_test_step_fns(strategy, train_step, test_step, model, compute_loss, optimizer,
                                            train_accuracy, loss_object, test_loss, test_accuracy):
            with strategy.scope():
                @tf.function
                def distributed_train_step(dataset_inputs):
                    per_replica_losses = train_step(dataset_inputs)
                    return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_losses, axis=None)

                @tf.function
                def distributed_test_step(dataset_inputs):
                    test_step(dataset_inputs)

                return distributed_train_step, distributed_test_step
        """},
}
FORCE_ONE_DEVICE = 'os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=1"\n'
EXERCISES = ("set_global_batch_size", "distribute_datasets", "train_test_step_fns",
             "distributed_train_test_step_fns")
# mistakes in different exercises graded as one submission (fewer gradings): each harness passes its
# own compute_loss and step bodies, so every mistaken exercise scores 0 on its own and the exercises
# left correct (distribute_datasets in each group) keep full marks
GROUPS = {"global_loss_reduce": ("per_replica_global", "per_replica_mean_loss", "mean_reduce"),
          "average_no_run": ("average_without_global", "no_run"),
          "claims_function_class": ("claims_function_class",), "thread_patches": ("thread_patches",)}


def _one_device(path):
    """The solution with its first cell forcing a single CPU device (before `import companion`)."""
    notebook = json.loads(path.read_text())
    first = next(cell for cell in notebook["cells"] if cell["cell_type"] == "code")
    source = "".join(first["source"])
    assert "import companion as tf" in source
    first["source"] = source.replace("import ipywidgets", FORCE_ONE_DEVICE + "import ipywidgets", 1)
    path.write_text(json.dumps(notebook))


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """Each group of mistakes and a one-device run (cut after the last check), in one CLI run. The whole
    solution and lab are graded in test_course_assignments.py (this batch bounds a notebook at 150 s);
    each group's correct exercises scoring full marks is this batch's control."""
    base = tmp_path_factory.mktemp("c2w4")
    subs = base / "subs"
    _one_device(variant(SOLUTION, subs / "one_device.ipynb", stop_after=LAST_CHECK))
    for name, members in GROUPS.items():
        replace = {exercise: source for member in members for exercise, source in SUBMISSIONS[member].items()}
        variant(SOLUTION, subs / f"{name}.ipynb", replace, stop_after=LAST_CHECK)
    return grade_with_cli("c2w4", subs, base, timeout=1500, args=("--timeout", "150"))


@pytest.mark.slow
@pytest.mark.notebook
def test_a_notebook_that_forced_one_device_gets_nothing(graded):
    assert graded("one_device") == dict.fromkeys(EXERCISES, 0.0)


@pytest.mark.slow
@pytest.mark.notebook
@pytest.mark.parametrize("name", GROUPS)
def test_a_distributed_mistake_earns_nothing_for_its_exercise_only(graded, name):
    """The harnesses pass their own compute_loss and step bodies, so a mistake costs only its exercise."""
    mistaken = {exercise for member in GROUPS[name] for exercise in SUBMISSIONS[member]}
    assert graded(name) == {exercise: 0.0 if exercise in mistaken else 1.0 for exercise in EXERCISES}


def test_each_group_of_mistakes_leaves_an_exercise_correct_and_never_two_in_one_exercise():
    for members in GROUPS.values():
        exercises = [exercise for member in members for exercise in SUBMISSIONS[member]]
        assert len(exercises) == len(set(exercises)) and "distribute_datasets" not in exercises
    assert sorted(member for members in GROUPS.values() for member in members) == sorted(SUBMISSIONS)


def test_a_subclass_or_an_object_claiming_the_class_is_not_taken_for_a_function_or_a_dataset():
    """`isinstance` believes a `__class__` property and a subclass (whose __call__ may run eagerly): the
    harness compares exact classes, and a `tf.function` counts once it traced."""
    import numpy as np

    import companion as tf
    from graders.harnesses import c2w4 as harness

    @tf.function
    def step(x):
        return x + 1

    class Claims:
        __class__ = property(lambda self: tf.Function)

    class Subclass(tf.Function):
        def __init__(self):
            pass

    assert isinstance(Claims(), tf.Function) and isinstance(Subclass(), tf.Function)
    assert not harness.compiled(Claims()) and not harness.compiled(Subclass()) and not harness.compiled(step)
    step(tf.constant(1.0))
    assert harness.compiled(step)

    class Lying(tf.distribute.DistributedDataset):
        pass

    ids = np.arange(4)
    split = (ids, ids % 2, 2)
    lying = harness.distribute_datasets(lambda strategy, *batches: tuple(Lying(strategy, b) for b in batches),
                                        1, split, split, split)
    honest = harness.distribute_datasets(
        lambda strategy, *batches: tuple(strategy.experimental_distribute_dataset(b) for b in batches),
        1, split, split, split)
    assert lying["distributed datasets"] == [False] * 3 and honest["distributed datasets"] == [True] * 3
