"""`map`: a function applied to every element, sequentially, in a thread pool, or vectorised."""

from companion.data._autotune import parallelism
from companion.data._functions import ElementFunction, call_args, trace_when_made
from companion.data._node import IndexPlan, Node, first_elements, mapped_gather, wrap
from companion.data._trace import traced_call
from companion.data._transforms._parallel import parallel_calls


class MapMethods:
    """`Dataset.map`."""

    def map(self, map_func, num_parallel_calls=None, deterministic=None, name=None):
        """Applies ``map_func`` to every element.

        A tuple element is passed as separate arguments (``lambda x, y: ...``), a dict as
        one argument. The function is traced and compiled once per input signature when it
        is written with companion ops (``print`` then runs once, `companion.print` per call);
        otherwise (it needs concrete values, e.g. ``.numpy()``) it runs eagerly. Pure
        functions in a pipeline over in-memory data are vectorised over whole batches.

        Args:
            map_func: a function from an element to a new element (a structure of tensors).
            num_parallel_calls: run this many calls at once in a thread pool
                (`companion.data.AUTOTUNE`: a size for this machine). None: one at a time.
            deterministic: with parallel calls, whether elements keep their order (default:
                the ``deterministic`` option, True unless set).
            name: accepted for TensorFlow compatibility; unused.

        Example:
            >>> import companion as tf
            >>> ds = tf.data.Dataset.range(1, 6).map(lambda x: x + 1)
            >>> [int(x) for x in ds]
            [2, 3, 4, 5, 6]
            >>> ds = tf.data.Dataset.from_tensor_slices(([1, 2], [3, 4])).map(lambda x, y: x * y)
            >>> [int(x) for x in ds]
            [3, 8]
        """
        fn = ElementFunction(map_func, "map")
        return wrap(MapNode(self._node, fn, num_parallel_calls, deterministic))


class MapNode(Node):
    """Elements ``fn(element)``; parallel when ``parallel`` is set, vectorised over index plans."""

    def __init__(self, node, fn, parallel=None, deterministic=None):
        super().__init__(node)
        self.kind = "_MapDataset" if parallel is None else "_ParallelMapDataset"
        self._fn = fn
        self._parallel = parallel
        self._deterministic = deterministic
        if parallel is not None:
            parallelism(parallel, None, "num_parallel_calls")  # validates now
        trace_when_made(fn, node)  # TF traces the function now

    def _compute_spec(self):
        return self._fn.output_spec(call_args(self.inputs[0].spec), self._peek)

    def _peek(self):
        return [call_args(element) for element in first_elements(self.inputs[0], 2)]

    def plannable(self):
        return self.inputs[0].plannable() and self._vectorized() is not None

    def _vectorized(self):
        if not self.inputs[0].plannable():
            return None
        try:
            spec = self.inputs[0].spec
        except Exception:
            return None
        vectorized = self._fn.vectorized(call_args(spec))
        return None if vectorized is None else (lambda batch: vectorized(call_args(batch)))

    def index_plan(self, ctx):
        vectorized = self._vectorized()
        if vectorized is None:
            return None
        plan = self.inputs[0].index_plan(ctx)
        return None if plan is None else IndexPlan(mapped_gather(plan.gather, vectorized), plan.chunks)

    def gather(self):
        source = self.inputs[0].gather()
        vectorized = self._vectorized() if source is not None else None
        return None if vectorized is None else mapped_gather(source, vectorized)

    def _iterate(self, ctx):
        fn, source = self._fn, self.inputs[0]
        skip = ctx.skip_errors
        if self._parallel is None:
            for index, element in enumerate(source.iterate(ctx)):
                if skip is None:
                    yield traced_call("map", index, fn, call_args(element), index)
                    continue
                try:
                    result = traced_call("map", index, fn, call_args(element), index)
                except Exception as error:
                    skip(error, "map", index)
                    continue
                yield result
            return
        workers = parallelism(self._parallel, ctx.options, "num_parallel_calls")
        deterministic = _deterministic(self._deterministic, ctx.options)

        def call(element, index):
            if skip is None:
                return traced_call("map", index, fn, call_args(element), index)
            try:
                return traced_call("map", index, fn, call_args(element), index)
            except Exception as error:
                skip(error, "map", index)
                return _DROPPED

        results = parallel_calls(source.iterate, call, workers, deterministic, ctx, "companion.data.map")
        yield from (result for result in results if result is not _DROPPED)


_DROPPED = object()  # a parallel call's result below ignore_errors when the element raised


def _deterministic(requested, options):
    if requested is not None:
        return bool(requested)
    return options.deterministic is not False
