"""The source-to-source converter: TensorFlow's AutoGraph (``diastatic-malt``) with companion's operators.

malt parses a function, rewrites ``if``/``while``/``for``/``break``/``continue``/``return``/
``and``/``or``/``not`` into calls of ``ag__.<operator>(...)`` and compiles the result. Its
generated code finds those operators in one namespace; companion gives it a namespace in
which the control-flow and logic operators are `companion.autograph._control_flow`'s, and
``converted_call`` turns ``range(tensor)`` and `companion.range` into in-graph ranges.
"""

import ast
import importlib.util  # noqa: F401 - malt uses importlib.util without importing it
import sys
import types

from malt.core import config as malt_config
from malt.core import config_lib
from malt.impl import api as malt_api

from companion._core._context import state
from companion._ops._creation import range as companion_range
from companion.autograph import _control_flow, _state
from companion.autograph._builtins import NOT_CONVERTED, converted_builtin
from companion.autograph._loops import RangeTensor, TracedRange

_NOT_CONVERTED = ("companion", "jax", "jaxlib", "optax", "numpy", "IPython", "ipykernel",
                  "ipywidgets", "matplotlib", "tqdm", "sklearn", "scipy", "ml_dtypes")


class _Converter(malt_api.PyToPy):
    """malt's transpiler, generating code that calls companion's operators."""

    def get_extra_locals(self):
        if self._extra_locals is None:
            base = super().get_extra_locals()["ag__"]
            namespace = types.ModuleType("ag__")
            namespace.__dict__.update(base.__dict__)
            namespace.__dict__.update(_OPERATORS)
            self._extra_locals = {"ag__": namespace}
        return self._extra_locals

    def get_transformed_name(self, node):
        # TF's AutoGraph names the converted function `tf__f` (malt: `ag__f`), as `to_code` shows
        return "tf__" + super(malt_api.PyToPy, self).get_transformed_name(node)

    def transform_ast(self, node, ctx):
        return _InOrder().visit(super().transform_ast(_UnnamedHandlers().visit(node), ctx))

    def transform_function(self, fn, user_context):
        result = super().transform_function(fn, user_context)
        transformed, _, source_map = result
        _state._SOURCE_MAPS[transformed.__code__.co_filename] = source_map
        return result


class _UnnamedHandlers(ast.NodeTransformer):
    """``except E as e:`` rewritten as ``except E:`` whose first statement is ``e = ag__.caught()``.

    malt analyses the handler's name as a node, as TF's AutoGraph (whose ``gast`` trees hold a
    ``Name`` there) does, but a plain ``ast`` tree holds a string: without this, converting any
    function with ``except ... as e`` failed and the function ran unconverted, with a warning.
    """

    def visit_ExceptHandler(self, node):
        self.generic_visit(node)
        if node.name:
            caught = ast.Call(ast.Attribute(ast.Name("ag__", ast.Load()), "caught", ast.Load()), [], [])
            bind = ast.Assign([ast.Name(node.name, ast.Store())], caught)
            node.body.insert(0, ast.fix_missing_locations(ast.copy_location(bind, node.body[0])))
            node.name = None
        return node


class _InOrder(ast.NodeTransformer):
    """Sorts what malt generates from sets: ``nonlocal``/``global`` names and runs of
    ``x = ag__.Undefined('x')`` lines. Their order means nothing, but it followed Python's
    string hashing, so `to_code` printed the same function differently from run to run."""

    def visit_Nonlocal(self, node):
        node.names = sorted(node.names)
        return node

    visit_Global = visit_Nonlocal

    def generic_visit(self, node):
        super().generic_visit(node)
        for field in ("body", "orelse", "finalbody"):
            statements = getattr(node, field, None)
            if isinstance(statements, list):
                setattr(node, field, _sorted_undefined_runs(statements))
        return node


def _sorted_undefined_runs(statements):
    result, run = [], []
    for statement in statements + [None]:
        if statement is not None and _undefined_name(statement):
            run.append(statement)
            continue
        result += sorted(run, key=_undefined_name)
        run = []
        if statement is not None:
            result.append(statement)
    return result


def _undefined_name(statement):
    """``'x'`` for the statement ``x = ag__.Undefined('x')``, else None."""
    value = getattr(statement, "value", None)
    if isinstance(statement, ast.Assign) and isinstance(value, ast.Call) \
            and isinstance(value.func, ast.Attribute) and value.func.attr == "Undefined" \
            and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name):
        return statement.targets[0].id
    return None


def converted_call(f, args, kwargs, caller_fn_scope=None, options=None):
    """Calls ``f`` from converted code: ranges over tensors stay in-graph, user code is converted."""

    if f is range or f is companion_range:
        staged = _staged_range(f is companion_range, args, kwargs or {})
        if staged is not None:
            return staged
    converted = converted_builtin(f, args, kwargs)  # int(t)/float(t): casts, as TF's AutoGraph
    if converted is not NOT_CONVERTED:
        return converted
    return malt_api.converted_call(f, args, kwargs, caller_fn_scope, options)


def _staged_range(always, args, kwargs):
    if kwargs.get("dtype") is not None or not state.staging:
        return None
    bounds = list(args) + [kwargs[k] for k in ("start", "limit", "delta") if k in kwargs]
    if not always and not any(_state.is_traced(b) for b in bounds):
        return None
    if len(bounds) == 1:
        bounds = [0, bounds[0]]
    if len(bounds) == 2:
        bounds.append(1)
    if any(_state.is_traced(b) for b in bounds):  # a length known only at run time: loops only
        return TracedRange(*bounds)
    tensor = companion_range(*args, **kwargs)  # tf.range with known bounds is a tensor, as in TF
    integer = tensor.dtype.is_integer and all(isinstance(b, int) or _is_integer_tensor(b) for b in bounds)
    return RangeTensor(tensor._v, TracedRange(*bounds) if integer else None)


def _is_integer_tensor(value):
    dtype = getattr(value, "dtype", None)
    return dtype is not None and getattr(dtype, "is_integer", False)


_OPERATORS = {
    "if_stmt": _control_flow.if_stmt,
    "if_exp": _control_flow.if_exp,
    "while_stmt": _control_flow.while_stmt,
    "for_stmt": _control_flow.for_stmt,
    "and_": _control_flow.and_,
    "or_": _control_flow.or_,
    "not_": _control_flow.not_,
    "converted_call": converted_call,
    "caught": sys.exception,  # the exception an `except` block handles (`_UnnamedHandlers`)
}


def install():
    """Makes malt convert with companion's operators and leave library code alone."""
    if not isinstance(malt_api._TRANSPILER, _Converter):
        malt_api._TRANSPILER = _Converter()
        rules = tuple(config_lib.DoNotConvert(name) for name in _NOT_CONVERTED)
        malt_config.CONVERSION_RULES = rules + tuple(malt_config.CONVERSION_RULES)


def to_graph(entity, recursive=True):
    """``entity`` converted by AutoGraph (a function or method; callable objects: their ``__call__``)."""
    install()
    return malt_api.to_graph(entity, recursive=recursive)


def to_code(entity, recursive=True):
    """The Python source AutoGraph generates for ``entity``."""
    install()
    return malt_api.to_code(entity, recursive=recursive)
