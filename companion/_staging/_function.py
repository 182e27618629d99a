"""`function`: the staging interpreter. Traces Python once per signature, runs it compiled.

A call looks up a `ConcreteFunction` by the call's *signature* (the shapes and dtypes of
tensor arguments, the values of Python arguments, the identity of Variable arguments);
a miss traces the Python function (converted by AutoGraph) with ``jax.make_jaxpr``.
Variables the trace reads become inputs of the compiled program and Variables it writes
become extra outputs that are written back after every call (see `companion._staging`).
Each ConcreteFunction is an `Op`, so a `GradientTape` records a call as one op.
"""

import functools
import inspect
import weakref

import numpy as np

from companion import _compiled_programs, _staging
from companion._core import _nest
from companion._core._context import flags, state
from companion._core._convert import convert_to_tensor
from companion._core._shape import TensorShape
from companion._core._tensor import Tensor
from companion._core._tensor_names import TensorNames
from companion._core._tensor_spec import (
    TensorSpec,
    bindable_signature,
    check_per_replica_signature,
    check_signature,
    has_per_replica_spec,
)
from companion._logger import get_logger
from companion._staging import _retracing, _trace_hooks, is_traced_leaf
from companion._staging._concrete_function import ConcreteFunction, trace_concrete
from companion._staging._dataset_generic import DatasetGenericFunction
from companion._staging._dataset_specs import covers as dataset_covers
from companion._staging._dataset_specs import dataset_keys, is_string_tensor, staged_with
from companion._staging._input_names import call_names
from companion._staging._needs_values import NeedsValues
from companion._staging._quietly import quietly
from companion._staging._shape_generic import ShapeGenericFunction, placeholder
from companion.autograph import to_graph
from companion.autograph._user_code_errors import recording_user_frames, user_code_error


class Function:
    """A Python callable staged and compiled by `companion.function`.

    Example:
        >>> import companion as tf
        >>> @tf.function
        ... def add(a, b):
        ...     return a + b
        >>> print(add(tf.constant([1, 2]), tf.constant([3, 4])))
        companion.Tensor([4 6], shape=(2,), dtype=int32)
        >>> add.experimental_get_tracing_count()
        1
    """

    def __init__(self, python_function, name=None, input_signature=None, autograph=True,
                 jit_compile=None, reduce_retracing=False, experimental_autograph_options=None):
        if not callable(python_function):
            raise TypeError(f"companion.function needs a callable. Received: {python_function!r}")
        self._python_function = python_function
        self._name = name or getattr(python_function, "__name__", type(python_function).__name__)
        self._input_signature = _checked_signature(input_signature)
        # a signature of per-replica specs (a distributed dataset's element_spec) checks each call's
        # values, then traces by the call's signature: a PerReplica is one split array already
        self._per_replica_signature = has_per_replica_spec(self._input_signature)
        self._autograph = bool(autograph)
        self._jit_compile = jit_compile
        self._reduce_retracing = bool(reduce_retracing)
        self._concrete = {}  # call signature -> the ConcreteFunction (or ShapeGenericFunction) it runs
        self._traced = []  # every traced signature, in order
        self._generic = []  # (treedef, keys, ShapeGenericFunction): signatures with None dimensions
        self._seen = []  # (treedef, keys) of each trace: what reduce_retracing generalises against
        self._signature_function = None  # the one trace of an input_signature
        self._signature = None  # inspect.Signature of the Python function (False: none readable)
        self._bindable = None  # the input_signature's inspect.Signature to bind calls with
        self._binding_plans = {}  # (number of positional args, keyword names) -> binding function
        self._tracing_count = 0
        self._first_call_traced = False  # after it, no trace may create Variables
        self._fast = {}  # (class, shape, dtype) of each positional Tensor argument -> ConcreteFunction
        self._instances = weakref.WeakKeyDictionary()
        self._converted = None
        self._retracing = _retracing.detector(python_function)  # TF's warning on frequent retracing
        functools.update_wrapper(self, python_function, updated=())

    # -- the public surface -------------------------------------------------------------
    @property
    def python_function(self):
        return self._python_function

    @property
    def input_signature(self):
        return self._input_signature

    def experimental_get_tracing_count(self):
        """How many times the Python function has been traced.

        As in TensorFlow, a first call whose trace creates Variables counts two traces: the
        function is traced again to check that it reuses them (see `function`).
        """
        return self._tracing_count

    def get_concrete_function(self, *args, **kwargs):
        """The `ConcreteFunction` for these arguments (tracing it if needed).

        Arguments may be values or `TensorSpec`s.
        """
        if not args and not kwargs and self._input_signature is not None:
            args = tuple(self._input_signature)
        return self._lookup(args, kwargs)[0]

    def experimental_get_compiler_ir(self, *args, **kwargs):
        """The XLA program for these arguments: ``(stage='hlo'|'optimized_hlo'|...) -> str``.

        Needs ``jit_compile=True``, as in TensorFlow (see `companion._staging._compiler_ir`).
        """
        # deferred: loaded on first use, so `import companion` does not load companion._staging._compiler_ir
        from companion._staging._compiler_ir import compiler_ir

        return compiler_ir(self, args, kwargs)

    def pretty_printed_concrete_signatures(self):
        """Each traced signature as TF writes it (`_signature_text`), a blank line between them."""
        return "\n\n".join(c.pretty_printed_signature() for c in self._traced)

    def __call__(self, *args, **kwargs):
        if not (kwargs or state.staging or flags.run_functions_eagerly):
            try:  # the common call: positional numeric Tensors of a known signature
                key = tuple([(a.__class__, a._v.shape, a._v.dtype) for a in args])
                concrete = self._fast.get(key)
            except AttributeError:
                concrete = None
            if concrete is not None:
                self._retracing.untraced += 1
                return concrete.call(args)
        if flags.run_functions_eagerly:
            return self._python_function(*args, **kwargs)
        if state.staging:  # nested functions inline into the enclosing trace
            return self._inlined(args, kwargs)
        traces = self._tracing_count
        try:
            return self._call(args, kwargs)
        finally:
            if self._tracing_count == traces:
                self._retracing.untraced += 1
            else:
                self._retracing.traced(self._python_function)

    def _call(self, args, kwargs):
        """A top-level call that is not the fast path's: looks the signature up (tracing a new one)."""
        _compiled_programs.at_safe_point()  # a call that may trace and compile: none is being built
        try:
            concrete, flat_args, variables, datasets = self._lookup(args, kwargs)
        except NeedsValues:  # shapes that only the values decide: run it as TF's graph would, eagerly
            return quietly(lambda: self._callable()(*args, **kwargs))
        except Exception as error:  # TF's "in user code:" form of an error its trace raised
            raise user_code_error(error)  # noqa: B904 - the same error, or TF's rewrite of it
        if datasets is not None:
            concrete = concrete.specialization(datasets)
        if isinstance(concrete, ShapeGenericFunction):
            concrete = concrete.specialization(flat_args)
        key = None if kwargs else _fast_key(args)
        if key is not None and all(a is b for a, b in zip(args, flat_args)) and len(args) == len(flat_args):
            self._fast[key] = concrete  # (an input_signature that converted nothing: the same check)
        return concrete.call(flat_args, variables)

    def _inlined(self, args, kwargs):
        """A call while tracing another function. Inside a `function`'s own trace it calls this
        function's concrete function for the arguments, traced once per signature as in TF (its
        Python runs once, its graph names and op seeds are its own) and run inside the enclosing
        program. Elsewhere (a dataset function, a replica of `Strategy.run`), or when it draws
        random numbers, its code joins the trace, its random ops counting their op seeds from 0
        (`tf_function_kernel`)."""
        trace = state.traces[-1] if state.traces else None
        if getattr(trace, "tensor_names", None) is not None and not state.replicas:
            concrete, flat_args, variables, datasets = self._lookup(args, kwargs)
            if datasets is not None:
                concrete = concrete.specialization(datasets)
            # (random ops keep their kernels' state in Variables of the trace, but TF gives each call
            # site its own kernels: such a function still joins the enclosing trace)
            if not any(v._is_rng_state for v in concrete.variables):
                if isinstance(concrete, ShapeGenericFunction):
                    concrete = concrete.specialization(flat_args)
                return concrete.call(flat_args, variables)
        outer_count = getattr(trace, "random_ops", None)
        if outer_count is None:
            return self._callable()(*args, **kwargs)
        trace.random_ops = 0
        try:
            return self._callable()(*args, **kwargs)
        finally:
            trace.random_ops = outer_count

    def __get__(self, instance, owner):
        if instance is None:
            return self
        bound = self._instances.get(instance)
        if bound is None:
            method = self._python_function.__get__(instance, owner)
            bound = Function(method, self._name, self._input_signature, self._autograph,
                             self._jit_compile, self._reduce_retracing)
            self._instances[instance] = bound
        return bound

    def __repr__(self):
        return f"<companion.function {self._name}: {self._tracing_count} trace(s)>"

    # -- tracing ------------------------------------------------------------------------------
    def _callable(self):
        if self._converted is None:
            if self._autograph:
                self._converted = recording_user_frames(_converted(self._python_function))
                try:  # TF's errors name the Python function, not its converted twin
                    self._converted._python_source = self._python_function
                except AttributeError:  # a converted bound method or callable object that takes none
                    pass
            else:
                self._converted = self._python_function
        return self._converted

    def _lookup(self, args, kwargs):
        """``(concrete function, its tensor arguments, its Variable arguments, its datasets)`` for a
        call; with datasets, the concrete function is a `DatasetGenericFunction` to specialize."""
        if self._per_replica_signature:
            check_per_replica_signature(self._name, self._input_signature, args, kwargs)
        elif self._input_signature is not None:
            if self._bindable is None:
                self._bindable = bindable_signature(self._input_signature, self._parameters())
            flat = check_signature(self._name, self._input_signature, self._bindable, args, kwargs)
            flat = [_string_stand_in(x) for x in flat]
            strings = [x for x in flat if is_string_tensor(x)] or None
            if isinstance(self._signature_function, _ValueDependent):
                raise self._signature_function.error()
            if self._signature_function is None:
                leaves, treedef = _nest.tree_flatten((tuple(flat), {}))
                keys = tuple(_staging.leaf_key(s) for s in self._input_signature)
                try:
                    self._signature_function = self._new_trace(leaves, treedef, keys, (tuple(flat), {}),
                                                               datasets=strings is not None)
                except NeedsValues as error:
                    self._signature_function = _ValueDependent(error)
                    raise
            if not isinstance(self._signature_function, DatasetGenericFunction):
                strings = None
            return self._signature_function, [x for x in flat if is_traced_leaf(x)], None, strings
        args, kwargs = self._bind(args, kwargs)
        leaves, treedef = _nest.tree_flatten((args, kwargs))
        leaves = [_string_stand_in(x) for x in leaves]
        keys = tuple(_staging.leaf_key(x) for x in leaves)
        variables = None
        if any(k[0] == "variable" for k in keys):
            keys, variables = variable_keys(leaves, keys)
        flat = [x for x in leaves if is_traced_leaf(x)]
        if any(k[0] in ("python", "object", "string") for k in keys):
            spec_keys, datasets = dataset_keys(leaves, keys)
            if datasets is not None:
                concrete = self._lookup_datasets(leaves, treedef, keys, spec_keys, (args, kwargs))
                if concrete is not None:
                    return concrete, flat, variables, datasets
        key = (treedef, keys)
        concrete = self._concrete.get(key)
        if isinstance(concrete, _ValueDependent):
            raise concrete.error()
        if concrete is None:
            concrete = _most_specific(self._generic, treedef, keys)
            if concrete is None:
                try:
                    concrete = self._new_trace(leaves, treedef, keys, (args, kwargs))
                except NeedsValues as error:
                    self._concrete[key] = _ValueDependent(error)  # every later call of it runs eagerly
                    raise
            self._concrete[key] = concrete
        return concrete, flat, variables, None

    def _lookup_datasets(self, leaves, treedef, keys, spec_keys, call):
        """The `DatasetGenericFunction` for a call with dataset arguments: traced once per
        `DatasetSpec` (or one whose specs take these datasets: a batch of 2 fits a batch of None).
        None where the call's tensors have a shape-generic signature: that trace stays bound to its
        datasets, keyed by their identity."""
        concrete = self._concrete.get((treedef, spec_keys))
        if concrete is None:
            concrete = next((c for (tree, known), c in self._concrete.items()
                             if tree == treedef and isinstance(c, DatasetGenericFunction)
                             and _covers_datasets(known, spec_keys)), None)
        if concrete is None and (treedef, keys) not in self._concrete \
                and _most_specific(self._generic, treedef, keys) is None:
            concrete = self._new_trace(leaves, treedef, keys, call, datasets=True)
            if not isinstance(concrete, DatasetGenericFunction):
                self._concrete[(treedef, keys)] = concrete
                return None
            self._concrete[(treedef, spec_keys)] = concrete
        return concrete

    def _bind(self, args, kwargs):
        """``(args, kwargs)`` bound to the Python signature, defaults filled in (TF's canonical form).

        ``f(x, True)``, ``f(x, training=True)`` share a trace, and so do ``f(x)`` and
        ``f(x, training=False)`` when False is the default; keyword arguments go in name order.
        """
        signature = self._parameters()
        if signature is None:
            return args, kwargs
        form = (len(args), tuple(kwargs))
        plan = self._binding_plans.get(form)
        if plan is not None:  # this call form was bound before: no inspect.bind per call
            return plan(args, kwargs)
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError as error:
            raise TypeError(f"{self._name}{signature} cannot be called with {len(args)} positional "
                            f"argument(s) and keyword argument(s) {sorted(kwargs)}: {error}. Pass the "
                            "arguments its parameters name.") from None
        bound.apply_defaults()
        named = bound.kwargs
        plan = _binding_plan(signature, form)
        if plan is not None and len(self._binding_plans) < 64:
            self._binding_plans[form] = plan
        return bound.args, (dict(sorted(named.items())) if len(named) > 1 else named)

    def _parameters(self):
        if self._signature is None:
            try:
                self._signature = inspect.signature(self._python_function)
            except (TypeError, ValueError):  # a builtin or an object without a readable signature
                self._signature = False
        return self._signature or None

    def _new_trace(self, leaves, treedef, keys, call, datasets=False):
        """Traces the signature ``keys``, relaxed to ``None`` dims by ``reduce_retracing``.

        A signature with ``None`` dimensions (a `TensorSpec` argument, an ``input_signature``, a
        relaxed one) gives a `ShapeGenericFunction`: traced once, on these arguments' shapes (or
        size 1 for a spec's ``None`` dims), compiled per concrete shape afterwards.
        """
        if self._reduce_retracing:
            for seen_tree, seen in self._seen:
                relaxed = _supertype(keys, seen) if seen_tree == treedef else None
                keys = relaxed or keys
        self._seen.append((treedef, keys))
        names = call_names(self._parameters(), *call, self._input_signature)
        positions = [i for i, x in enumerate(leaves) if is_traced_leaf(x)]
        shown = [TensorShape(keys[i][1]) for i in positions]
        if all(s.is_fully_defined() for s in shown):
            concrete = self._trace(leaves, treedef, None, names)
            if datasets:
                string_shapes = {i: TensorShape(keys[i][1]) for i, x in enumerate(leaves)
                                 if is_string_tensor(x) and keys[i][0] == "tensor"}  # an input_signature's
                concrete = DatasetGenericFunction(self._name, concrete, [x for x in leaves if staged_with(x)],
                                                  self._restaging(leaves, treedef, names), string_shapes)
            self._traced.append(concrete)
            return concrete
        leaves = [placeholder(x) if isinstance(x, TensorSpec) else x for x in leaves]
        first = self._trace(leaves, treedef, shown, names)
        fn, name = self._callable(), self._name

        def restage(flat):
            filled = list(leaves)
            for i, x in zip(positions, flat):
                filled[i] = x
            trace = _staging.Trace(allow_create=False, owner=name)
            return quietly(lambda: trace_concrete(fn, filled, treedef, trace, name, shown, names))

        specs = [TensorSpec(shape, keys[i][2]) for i, shape in zip(positions, shown)]
        concrete = ShapeGenericFunction(self._name, specs, first, restage)
        self._generic.append((treedef, keys, concrete))
        self._traced.append(concrete)
        return concrete

    def _restaging(self, leaves, treedef, names):
        """``datasets -> ConcreteFunction``: the trace of ``leaves`` staged again, silently, for other
        datasets of the same specs (`companion._staging._dataset_generic`)."""
        fn, name, signature = self._callable(), self._name, self._parameters()
        positions = [i for i, x in enumerate(leaves) if staged_with(x)]

        def restage(datasets):
            filled = list(leaves)
            for i, dataset in zip(positions, datasets):
                filled[i] = dataset
            trace = _staging.Trace(allow_create=False, owner=name)
            trace.random_ops = 0  # a function's own graph: its op seeds count from 0
            concrete = quietly(lambda: trace_concrete(fn, filled, treedef, trace, name, None, names))
            concrete._python_signature = signature
            return concrete

        return restage

    def _trace(self, leaves, treedef, shown=None, names=None):
        """Traces a new signature; on the first call, traces again if Variables were created.

        Only the first trace may create Variables. If it did, TensorFlow's rule applies: the
        function is traced a second time with creation forbidden, which must reuse the
        Variables just made (a Keras layer built, optimizer slots added, ``if self.v is None``).
        A function that creates a Variable on every trace fails there, on its first call.
        """
        if self._first_call_traced:
            return self._trace_once(leaves, treedef, _staging.Trace(False, self._name), shown, names)
        first = _staging.Trace(allow_create=True, owner=self._name)
        concrete = self._trace_once(leaves, treedef, first, shown, names)
        self._first_call_traced = True
        if not first.created_user_variables():
            return concrete
        check = _staging.Trace(allow_create=False, owner=self._name, first_call=True)
        check.dataset_layouts = first.dataset_layouts
        return self._trace_once(leaves, treedef, check, shown, names)

    def _trace_once(self, leaves, treedef, trace, shown, names):
        trace.random_ops = 0  # a graph of its own: TF's op seeds count from 0 (`tf_function_kernel`)
        trace.tensor_names = TensorNames()  # and its own tensor names (`x:0`, `mul:0`)
        try:
            concrete = trace_concrete(self._callable(), leaves, treedef, trace, self._name, shown, names)
        except NeedsValues:  # TF's trace succeeds (companion runs the calls eagerly): it counts
            self._tracing_count += 1
            raise
        finally:
            trace.tensor_names = None  # no traced value outlives the trace
        concrete._python_signature = self._parameters()  # parameter names and kinds, for its text
        self._tracing_count += 1
        _trace_hooks.notify(concrete)
        return concrete


def function(func=None, input_signature=None, autograph=True, jit_compile=None,
             reduce_retracing=False, experimental_autograph_options=None, name=None, **kwargs):
    """Compiles a Python function (or callable object) into a staged `Function`.

    Usable as ``@function``, ``@function(...)`` and ``function(callable)``. The Python
    code runs only while tracing (so ``print`` happens once per trace and
    `companion.print` on every call); control flow on tensors is converted by AutoGraph.

    Variables follow TensorFlow's rule: a function may create them on its first call only.
    When the first call's trace creates Variables, the function is traced once more right
    away, with creation forbidden, and that second trace is the program that runs. Code that
    keeps what it created (a Keras layer building its weights, an optimizer adding its slots,
    ``if self.v is None: self.v = Variable(...)``) passes; code that would make a new
    Variable on every call raises ``ValueError`` on that first call. So Python side effects
    of such a first call happen twice, and `Function.experimental_get_tracing_count` says 2.
    A later trace (a new input signature) may not create Variables either.

    Args:
        func: the function, method or callable object (e.g. a Keras model).
        input_signature: a list of `TensorSpec`s fixing the accepted arguments.
        autograph: convert ``if``/``while``/``for`` on tensors (default True).
        jit_compile: accepted for TensorFlow compatibility: XLA always compiles.
        reduce_retracing: after a second input shape, trace the most specific signature that
            covers the shapes seen, with ``None`` where they differ (TF's rule).
        experimental_autograph_options: accepted for compatibility; unused.
        name: the name shown in reprs and signatures.
    """
    def wrap(fn):
        if isinstance(fn, Function):
            return fn
        return Function(fn, name, input_signature, autograph, jit_compile, reduce_retracing)

    return wrap if func is None else wrap(func)


def _converted(fn):
    """``fn`` converted by AutoGraph; bound methods stay bound, callable objects convert ``__call__``.

    A function whose source cannot be read (e.g. typed at ``python -c``) runs unconverted:
    Python control flow then works on Python values only, as with ``autograph=False``. As in
    TensorFlow, the "tensorflow" logger says so (a warning).
    """
    try:
        return _convert(fn)
    except Exception as error:  # noqa: BLE001 - malt raises several kinds for unreadable source
        if "source" not in str(error).lower() and type(error).__name__ not in _SOURCE_ERRORS:
            raise
        # a construct AutoGraph does not convert (generators...): TF's words; malt raises the same
        # class when it cannot parse a lambda's source, which stays the unreadable-source warning
        if type(error).__name__ == "UnsupportedLanguageElementError" and "source" not in str(error).lower():
            get_logger().warning("AutoGraph could not transform %r and will run it as-is.\nCause: %s\nTo "
                                 "silence this warning, decorate the function with "
                                 "@tf.autograph.experimental.do_not_convert", fn, error)
            return fn
        get_logger().warning(
            "AutoGraph could not convert %r and runs it as it is: %s. A Python if/for/while on a tensor "
            "inside it will fail while tracing (AutoGraph needs the function's source code: define it in "
            "a file or a notebook cell). Pass autograph=False to companion.function to silence this.",
            fn, "its source code cannot be read" if "source code" in str(error) else type(error).__name__)
        return fn


_SOURCE_ERRORS = {"InaccessibleSourceCodeError", "UnsupportedLanguageElementError", "ConversionError"}


def _convert(fn):
    if hasattr(fn, "__self__") and hasattr(fn, "__func__"):
        return functools.partial(to_graph(fn.__func__), fn.__self__)
    if not hasattr(fn, "__code__") and callable(fn):
        call = type(fn).__call__
        if isinstance(call, Function):
            return functools.partial(call.python_function, fn)
        return functools.partial(to_graph(call), fn)
    return to_graph(fn)


class _ValueDependent:
    """In place of a trace: a signature whose shapes only the values decide (`_needs_values`); calls
    of it run eagerly, and asking for its graph raises what the trace raised."""

    def __init__(self, error):
        self._class, self._message = type(error), str(error)

    def error(self):
        """A new exception like the one the trace raised."""
        return self._class(self._message)


def _string_stand_in(value):
    """A string `TensorSpec` (``get_concrete_function(TensorSpec([], tf.string))``) as empty strings of
    its shape (size 1 in ``None`` dims): string ops run on the host while tracing, so a trace needs
    values. The concrete function stages itself again for the strings each call passes
    (`companion._staging._dataset_generic`)."""
    if isinstance(value, TensorSpec) and value.dtype.name == "string":
        return convert_to_tensor(placeholder(value))
    return value


def _covers_datasets(general, keys):
    """True if the signature ``general`` (with `DatasetSpec` keys) takes a call of ``keys``."""
    if len(general) != len(keys):
        return False
    for g, k in zip(general, keys):
        if g == k:
            continue
        if not (g[0] == k[0] == "dataset" and dataset_covers(g[1], k[1])):
            return False
    return True


def variable_keys(leaves, keys):
    """``(keys, variables)``: the call signature with each Variable argument keyed by its spec (TF's
    VariableSpec: class, shape, dtype, trainable and alias_id, the index of its first occurrence
    among the Variable arguments) instead of its identity, and the distinct such Variables in order.

    So ``f(a)`` and ``f(b)`` share one traced program, which reads and writes whichever Variables a
    call passes (`ConcreteFunction.call`), while ``f(a, a)`` and ``f(a, b)`` trace apart.
    """
    keys = list(keys)
    distinct = {}
    for i, x in enumerate(leaves):
        if keys[i][0] == "variable" and getattr(x, "_traced_by_spec", False):
            alias = distinct.setdefault(id(x), (len(distinct), x))[0]
            keys[i] = ("variable", type(x), alias, x._v.shape, x._v.dtype, x.trainable, x.shape)
    return tuple(keys), [x for _, x in distinct.values()] or None


def _fast_key(args):
    """The signature of a call whose arguments are all numeric Tensors, else None."""
    key = []
    for arg in args:
        if type(arg) is not Tensor:
            return None
        value = arg._value
        if value.__class__ is np.ndarray:  # strings are keyed by value: the slow path
            return None
        key.append((Tensor, value.shape, value.dtype))
    return tuple(key)



def _supertype(keys, other):
    """The most specific signature both ``keys`` and ``other`` fit (TF's reduce_retracing), or None.

    Tensors of one dtype generalise: a dimension that differs becomes ``None``, and a rank that
    differs an unknown shape. Any other difference (dtype, a Python value, a Variable) has none.
    """
    if len(keys) != len(other):
        return None
    relaxed = []
    for a, b in zip(keys, other):
        if a == b:
            relaxed.append(a)
        elif a[0] == b[0] == "tensor" and a[2] == b[2]:
            relaxed.append(("tensor", _common_dims(a[1], b[1]), a[2]))
        else:
            return None
    return tuple(relaxed)


def _common_dims(a, b):
    if a is None or b is None or len(a) != len(b):
        return None
    return tuple(x if x == y else None for x, y in zip(a, b))


def _covers(general, keys):
    """True if the call signature ``keys`` fits ``general`` (whose tensors may have None dims)."""
    if len(general) != len(keys):
        return False
    for g, k in zip(general, keys):
        if g == k:
            continue
        if not (g[0] == k[0] == "tensor" and g[2] == k[2]):
            return False
        if g[1] is not None and (k[1] is None or len(g[1]) != len(k[1])
                                 or any(x is not None and x != y for x, y in zip(g[1], k[1]))):
            return False
    return True


def _most_specific(generic, treedef, keys):
    """The shape-generic trace that fits a call, the one with the fewest unknown dims; or None."""
    fits = [(general, concrete) for tree, general, concrete in generic
            if tree == treedef and _covers(general, keys)]
    if not fits:
        return None
    return min(fits, key=lambda fit: _unknown_dims(fit[0]))[1]


def _unknown_dims(keys):
    count = 0
    for key in keys:
        if key[0] == "tensor":
            count += 1000 if key[1] is None else sum(d is None for d in key[1])
    return count


def _binding_plan(signature, form):
    """A function doing what ``signature.bind(...)`` + ``apply_defaults`` gives for calls of
    ``form`` (number of positional arguments, keyword names), or None for signatures with
    ``*args``/``**kwargs`` (those keep the general bind)."""
    n_args, names = form
    positional, keyword_only = [], []
    for index, param in enumerate(signature.parameters.values()):
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            return None
        default = param.default
        if param.kind is param.KEYWORD_ONLY:
            source = ("kw", param.name) if param.name in names else ("default", default)
            keyword_only.append((param.name, source))
        elif index < n_args:
            positional.append(("arg", index))
        else:
            positional.append(("kw", param.name) if param.name in names else ("default", default))
    keyword_only.sort()

    def pick(source, args, kwargs):
        kind, where = source
        return args[where] if kind == "arg" else kwargs[where] if kind == "kw" else where

    def bind(args, kwargs):
        bound_args = tuple(pick(source, args, kwargs) for source in positional)
        return bound_args, {name: pick(source, args, kwargs) for name, source in keyword_only}

    return bind


def _checked_signature(signature):
    if signature is None:
        return None
    if not isinstance(signature, (list, tuple)):
        raise TypeError("input_signature must be a list or tuple of companion.TensorSpec. "
                        f"Received: {signature!r}")
    return tuple(signature)


__all__ = ["ConcreteFunction", "Function", "function"]
