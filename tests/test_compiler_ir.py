"""``Function.experimental_get_compiler_ir`` as TF 2.21 exposes it, on XLA's HLO from JAX's lowering.

TF 2.21: the call returns a function of ``stage`` (default ``'hlo'``); text stages are str,
``*_serialized`` are bytes; an unknown stage is a ValueError listing the valid ones; a
function without ``jit_compile=True`` is a ValueError. ``reduce_sum(x + y * z)`` has
separate multiply/add/reduce instructions in ``'hlo'`` and one fusion in ``'optimized_hlo'``.
"""

import re

import pytest

import companion as tf


@tf.function(jit_compile=True)
def fused(x, y, z):
    return tf.reduce_sum(x + y * z)


def test_stages_and_types():
    x = tf.ones((8, 8))
    ir = fused.experimental_get_compiler_ir(x, x, x)
    hlo = ir()
    assert hlo.startswith("HloModule") and hlo == ir(stage="hlo")
    assert "f32[8,8]" in hlo and "->f32[]" in hlo
    assert isinstance(ir(stage="hlo_serialized"), bytes)
    assert isinstance(ir(stage="optimized_hlo_serialized"), bytes)
    assert ir(stage="optimized_hlo_dot").startswith("digraph")


def test_fusion_in_optimized_hlo():
    x = tf.ones((8, 8))
    ir = fused.experimental_get_compiler_ir(x, x, x)
    entry = ir("hlo").split("ENTRY")[1]
    assert all(op in entry for op in (" multiply(", " add(", " reduce("))
    optimized = ir("optimized_hlo")
    entry = optimized.split("ENTRY")[1]
    assert len(re.findall(r" fusion\(", entry)) == 1  # TF 2.21 CPU: one fusion, kind=kLoop
    assert " multiply(" not in entry and "FileNames" not in optimized


def test_tensor_specs_and_variables():
    ir = fused.experimental_get_compiler_ir(*[tf.TensorSpec((2, 2))] * 3)
    assert "f32[2,2]" in ir(stage="hlo")
    v = tf.Variable(tf.ones(3))

    @tf.function(jit_compile=True)
    def scale(x):
        v.assign(v * x)
        return v.read_value()

    assert "f32[3]" in scale.experimental_get_compiler_ir(tf.constant(2.0))("optimized_hlo")
    assert v.numpy().tolist() == [1.0, 1.0, 1.0]  # getting the IR runs nothing


def test_errors_match_tf():
    x = tf.ones((8, 8))
    with pytest.raises(ValueError, match="Invalid stage selected: 'bogus'. Valid values are: 'hlo'"):
        fused.experimental_get_compiler_ir(x, x, x)(stage="bogus")

    @tf.function
    def plain(x):
        return x

    with pytest.raises(ValueError, match="only be returned for functions marked with 'jit_compile=True'"):
        plain.experimental_get_compiler_ir(x)
    with pytest.raises(ValueError, match="unknown dimensions"):
        fused.experimental_get_compiler_ir(*[tf.TensorSpec((None, 2))] * 3)()
