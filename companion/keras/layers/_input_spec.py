"""`InputSpec`: the rank and axis sizes a built layer accepts, checked on every call."""

from companion._core._shape import TensorShape


class InputSpec:
    """What a layer expects of an input: ``ndim``, ``min_ndim``, ``max_ndim`` and fixed ``axes``.

    Example:
        >>> from companion.keras.layers import InputSpec
        >>> InputSpec(min_ndim=2, axes={-1: 3})
        InputSpec(min_ndim=2, axes={-1: 3})
    """

    def __init__(self, dtype=None, shape=None, ndim=None, max_ndim=None, min_ndim=None, axes=None,
                 allow_last_axis_squeeze=False, name=None):
        self.dtype = dtype
        self.shape = None if shape is None else tuple(shape)
        self.ndim = len(self.shape) if shape is not None else ndim
        self.max_ndim = max_ndim
        self.min_ndim = min_ndim
        self.axes = dict(axes or {})
        self.allow_last_axis_squeeze = allow_last_axis_squeeze  # a size-1 last axis may come or go
        self.name = name

    def check(self, layer_name, shape, index=0):
        """Raises a ValueError naming the layer when an input of ``shape`` does not fit: Keras 3's
        sentence first, then what to do about it."""
        dims = list(shape) if type(shape) is tuple else TensorShape(shape).as_list()
        rank = len(dims)
        received = f"Full shape received: {tuple(dims)}"
        for ok, expected, shown in (
                (self.ndim is None or self.allow_last_axis_squeeze or rank == self.ndim, f"ndim={self.ndim}",
                 received),
                (self.max_ndim is None or rank <= self.max_ndim, f"max_ndim={self.max_ndim}", ""),
                (self.min_ndim is None or rank >= self.min_ndim, f"min_ndim={self.min_ndim}", received)):
            if not ok:
                hint = _rank_hint(rank, self.ndim or self.min_ndim or 0, self.ndim or self.max_ndim, dims)
                self._fail(layer_name, index, f"expected {expected}, found ndim={rank}", shown, hint)
        for axis, size in self.axes.items():
            got = dims[axis] if -rank <= axis < rank else None
            if size is not None and got is not None and got != size:
                self._fail(layer_name, index, f"expected axis {axis} of input shape to have value {size}, "
                                              f"but received input with shape {tuple(dims)}", "",
                           f"The layer's weights were made on its first call, for inputs whose axis {axis} "
                           f"has size {size}; this input has {got}. Pass inputs of that size, or "
                           "create a new layer for the new shape.")
        if self.shape is not None:
            for want, got in zip(*self._squeezed(self.shape, dims)):
                if want is not None and got is not None and want != got:
                    self._fail(layer_name, index, f"expected shape={self.shape}, found shape={tuple(dims)}",
                               "", "")

    def _squeezed(self, want, dims):
        """The shapes compared: without a size-1 last axis when ``allow_last_axis_squeeze``."""
        if not self.allow_last_axis_squeeze:
            return want, dims
        return tuple(s[:-1] if s and s[-1] == 1 else s for s in (want, dims))

    def _fail(self, layer_name, index, expectation, received, hint):
        hint = hint or ("Pass inputs of the shape the layer was built for, or create a new layer for the "
                        "new shape.")
        first = (f"Input {index} with name '{self.name}' of layer '{layer_name}' is incompatible with the "
                 "layer: ")
        # Keras 3's sentence is the first line; what to do about it follows on the next
        raise ValueError(first + ". ".join(part for part in (expectation, received) if part) + f"\n{hint}")

    def __repr__(self):
        fields = {"dtype": self.dtype, "shape": self.shape, "ndim": self.ndim,
                  "max_ndim": self.max_ndim, "min_ndim": self.min_ndim, "axes": self.axes or None,
                  "name": self.name}
        return "InputSpec(" + ", ".join(f"{k}={v}" for k, v in fields.items() if v is not None) + ")"


def _rank_hint(rank, least, most, dims):
    """What to do about an input with too few or too many dimensions (a missing batch axis, mostly)."""
    if rank < least:
        one = tuple(dims)
        if rank + 1 == least:
            return (f"Layers take a batch of examples, with the batch as the first axis. If {one} is one "
                    f"example, add the batch axis: tf.expand_dims(x, 0) has shape {(1, *one)}. If it is a "
                    f"batch whose examples lack their last axis (features or channels), add that one with "
                    f"tf.expand_dims(x, -1), shape {(*one, 1)}.")
        return (f"The layer needs {least} dimensions (the batch first); reshape the input with tf.reshape "
                f"to a shape of rank {least}.")
    if most is not None and rank > most:
        return (f"Flatten the extra dimensions first (tf.keras.layers.Flatten() or tf.reshape) so the input "
                f"has rank {most}.")
    return ""
