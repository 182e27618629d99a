"""Backend control flow: `switch` (if/else on a condition), `map_fn`, `foldl` and `foldr`."""

from companion import cast, concat, cond, convert_to_tensor, ones_like, reshape, shape, tile, where
from companion import foldl as _foldl
from companion import foldr as _foldr
from companion import map_fn as _map_fn
from companion.keras.backend._shape import ndim


def switch(condition, then_expression, else_expression):
    """``then_expression`` where ``condition`` holds, else ``else_expression``.

    A scalar ``condition`` picks one whole branch (`cond`; callables are called only for the
    branch taken); a tensor ``condition`` picks element-wise (`where`), its shape extended
    with trailing axes of size 1 and tiled to the branches' shape.

    Raises:
        ValueError: ``condition`` has a higher rank than ``then_expression``.

    Example:
        >>> import companion as tf
        >>> K = tf.keras.backend
        >>> K.switch(tf.constant(True), lambda: tf.constant(1), lambda: tf.constant(2)).numpy()
        np.int32(1)
        >>> then, other = tf.constant([[[1, 2]], [[3, 4]]]), tf.zeros([2, 1, 2], "int32")
        >>> K.switch(tf.constant([[True], [False]]), then, other).numpy()
        array([[[1, 2]],
               [[0, 0]]], dtype=int32)
    """
    condition = convert_to_tensor(condition)
    if condition.dtype != "bool":
        condition = cast(condition, "bool")
    cond_ndim = ndim(condition)
    if not cond_ndim:
        then_fn = then_expression if callable(then_expression) else (lambda: then_expression)
        else_fn = else_expression if callable(else_expression) else (lambda: else_expression)
        return cond(condition, then_fn, else_fn)
    if callable(then_expression):
        then_expression = then_expression()
    if callable(else_expression):
        else_expression = else_expression()
    then_expression = convert_to_tensor(then_expression)
    expr_ndim = ndim(then_expression)
    if cond_ndim > expr_ndim:
        raise ValueError("Rank of `condition` should be less than or equal to rank of `then_expression` and "
                         f"`else_expression`. ndim(condition)={cond_ndim}, ndim(then_expression)={expr_ndim}")
    if cond_ndim > 1:
        cond_shape = concat([shape(condition), [1] * (expr_ndim - cond_ndim)], axis=0)
        condition = reshape(condition, cond_shape)
        expr_shape = shape(then_expression)
        tile_shape = where(expr_shape - cond_shape > 0, expr_shape, ones_like(expr_shape))
        condition = tile(condition, tile_shape)
    return where(condition, then_expression, else_expression)


def map_fn(fn, elems, name=None, dtype=None):
    """``fn`` applied to each slice of ``elems`` along its first axis, the results stacked.

    ``dtype`` is the output's dtype (structure) when it differs from ``elems``'s.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.map_fn(lambda row: tf.reduce_sum(row), tf.constant([[1, 2], [3, 4]])).numpy()
        array([3, 7], dtype=int32)
    """
    return _map_fn(fn, elems, name=name, dtype=dtype)


def foldl(fn, elems, initializer=None, name=None):
    """Reduces ``elems`` along its first axis from the left: ``acc = fn(acc, x)``.

    Without an ``initializer`` the first element starts the accumulator.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.foldl(lambda acc, x: acc * 10 + x, tf.constant([1, 2, 3])).numpy()
        np.int32(123)
    """
    return _foldl(fn, elems, initializer=initializer, name=name)


def foldr(fn, elems, initializer=None, name=None):
    """Reduces ``elems`` along its first axis from the right: ``acc = fn(acc, x)``.

    Without an ``initializer`` the last element starts the accumulator.

    Example:
        >>> import companion as tf
        >>> tf.keras.backend.foldr(lambda acc, x: acc * 10 + x, tf.constant([1, 2, 3])).numpy()
        np.int32(321)
    """
    return _foldr(fn, elems, initializer=initializer, name=name)
