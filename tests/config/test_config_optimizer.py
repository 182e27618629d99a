"""``config.optimizer`` keeps TF 2.21's values: set_jit(True) gives 'autoclustering', anything else ''."""

import companion as tf


def test_set_jit_values_as_tf():
    try:
        for value, expected in [(False, ""), (True, "autoclustering"), ("autoclustering", "autoclustering"),
                                (None, ""), ("bad", "")]:  # TF 2.21: 'bad' is no error, turns it off
            tf.config.optimizer.set_jit(value)
            assert tf.config.optimizer.get_jit() == expected
    finally:
        tf.config.optimizer.set_jit(False)


def test_experimental_options_as_tf():
    # TF 2.21 starts with these two and adds what is set
    assert tf.config.optimizer.get_experimental_options() == {"disable_model_pruning": False,
                                                              "disable_meta_optimizer": False}
    tf.config.optimizer.set_experimental_options({"layout_optimizer": False})
    assert tf.config.optimizer.get_experimental_options()["layout_optimizer"] is False
