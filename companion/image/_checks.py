"""Input checks shared by the `companion.image` ops: images are ``[..., height, width, channels]``."""

from companion._core._convert import as_input, is_tensor
from companion._core._tensor import Tensor
from companion._ops import _random


def image_input(image, what, ranks=(3, 4)):
    """``image`` as a tensor input of rank in ``ranks`` (3: one image, 4: a batch)."""
    image = as_input(image)
    if image.ndim not in ranks:
        wanted = " or ".join({3: "3-D [height, width, channels]", 4: "4-D [batch, height, width, channels]"}
                             .get(r, f"{r}-D") for r in ranks)
        raise ValueError(f"{what} needs a {wanted} image. Received a tensor of shape "
                         f"{tuple(image.shape.as_list())}. Add a channels axis with "
                         "companion.expand_dims(image, -1) for a single-channel image.")
    return image


def static_shape(tensor):
    """The static shape of a Tensor or Variable, as a tuple of ints."""
    return tuple(tensor._v.shape)


def random_key(seed):
    """A fresh PRNG key tensor from companion's random streams (TensorFlow's seed rules)."""
    key = _random.next_key(seed)
    return key if is_tensor(key) else Tensor(_random.key_array(key))
