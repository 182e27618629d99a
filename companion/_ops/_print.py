"""`companion.print`: TensorFlow's ``tf.print``, printing when the program runs, in program order."""

import sys

import jax
import numpy as np

from companion._core._context import state
from companion._core._tensor import Tensor

_STREAMS = {"stdout": lambda: sys.stdout, "stderr": lambda: sys.stderr}


def print(*inputs, output_stream=None, sep=" ", end="\n", summarize=3, name=None):  # noqa: A001
    """Prints tensors and Python values each time it runs, eagerly or inside a `function`.

    Unlike Python's ``print`` (which inside a `function` runs once, while tracing), this
    prints on every call of the compiled function, in program order, also inside loops.
    Tensors print as their values (``[1 2 3]``, ``5``, strings without quotes), long
    dimensions shortened to ``summarize`` items at each end.

    Args:
        *inputs: tensors, Variables, Python values or nested lists/dicts of them.
        output_stream: ``sys.stderr`` (the default: whatever it is when printing),
            ``sys.stdout``, ``"file://path"``, or any object with a ``write`` method.
        sep: text between inputs. end: text after the last one.
        summarize: items shown at each end of a long dimension (``-1`` for all).

    Example:
        >>> import sys
        >>> import companion as tf
        >>> tf.print("x:", tf.constant([1, 2, 3]), output_stream=sys.stdout)
        x: [1 2 3]
    """
    stream = _stream_name(output_stream)
    leaves, treedef = jax.tree_util.tree_flatten(list(inputs), is_leaf=_is_leaf)
    dynamic = [i for i, leaf in enumerate(leaves) if _traced(leaf)]
    if not state.staging:
        _emit(leaves, treedef, stream, sep, end, summarize)
        return None
    groups = [_arrays_of(leaves[i]) for i in dynamic]
    arrays = [array for group in groups for array in group]

    def host(*values):
        filled, start = list(leaves), 0
        for i, group in zip(dynamic, groups):
            filled[i] = _resolve(leaves[i], values[start:start + len(group)])
            start += len(group)
        _emit(filled, treedef, stream, sep, end, summarize)

    jax.debug.callback(host, *arrays, ordered=True)
    return None


def format_value(value, summarize=3, quote=True, nested=False):
    """The text `print` shows for one value: tensors by their values (string elements in double
    quotes, C-escaped, as TF), Python strings as they are at the top level and as ``repr`` inside
    lists and dicts."""
    if getattr(value, "_is_variable", False):
        value = value._read()
    if getattr(value, "_is_ragged", False):
        return _ragged_text(value, summarize)
    if type(value).__name__ == "SparseTensor" and hasattr(value, "dense_shape"):
        # TF prints the text of a Python string it builds, quotes included
        parts = [_format_array(np.asarray(getattr(part, "_value", part)), summarize)
                 for part in (value.indices, value.values, value.dense_shape)]
        return "'SparseTensor(indices={}, values={}, shape={})'".format(*parts)
    if isinstance(value, Tensor):
        value = np.asarray(value.numpy()) if value.dtype.name == "string" else value.numpy()
    if isinstance(value, bytes):
        return _quoted(value) if quote else value.decode("utf-8", "replace")
    if isinstance(value, (np.ndarray, np.generic)):
        return _format_array(np.asarray(value), summarize, quote)
    if isinstance(value, (list, tuple)):
        inner = ", ".join(format_value(v, summarize, nested=True) for v in value)
        if isinstance(value, list):
            return f"[{inner}]"
        return f"({inner},)" if len(value) == 1 else f"({inner})"  # Python's one-element tuple
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {format_value(v, summarize, nested=True)}"
                               for k, v in value.items()) + "}"
    return repr(value) if nested and isinstance(value, str) else str(value)


def _ragged_text(value, summarize):
    """A RaggedTensor as TF's print writes it: nested lists, each longer than ``2 * summarize``
    shortened to its ends around ``...``; floats as ``%f``, booleans ``true``/``false``, strings
    in single quotes."""
    try:
        rows = value.to_list()
    except Exception:  # noqa: BLE001 - values only known when a compiled program runs: as it shows itself
        return str(value)

    def text(item):
        if isinstance(item, list):
            shown = [text(x) for x in item]
            if summarize is not None and summarize >= 0 and len(shown) > 2 * summarize:
                shown = shown[:summarize] + ["..."] + shown[len(shown) - summarize:]
            return "[" + ", ".join(shown) + "]"
        if isinstance(item, (bool, np.bool_)):
            return "true" if item else "false"
        if isinstance(item, (float, np.floating)):
            return f"{float(item):f}"
        if isinstance(item, bytes):
            return "'" + item.decode("utf-8", "replace").replace("'", "\\'") + "'"
        return str(item)

    return text(rows)


def _is_string_scalar(value):
    if getattr(value, "_is_variable", False) or not isinstance(value, Tensor):
        return False
    return value.dtype.name == "string" and value.shape.rank == 0


_ESCAPES = {ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): "\\t", ord('"'): '\\"', ord("'"): "\\'",
            ord("\\"): "\\\\"}


def _quoted(item, quote=True):
    """A string element as TF's print shows it: C-escaped (UTF-8 kept) in double quotes."""
    if not quote:
        return item.decode("utf-8", "replace") if isinstance(item, bytes) else str(item)
    data = item if isinstance(item, bytes) else str(item).encode()
    parts = []
    for byte in data:
        if byte in _ESCAPES:
            parts.append(_ESCAPES[byte].encode())
        elif byte < 0x20 or byte == 0x7F:
            parts.append(f"\\{byte:03o}".encode())
        else:
            parts.append(bytes([byte]))
    return '"' + b"".join(parts).decode("utf-8", "replace") + '"'


def _format_array(array, summarize, quote=True):
    if array.dtype.kind in "OS":
        array = np.vectorize(lambda b: _quoted(b, quote), otypes=[object])(array.astype(object))
    element = _element_format(array.dtype)
    if array.ndim == 0:
        return element(array[()])
    if array.size == 0 and array.ndim > 1 and array.shape[0]:
        # TF's printer for rows holding no elements: "[", a line break per inner rank, " ...]"
        return "[" + "\n" * (array.ndim - 1) + " ...]"
    threshold = sys.maxsize if summarize is None or summarize < 0 else 2 * summarize
    kind = {"f": "float_kind", "b": "bool", "V": "float_kind", "i": "int_kind", "u": "int_kind"}.get(
        array.dtype.kind, "object")  # a formatter for each: TF pads no column
    if array.dtype.kind == "V" or array.dtype.name == "bfloat16":  # ml_dtypes' bfloat16 and friends
        array = array.astype(np.float32)
    return np.array2string(array, separator=" ", threshold=threshold, edgeitems=max(summarize, 1),
                           formatter={kind: element}, max_line_width=sys.maxsize)


def _element_format(dtype):
    """One element as TF's print writes it: booleans as 1 and 0; a float with its dtype's
    guaranteed digits (``%.6g``, ``%.15g`` for float64) when they read back as the same value,
    else with enough to round-trip (``%.9g``, ``%.17g``): ``0.1``, ``1e-05``, ``0.333333343``."""
    if dtype.kind == "b":
        return lambda v: str(int(v))
    if dtype.kind == "f" or dtype.name == "bfloat16":
        short, long, kind = (15, 17, np.float64) if dtype.itemsize == 8 else (6, 9, np.float32)
        return lambda v: _float_text(float(v), short, long, kind)
    return str


def _float_text(value, short, long, kind):
    text = f"{value:.{short}g}"
    if value != value or kind(text) == kind(value):  # nan, or the short form reads back the same
        return text
    return f"{value:.{long}g}"


def _emit(leaves, treedef, stream, sep, end, summarize):
    values = jax.tree_util.tree_unflatten(treedef, leaves)
    if len(values) == 1 and _is_string_scalar(values[0]):  # TF prints a lone string scalar as it is
        text = format_value(values[0], summarize, quote=False) + end
    else:
        text = sep.join(format_value(v, summarize) for v in values) + end
    if not isinstance(stream, str):
        stream.write(text)
        return
    if stream.startswith("file://"):
        with open(stream[len("file://"):], "a", encoding="utf-8") as handle:
            handle.write(text)
    else:
        if stream == "stderr":  # what Python printed before must appear before this line
            sys.stdout.flush()
        target = _STREAMS[stream]()
        target.write(text)
        target.flush()


def _stream_name(output_stream):
    if output_stream is None:
        return "stderr"
    if output_stream is sys.stdout or output_stream is sys.__stdout__:
        return "stdout"
    if output_stream is sys.stderr or output_stream is sys.__stderr__:
        return "stderr"
    if isinstance(output_stream, str) and output_stream.startswith("file://"):
        return output_stream
    if not isinstance(output_stream, str) and callable(getattr(output_stream, "write", None)):
        return output_stream
    raise ValueError(f"print: output_stream must be sys.stdout, sys.stderr, 'file://<path>' or an "
                     "object with a write() method. "
                     f"Received: {output_stream!r}")


def _is_leaf(x):
    return (isinstance(x, Tensor) or getattr(x, "_is_variable", False) or hasattr(x, "_choose_from")
            or getattr(type(x), "_is_host_value", False))


def _traced(leaf):
    if hasattr(leaf, "_choose_from") or getattr(type(leaf), "_is_host_value", False):
        return True
    if getattr(leaf, "_is_ragged", False):  # printed from its components' values when the program runs
        return any(isinstance(a, jax.core.Tracer) for a in _arrays_of(leaf))
    value = leaf._v if getattr(leaf, "_is_variable", False) else getattr(leaf, "_value", None)
    return isinstance(value, jax.core.Tracer) or (getattr(leaf, "_is_variable", False) and state.staging)


def _arrays_of(leaf):
    if hasattr(leaf, "_choose_from"):
        return [leaf._index]
    if getattr(type(leaf), "_is_host_value", False):  # a string built on the host from these arrays
        return list(leaf._arrays)
    if getattr(leaf, "_is_ragged", False):
        return [leaf.flat_values._value] + [splits._value for splits in leaf.nested_row_splits]
    return [leaf._value]


def _resolve(leaf, values):
    if hasattr(leaf, "_choose_from"):
        return leaf._choose_from[int(values[0])]
    if getattr(type(leaf), "_is_host_value", False):
        return Tensor(leaf.value_from([np.asarray(v) for v in values]))
    if getattr(leaf, "_is_ragged", False):  # rebuilt from its run-time components, innermost first
        rebuilt = Tensor(np.asarray(values[0]))
        for splits in reversed(values[1:]):
            rebuilt = type(leaf).from_row_splits(rebuilt, Tensor(np.asarray(splits)))
        return rebuilt
    return np.asarray(values[0])


