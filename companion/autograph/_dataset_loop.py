"""``for element in dataset`` inside a `function`: one compiled loop over the dataset's batches.

While tracing, the dataset is read once to learn its element shapes (once per call's traces: a
dataset looped over again, in each epoch of a Python loop or in the first call's second trace,
reuses that layout). Its full-size elements
are stacked into arrays that become *feeds* of the traced program: constants that every
call of the compiled function refills from a fresh pass over the dataset (so a shuffled
dataset gives a new order each call). The pass read while tracing is the first call's, as
in TF, where tracing reads no data: a seeded shuffle's first call sees its first epoch, and a
generator or py_function runs once per call. The loop body is traced once and runs inside one
``lax.while_loop`` over the stacked elements; a final element of another size (a partial
batch) runs through the body traced a second time.
"""

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from companion._core._context import state
from companion._core._tensor import Tensor
from companion._ops import _math
from companion._staging import eager_scope
from companion.autograph import _state
from companion.autograph._control_flow import if_stmt
from companion.autograph._loops import staged_for, staged_while, with_counter


class Feed:
    """The arrays one pass over a dataset gives: stacked full elements, then the remainder."""

    def __init__(self, dataset):
        self.dataset = dataset
        self.layout = None  # (treedef, full shapes, count, remainder shapes) of the traced pass
        self.unused = None  # [arrays] of the pass read while tracing, until a call takes it

    def read_for_trace(self):
        """Arrays of the layout of one pass, for a trace: read once per outermost trace (only the
        shapes and dtypes matter while tracing). That pass is kept for the first call (`read`),
        shared by the feeds of every trace of one call, so tracing consumes no pass of its own."""
        layouts = state.traces[0].dataset_layouts
        found = layouts.get(id(self.dataset))
        if found is None:
            arrays = self._read_pass()
            self.unused = [arrays]
            layouts[id(self.dataset)] = (self.dataset, self.layout, [(a.shape, a.dtype) for a in arrays],
                                         self.unused)
            return arrays
        _, self.layout, specs, self.unused = found
        return [np.zeros(shape, dtype) for shape, dtype in specs]

    def read(self):
        """The arrays of one pass for a call: the pass read while tracing if no call took it yet,
        else a fresh pass over the dataset."""
        if self.unused:
            return self.unused.pop()
        return self._read_pass()

    def _read_pass(self):
        """One pass over the dataset as flat arrays (stacked full elements + remainder leaves)."""

        with eager_scope(detached=True):
            elements = [jax.tree_util.tree_flatten(e, is_leaf=_is_tensor) for e in self.dataset]
        if not elements:
            raise ValueError(f"{_state.where()}The dataset iterated inside the function is empty.")
        treedef = elements[0][1]
        rows = [[np.asarray(leaf) for leaf in leaves] for leaves, _ in elements]
        shapes = [[a.shape for a in r] for r in rows]
        n_full = next((i for i, s in enumerate(shapes) if s != shapes[0]), len(rows))
        full, rest = rows[:n_full], rows[n_full:]
        if len(rest) > 1:
            raise ValueError(f"{_state.where()}Only the last element of a dataset looped over inside a "
                             "function may have a different shape (a partial batch).")
        stacked = [np.stack(column) for column in zip(*full)]
        layout = (treedef, [a.shape for a in stacked], [a.shape for a in rest[0]] if rest else None)
        if self.layout is not None and layout != self.layout:
            raise ValueError("The dataset looped over inside a function changed its number or shapes of "
                             f"elements since the function was traced (was {self.layout[1]}, now "
                             f"{layout[1]}). Call the function's python_function, or rebuild it.")
        self.layout = layout
        return stacked + (rest[0] if rest else [])


def staged_dataset_for(dataset, extra_test, body, get_state, set_state, names):
    """Runs ``body`` for each element of ``dataset`` as one compiled loop (plus a partial batch)."""

    feed = Feed(dataset)
    arrays = [state.traces[-1].feed(feed, i, a) for i, a in enumerate(feed.read_for_trace())]
    treedef, full_shapes, rest_shapes = feed.layout
    stacked, rest = arrays[:len(full_shapes)], arrays[len(full_shapes):]
    count = full_shapes[0][0]

    def element(index):
        leaves = [Tensor(lax.dynamic_index_in_dim(a, index, keepdims=False)) for a in stacked]
        return jax.tree_util.tree_unflatten(treedef, leaves)

    staged_for(_Indexed(count, element), extra_test, body, get_state, set_state, names, defines=False)
    if rest_shapes is not None:
        last = jax.tree_util.tree_unflatten(treedef, [Tensor(a) for a in rest])
        go = Tensor(jnp.asarray(True)) if extra_test is None else extra_test()
        if_stmt(go, lambda: body(last), lambda: None, get_state, set_state, names, len(names))


class _Indexed:
    """A loop over ``count`` items produced by ``item(index)`` (for `staged_for`)."""

    def __init__(self, count, item):
        self.count = count
        self.item = item


def is_dataset(value):
    """True for a companion Dataset (without importing companion.data eagerly)."""
    data = __import__("sys").modules.get("companion.data")
    return data is not None and isinstance(value, data.Dataset)


def _is_tensor(x):
    return isinstance(x, Tensor)


def is_staged_iterator(value):
    """True for an iterator whose pulls a trace stages (an argument or one made outside the trace)."""
    data = __import__("sys").modules.get("companion.data")
    if data is None:
        return False
    # deferred: companion.data imports autograph (through its map functions) at its top
    from companion.data import _staged_iterator

    if isinstance(value, _staged_iterator.StagedIterator):
        return True
    return isinstance(value, data.Iterator) and _staged_iterator.stages_pulls(value)


def staged_iterator_for(iterator, extra_test, body, get_state, set_state, names):
    """``for x in iterator`` inside a function: a staged loop that pulls until the data ends.

    As TF's AutoGraph does: each step pulls an optional element and runs the body only when it
    holds one; the loop stops after the first empty pull (or when ``extra_test``, a ``break``,
    fails, without pulling again).
    """
    # deferred: companion.data imports autograph (through its map functions) at its top
    from companion.data import _staged_iterator

    if isinstance(iterator, _staged_iterator.StagedIterator):
        token, layout = iterator._token, iterator._layout
    else:
        token, layout = _staged_iterator.token_of(iterator), _staged_iterator.layout_of(iterator)
    box = [Tensor(jnp.asarray(True))]
    get, put = with_counter(box, get_state, set_state)

    def test():
        return box[0] if extra_test is None else _math.logical_and(box[0], extra_test())

    def step():
        pulled = _staged_iterator.staged_next(token, layout, optional=True)
        box[0] = pulled.has_value()
        if_stmt(pulled.has_value(), lambda: body(pulled.get_value()), lambda: None, get_state, set_state,
                names, len(names))

    staged_while(test, step, get, put, ("<has next>",) + tuple(names), "for loop", defines=False)
