"""`Function.experimental_get_compiler_ir`: the XLA program of one traced signature, as text or bytes.

TensorFlow hands ``jit_compile=True`` functions to XLA and can show the HLO it builds; companion
compiles every function with XLA (through JAX), so this lowers the ConcreteFunction's program
with ``jax.jit(...).lower`` and returns what XLA sees: ``'hlo'`` before XLA's optimisation
passes (one instruction per operation), ``'optimized_hlo'`` after them (elementwise chains
and reductions fused into ``fusion`` instructions, one kernel each).
"""

import functools

import jax
from jax._src.lib import xla_client

STAGES = ("hlo", "hlo_serialized", "optimized_hlo", "optimized_hlo_serialized", "optimized_hlo_dot")


def compiler_ir(function, args, kwargs):
    """The ``compiler_ir(stage='hlo', device_name=None, platform_name=None)`` callable TF returns."""
    if not function._jit_compile:
        raise ValueError("Compiler IR can only be returned for functions marked with 'jit_compile=True'. "
                         f"Decorate {function._name!r} with companion.function(jit_compile=True).")
    concrete = function.get_concrete_function(*args, **kwargs)
    lowered = functools.lru_cache(maxsize=1)(lambda: _lowered(concrete))

    def compiler_ir_generator(stage="hlo", device_name=None, platform_name=None):
        if stage not in STAGES:
            valid = ", ".join(repr(s) for s in STAGES)
            raise ValueError(f"Invalid stage selected: {stage!r}. Valid values are: {valid}")
        return _STAGE_TEXT[stage](lowered())

    return compiler_ir_generator


def _lowered(concrete):
    """``jax.jit`` of the ConcreteFunction's program, lowered for its inputs and Variables."""
    if concrete._feed_slots:
        raise ValueError(f"experimental_get_compiler_ir: {concrete.name!r} iterates over a dataset, whose "
                         "elements are fed to the program on each call; pass tensors instead.")
    specs = [spec._abstract() for spec in concrete._input_specs]
    specs += [jax.ShapeDtypeStruct(v._v.shape, v._v.dtype) for v in concrete.variables]

    def program(*arrays):
        return concrete._run(*arrays)

    program.__name__ = program.__qualname__ = concrete.name
    return jax.jit(program).lower(*specs)


def _optimized_module(lowered):
    return lowered.compile().runtime_executable().hlo_modules()[0]


def _without_source_tables(text):
    """HLO text without the FileNames/FunctionNames/FileLocations/StackFrames tables XLA prepends."""
    kept, skipping = [], False
    for line in text.splitlines():
        if line in _SOURCE_TABLES:
            skipping = True
        elif skipping and not line.strip():
            skipping = False
            continue
        if not skipping:
            kept.append(line)
    return "\n".join(kept) + "\n"


_SOURCE_TABLES = {"FileNames", "FunctionNames", "FileLocations", "StackFrames"}


def _dot(lowered):
    return xla_client.XlaComputation(_optimized_module(lowered).as_serialized_hlo_module_proto()) \
        .as_hlo_dot_graph()


_STAGE_TEXT = {
    "hlo": lambda lowered: lowered.as_text(dialect="hlo"),
    "hlo_serialized": lambda lowered: lowered.compiler_ir("hlo").as_serialized_hlo_module_proto(),
    "optimized_hlo": lambda lowered: _without_source_tables(_optimized_module(lowered).to_string()),
    "optimized_hlo_serialized": lambda lowered: _optimized_module(lowered).as_serialized_hlo_module_proto(),
    "optimized_hlo_dot": _dot,
}
