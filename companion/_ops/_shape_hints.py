"""Shape-error hints: when a product fails, say whether the other kind of product would have fitted.

A learner who writes ``x * w`` where a matrix product was meant (or ``tf.matmul(x, w)`` where an
element-wise product was meant) gets an error about shapes; these hints add which op accepts the
shapes and what it would return, so the message points at the likely mistake.
"""

from __future__ import annotations

import numpy as np


def matmul_instead_hint(shape_x: tuple, shape_y: tuple) -> str:
    """A sentence suggesting ``tf.matmul`` / ``@`` when it takes shapes that ``*`` refused; else ''."""
    if len(shape_x) < 2 or len(shape_y) < 2 or shape_x[-1] != shape_y[-2]:
        return ""
    batch = _broadcast(shape_x[:-2], shape_y[:-2])
    if batch is None:
        return ""
    result = (*batch, shape_x[-2], shape_y[-1])
    return (f" Did you mean a matrix product? tf.matmul(x, y) (or x @ y) multiplies the rows of x by the "
            f"columns of y and accepts these shapes, giving shape {result}.")


def multiply_instead_hint(shape_a: tuple, shape_b: tuple, flags: tuple = (False, False)) -> str:
    """Sentences for a refused matmul: the transpose that would fit, and ``tf.multiply`` / ``*`` if it would.

    `flags` are (transpose_a, transpose_b) as given to matmul; a suggested transpose is one more.
    """
    hints = []
    batch = _broadcast(shape_a[:-2], shape_b[:-2]) if len(shape_a) >= 2 and len(shape_b) >= 2 else None
    if batch is not None and not any(flags):
        if shape_a[-1] == shape_b[-1]:
            hints.append(f" To multiply a by the transpose of b, pass transpose_b=True (a @ tf.transpose(b)),"
                         f" which gives shape {(*batch, shape_a[-2], shape_b[-2])}.")
        elif shape_a[-2] == shape_b[-2]:
            hints.append(f" To multiply the transpose of a by b, pass transpose_a=True, which gives shape "
                         f"{(*batch, shape_a[-1], shape_b[-1])}.")
    elementwise = _broadcast(shape_a, shape_b)
    if elementwise is not None:
        hints.append(f" If you meant an element-wise product, use tf.multiply(a, b) (or a * b): it accepts "
                     f"these shapes and gives shape {elementwise}.")
    return "".join(hints)


def _broadcast(*shapes: tuple) -> tuple | None:
    """The broadcast shape, or None when the shapes do not broadcast (or a dimension is unknown)."""
    if any(dim is None for shape in shapes for dim in shape):
        return None
    try:
        return tuple(int(dim) for dim in np.broadcast_shapes(*shapes))
    except ValueError:
        return None
