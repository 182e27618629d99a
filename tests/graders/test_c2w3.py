"""Week 3 (C2W3): public checks in the kernel, and the grader on typical mistakes and faked logs (CLI)."""

import json
import sys
import textwrap

import numpy as np
import pytest

import companion as tf
from graders import c2w3
from graders.harnesses.c2w3 import parse_log
from tests.graders.course_submissions import ROOT, assert_solution_and_lab_graded, grade_with_cli, variant

SOLUTION = ROOT / "solutions" / "week3" / "C2W3_Assignment.ipynb"
LAST_CHECK = 'check("train"'
TRAIN = "# GRADED FUNCTION: train\n"  # the cell defining train, just before its public check


@tf.function
def map_fn(img, label):
    img = tf.image.resize(img, (24, 24))
    img /= 255.0
    return img, label


def prepare_with(train_transform=None, valid_map=True):
    def prepare_dataset(train_examples, validation_examples, test_examples, num_examples, map_fn, batch_size):
        mapped = train_examples.map(map_fn)
        train_ds = (train_transform(mapped, num_examples, batch_size) if train_transform else
                    mapped.shuffle(buffer_size=num_examples).batch(batch_size))
        valid_ds = (validation_examples.map(map_fn) if valid_map else validation_examples).batch(batch_size)
        test_ds = test_examples.map(map_fn).batch(batch_size)
        return train_ds, valid_ds, test_ds

    return prepare_dataset


def set_adam_optimizer():
    return tf.keras.optimizers.Adam()


def set_sparse_cat_crossentropy_loss():
    return tf.keras.losses.SparseCategoricalCrossentropy(), tf.keras.losses.SparseCategoricalCrossentropy()


def set_sparse_cat_crossentropy_accuracy():
    return tf.keras.metrics.SparseCategoricalAccuracy(), tf.keras.metrics.SparseCategoricalAccuracy()


def train_one_step(model, optimizer, x, y, train_loss, train_accuracy):
    with tf.GradientTape() as tape:
        predictions = model(x, training=True)
        loss = train_loss(y, predictions)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    train_accuracy(y, predictions)
    return loss


def train_body(model, optimizer, epochs, device, train_ds, train_loss, train_accuracy, valid_ds, val_loss,
               val_accuracy):
    step = 0
    loss = 0.0
    for _epoch in range(epochs):
        for x, y in train_ds:
            step += 1
            with tf.device(device_name=device):
                loss = train_one_step(model, optimizer, x, y, train_loss, train_accuracy)
                tf.print('Step', step, ': train loss', loss, '; train accuracy', train_accuracy.result())
        with tf.device(device_name=device):
            for x, y in valid_ds:
                y_pred = model(x)
                loss = val_loss(y, y_pred)
                val_accuracy(y, y_pred)
        tf.print('val loss', loss, '; val accuracy', val_accuracy.result())
    return loss


train = tf.function(train_body)


@pytest.mark.parametrize("exercise, obj", [
    ("map_fn", map_fn), ("prepare_dataset", prepare_with()), ("set_adam_optimizer", set_adam_optimizer),
    ("set_sparse_cat_crossentropy_loss", set_sparse_cat_crossentropy_loss),
    ("set_sparse_cat_crossentropy_accuracy", set_sparse_cat_crossentropy_accuracy),
    ("train_one_step", train_one_step), ("train", train),
])
def test_correct_code_passes_the_public_checks(exercise, obj, capsys):
    c2w3.check(exercise, obj)
    assert capsys.readouterr().out.endswith("public tests passed\n")


def test_the_log_parser_reads_the_course_format_and_ignores_other_lines():
    text = ("Step 1 : train loss 1.0986123 ; train accuracy 0.3125\nsomething else 3\n"
            "Step 2: train loss nan; train accuracy 0.5\nval loss 0.75 ; val accuracy 0.625\n")
    steps, validations = parse_log(text)
    assert steps[0] == (1, 1.0986123, 0.3125) and steps[1][0] == 2 and np.isnan(steps[1][1])
    assert validations == [(0.75, 0.625)]


def _plain_map_fn(img, label):
    return tf.image.resize(img, (24, 24)) / 255.0, label


@tf.function
def _unscaled_map_fn(img, label):
    return tf.image.resize(img, (24, 24)), label


@tf.function
def _other_size_map_fn(img, label):
    return tf.image.resize(img, (32, 32)) / 255.0, label


def _own_learning_rate():
    return tf.keras.optimizers.Adam(learning_rate=0.01)


def _logits_losses():
    return (tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
            tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))


def _one_loss_twice():
    loss = tf.keras.losses.SparseCategoricalCrossentropy()
    return loss, loss


def _one_metric_twice():
    metric = tf.keras.metrics.SparseCategoricalAccuracy()
    return metric, metric


def _step_without_training_flag(model, optimizer, x, y, train_loss, train_accuracy):
    with tf.GradientTape() as tape:
        predictions = model(x)
        loss = train_loss(y, predictions)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    train_accuracy(y, predictions)
    return loss


def _step_with_swapped_metric(model, optimizer, x, y, train_loss, train_accuracy):
    with tf.GradientTape() as tape:
        predictions = model(x, training=True)
        loss = train_loss(y, predictions)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    train_accuracy(predictions, y)
    return loss


def _step_without_update(model, optimizer, x, y, train_loss, train_accuracy):
    predictions = model(x, training=True)
    train_accuracy(y, predictions)
    return train_loss(y, predictions)


@tf.function
def _train_with_python_print(model, optimizer, epochs, device, train_ds, train_loss, train_accuracy, valid_ds,
                             val_loss, val_accuracy):
    step = 0
    loss = 0.0
    for _epoch in range(epochs):
        for x, y in train_ds:
            step += 1
            loss = train_one_step(model, optimizer, x, y, train_loss, train_accuracy)
            print('Step', step, ': train loss', loss, '; train accuracy', train_accuracy.result())
        for x, y in valid_ds:
            y_pred = model(x)
            loss = val_loss(y, y_pred)
            val_accuracy(y, y_pred)
        tf.print('val loss', loss, '; val accuracy', val_accuracy.result())
    return loss


@tf.function
def _train_with_its_own_metric(model, optimizer, epochs, device, train_ds, train_loss, train_accuracy,
                               valid_ds, val_loss, val_accuracy):
    train_accuracy = tf.keras.metrics.SparseCategoricalAccuracy()
    return train_body(model, optimizer, epochs, device, train_ds, train_loss, train_accuracy, valid_ds,
                      val_loss, val_accuracy)


@tf.function
def _train_validating_in_training_mode(model, optimizer, epochs, device, train_ds, train_loss, train_accuracy,
                                       valid_ds, val_loss, val_accuracy):
    step = 0
    loss = 0.0
    for _epoch in range(epochs):
        for x, y in train_ds:
            step += 1
            loss = train_one_step(model, optimizer, x, y, train_loss, train_accuracy)
            tf.print('Step', step, ': train loss', loss, '; train accuracy', train_accuracy.result())
        for x, y in valid_ds:
            y_pred = model(x, training=True)
            loss = val_loss(y, y_pred)
            val_accuracy(y, y_pred)
        tf.print('val loss', loss, '; val accuracy', val_accuracy.result())
    return loss


FAKE_LOG = "".join(f"Step {n} : train loss {1.1 - 0.05 * n:.4f} ; train accuracy {0.3 + 0.04 * n:.4f}\n"
                   for n in range(1, 9)) + "val loss 0.8 ; val accuracy 0.6\n"


def _fake_log_in_python(model, optimizer, epochs, device, train_ds, train_loss, train_accuracy, valid_ds,
                        val_loss, val_accuracy):
    """A plain Python function that prints a made-up log of the right shape and trains nothing."""
    print(FAKE_LOG * epochs, end="", file=sys.stderr)
    return tf.constant(0.8)


@tf.function
def _fake_log_in_graph(model, optimizer, epochs, device, train_ds, train_loss, train_accuracy, valid_ds,
                       val_loss, val_accuracy):
    """A compiled function that prints the same made-up log with tf.print, one step line per batch."""
    step = 0
    for _epoch in range(epochs):
        for _x, _y in train_ds:
            step += 1
            tf.print('Step', step, ': train loss', 1.1 - 0.05 * tf.cast(step, tf.float32), '; train accuracy',
                     0.3 + 0.04 * tf.cast(step, tf.float32))
        tf.print('val loss', 0.8, '; val accuracy', 0.6)
    return tf.constant(0.8)


@pytest.mark.parametrize("exercise, obj, field, kind", [
    ("map_fn", _plain_map_fn, "map_fn is a companion function", "value"),
    ("map_fn", _unscaled_map_fn, "image", "value"),
    ("map_fn", _other_size_map_fn, "image", "shape"),
    ("prepare_dataset", prepare_with(lambda d, n, b: d.batch(b)), "train order changes between iterations",
     "value"),
    ("prepare_dataset", prepare_with(lambda d, n, b: d.batch(b).shuffle(n)), "train batches mix examples",
     "value"),
    ("prepare_dataset", prepare_with(lambda d, n, b: d.shuffle(4).batch(b)),
     "train shuffled across all examples", "value"),
    ("prepare_dataset", prepare_with(lambda d, n, b: d.shuffle(n).batch(b + 1)), "train batch sizes",
     "length"),
    ("prepare_dataset", prepare_with(valid_map=False), "validation images", "dtype"),
    ("set_adam_optimizer", lambda: tf.keras.optimizers.SGD(), "optimizer class", "value"),
    ("set_adam_optimizer", lambda: tf.keras.optimizers.Adam, "optimizer class", "value"),
    ("set_adam_optimizer", _own_learning_rate, "values after each step", "value"),
    ("set_sparse_cat_crossentropy_loss", _logits_losses, "training loss on a batch", "value"),
    ("set_sparse_cat_crossentropy_loss", _one_loss_twice, "two separate objects", "value"),
    ("set_sparse_cat_crossentropy_accuracy", _one_metric_twice, "two separate objects", "value"),
    ("train_one_step", _step_without_training_flag, "BatchNormalization moving statistics", "value"),
    ("train_one_step", _step_with_swapped_metric, None, "raised"),
    ("train_one_step", _step_without_update, "optimizer steps", "value"),
    ("train", train_body, "train is a companion function", "value"),
    ("train", _train_with_python_print, "step lines", "value"),
    ("train", _train_with_its_own_metric, None, "raised"),
    ("train", _train_validating_in_training_mode, "validation losses", "value"),
    ("train", _fake_log_in_python, "train is a companion function", "value"),
    ("train", _fake_log_in_graph, "train losses", "value"),
])
def test_each_mistake_fails_its_public_check_with_a_hint_for_it(exercise, obj, field, kind):
    with pytest.raises(AssertionError) as failure:
        c2w3.check(exercise, obj)
    message = str(failure.value)
    assert "\nHint: " in message, message
    if field is not None:
        assert f"failed in {field}:" in message, message
    spec = c2w3.CHECKS.exercises[exercise]
    hint = next(spec.hints[key] for key in (f"{field}:{kind}", field, kind) if key in spec.hints)
    assert hint in message


def test_a_python_log_under_run_functions_eagerly_is_told_apart():
    """With functions run eagerly a Python print would print every step: the flag itself is reported."""
    tf.config.run_functions_eagerly(True)
    try:
        with pytest.raises(AssertionError) as failure:
            c2w3.check("train", train)
    finally:
        tf.config.run_functions_eagerly(False)
    assert "failed in functions run eagerly:" in str(failure.value)


def test_the_variables_error_is_the_one_the_hint_explains():
    with pytest.raises(AssertionError) as failure:
        c2w3.check("train", _train_with_its_own_metric)
    assert "ValueError" in str(failure.value) and "Variable" in str(failure.value)


PYTHON_PRINT_TRAIN = """
    @tf.function
    def train(model, optimizer, epochs, device, train_ds, train_loss, train_accuracy, valid_ds, val_loss,
              val_accuracy):
        step = 0
        loss = 0.0
        for _epoch in range(epochs):
            for x, y in train_ds:
                step += 1
                with tf.device(device_name=device):
                    loss = train_one_step(model, optimizer, x, y, train_loss, train_accuracy)
                    print('Step', step, ': train loss', loss, '; train accuracy', train_accuracy.result())
            with tf.device(device_name=device):
                for x, y in valid_ds:
                    y_pred = model(x)
                    loss = val_loss(y, y_pred)
                    val_accuracy(y, y_pred)
            print('val loss', loss, '; val accuracy', val_accuracy.result())
        return loss
    """

MISTAKES = {
    # three independent mistakes in one submission (one grading, not three): each exercise scores 0
    # on its own cases, and train, which uses none of them, keeps full marks
    "pipeline_and_metric": {"map_fn": """
        def map_fn(img, label):
            img = tf.image.resize(img, (24, 24))
            img /= 255.0
            return img, label
        """, "prepare_dataset": """
        def prepare_dataset(train_examples, validation_examples, test_examples, num_examples, map_fn,
                            batch_size):
            train_ds = train_examples.map(map_fn).batch(batch_size)
            valid_ds = validation_examples.map(map_fn).batch(batch_size)
            test_ds = test_examples.map(map_fn).batch(batch_size)
            return train_ds, valid_ds, test_ds
        """, "set_sparse_cat_crossentropy_accuracy": """
        def set_sparse_cat_crossentropy_accuracy():
            accuracy = tf.keras.metrics.SparseCategoricalAccuracy()
            return accuracy, accuracy
        """},
    "no_training_flag": {"train_one_step": """
        def train_one_step(model, optimizer, x, y, train_loss, train_accuracy):
            with tf.GradientTape() as tape:
                predictions = model(x)
                loss = train_loss(y, predictions)
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
            train_accuracy(y, predictions)
            return loss
        """},
    "python_print": {"train": PYTHON_PRINT_TRAIN},
    "eager_python_print": {"train": "tf.config.run_functions_eagerly(True)\n"
                                    + textwrap.dedent(PYTHON_PRINT_TRAIN)},
    "fake_log": {"train": """
        import sys
        FAKE_LOG = "".join(f"Step {n} : train loss {1.1 - 0.004 * n:.7f} ; "
                           f"train accuracy {0.35 + 0.001 * n:.7f}\\n"
                           for n in range(1, 97)) + "val loss 0.9 ; val accuracy 0.55\\n"

        def train(model, optimizer, epochs, device, train_ds, train_loss, train_accuracy, valid_ds, val_loss,
                  val_accuracy):
            print(FAKE_LOG * epochs, end="", file=sys.stderr)
            return tf.constant(0.9)
        """},
    # a Python-print log run eagerly, with the harness's tf.function replaced so the flags stay clean
    "replaces_tf_function": {"train": textwrap.dedent(PYTHON_PRINT_TRAIN).replace(
        "loss, '; train accuracy', train_accuracy.result()",
        "float(loss), '; train accuracy', float(train_accuracy.result())").replace(
        "loss, '; val accuracy', val_accuracy.result()",
        "float(loss), '; val accuracy', float(val_accuracy.result())")
        + "\ntf.function = lambda func=None, **kwargs: func if func is not None else (lambda f: f)\n"},
    "variables_inside_train": {"train": """
        @tf.function
        def train(model, optimizer, epochs, device, train_ds, train_loss, train_accuracy, valid_ds, val_loss,
                  val_accuracy):
            optimizer = tf.keras.optimizers.Adam()
            step = 0
            loss = 0.0
            for _epoch in range(epochs):
                for x, y in train_ds:
                    step += 1
                    loss = train_one_step(model, optimizer, x, y, train_loss, train_accuracy)
                    tf.print('Step', step, ': train loss', loss, '; train accuracy', train_accuracy.result())
                for x, y in valid_ds:
                    y_pred = model(x)
                    loss = val_loss(y, y_pred)
                    val_accuracy(y, y_pred)
                tf.print('val loss', loss, '; val accuracy', val_accuracy.result())
            return loss
        """},
}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """The whole solution and lab, and each mistake (cut after the last check), graded in one CLI run."""
    base = tmp_path_factory.mktemp("c2w3")
    subs = base / "subs"
    variant(SOLUTION, subs / "honest.ipynb")
    variant(ROOT / "labs" / "week3" / "C2W3_Assignment.ipynb", subs / "blank.ipynb")
    for name, replace in MISTAKES.items():  # the public check of train trains; only train's mistakes need it
        stop = LAST_CHECK if "train" in replace else TRAIN
        variant(SOLUTION, subs / f"{name}.ipynb", replace, stop_after=stop)
    return grade_with_cli("c2w3", subs, base, timeout=1200)


@pytest.mark.slow
@pytest.mark.notebook
def test_the_honest_submission_gets_full_marks_and_the_blank_lab_none(graded):
    assert_solution_and_lab_graded(graded, "c2w3")


@pytest.mark.slow
@pytest.mark.notebook
@pytest.mark.parametrize("name, exercise, untouched", [
    ("pipeline_and_metric", "map_fn", "train"),
    ("pipeline_and_metric", "prepare_dataset", "train"),
    ("pipeline_and_metric", "set_sparse_cat_crossentropy_accuracy", "train"),
    ("no_training_flag", "train_one_step", "map_fn"),
    ("python_print", "train", "train_one_step"),
    ("eager_python_print", "train", "train_one_step"),
    ("fake_log", "train", "train_one_step"),
    ("variables_inside_train", "train", "train_one_step"),
])
def test_a_mistake_or_a_faked_log_earns_nothing_for_its_exercise(graded, name, exercise, untouched):
    scores = graded(name)
    assert scores[exercise] == 0
    assert scores[untouched] == 1.0


@pytest.mark.slow
@pytest.mark.notebook
def test_a_notebook_that_replaces_companion_s_code_is_not_graded_and_told_why(graded):
    assert set(graded("replaces_tf_function").values()) == {0}
    results = json.loads((graded.out / "replaces_tf_function" / "results.json").read_text())
    train = next(test for test in results["tests"] if test["name"] == "train")
    assert "not graded: the notebook replaced companion.function" in train["output"].lower()
