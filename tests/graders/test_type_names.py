"""A notebook class that claims a library's name (`__module__ = "companion"`) is named as the notebook's."""

import numpy as np
import pytest

import companion as tf
from graders._values import encode_output, type_name
from graders.harnesses import c2w3


def _impostor(module, qualname, **body):
    return type(qualname.rsplit(".", 1)[-1], (), {"__module__": module, "__qualname__": qualname, **body})


@pytest.mark.parametrize("value, name", [
    (tf.function(lambda x: x), "companion.Function"),
    (tf.keras.optimizers.Adam(), "companion.Adam"),
    (tf.constant(1.0), "companion.Tensor"),
    (np.zeros(2), "numpy.ndarray"),
    (np.dtype("float32"), "numpy.Float32DType"),
    (1.5, "float"),
])
def test_library_classes_keep_their_names(value, name):
    assert type_name(value) == name == c2w3.class_name(value)


@pytest.mark.parametrize("module, qualname", [
    ("companion", "Function"), ("companion._staging._function", "Function"),
    ("companion.keras.optimizers._adam", "Adam"), ("companion._core._tensor", "Tensor"),
    ("numpy", "ndarray"), ("companion.not_a_module", "Tensor"),
])
def test_a_class_claiming_a_library_name_is_the_notebook_s(module, qualname):
    impostor = _impostor(module, qualname)()
    assert type_name(impostor) == f"__main__.{qualname}" == c2w3.class_name(impostor)


def test_a_plain_function_dressed_as_a_tf_function_fails_map_fn_s_type_check():
    """The lab's mistake of a map_fn without @tf.function, wrapped to claim companion.Function."""
    def plain(image, label):
        return tf.cast(image, tf.float32), label

    dressed = _impostor("companion._staging._function", "Function",
                        __call__=lambda self, *args: plain(*args))()
    image, others = np.zeros((2, 2, 3), np.uint8), np.zeros((2, 3, 3, 3), np.uint8)
    result = c2w3.map_fn(dressed, image, np.int64(1), others)
    assert result["map_fn is a companion function"] == "__main__.Function"


def test_an_impostor_tensor_is_not_read_as_a_tensor():
    fake = _impostor("companion", "Tensor", shape=(), numpy=lambda self: np.float32(0.5))()
    assert encode_output(fake) == {"t": "object", "type": "__main__.Tensor"}
