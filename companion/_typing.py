"""Type aliases shared by the public signatures."""

from typing import Any, Sequence, Union

import numpy as np

TensorLike = Any
"""A Tensor, a Variable, a NumPy array, a Python scalar or a nested list of them."""

ShapeLike = Union[Sequence[Union[int, None]], "TensorShape", None]  # noqa: F821
DTypeLike = Union[str, np.dtype, type, "DType", None]  # noqa: F821
AxisLike = Union[int, Sequence[int], None]
