"""Linear colour spaces: `rgb_to_yiq`/`yiq_to_rgb` and `rgb_to_yuv`/`yuv_to_rgb`, each a 3x3 matrix on
the channel axis with TensorFlow's coefficients."""

import jax.numpy as jnp

from companion._core._op import op
from companion.image._checks import image_input, static_shape

_KERNELS = {
    "rgb_to_yiq": ((0.299, 0.59590059, 0.2115), (0.587, -0.27455667, -0.52273617),
                   (0.114, -0.32134392, 0.31119955)),
    "yiq_to_rgb": ((1, 1, 1), (0.95598634, -0.27201283, -1.10674021), (0.6208248, -0.64720424, 1.70423049)),
    "rgb_to_yuv": ((0.299, -0.14714119, 0.61497538), (0.587, -0.28886916, -0.51496512),
                   (0.114, 0.43601035, -0.10001026)),
    "yuv_to_rgb": ((1, 1, 1), (0, -0.394642334, 2.03206185), (1.13988303, -0.58062185, 0)),
}


@op("color_space", static=("kernel",))
def _convert(images, kernel):
    return jnp.tensordot(images, jnp.asarray(_KERNELS[kernel], images.dtype), axes=[[-1], [0]])


def _space(name):
    def convert(images, name=None):
        images = image_input(images, name_, ranks=(1, 2, 3, 4, 5))
        if not images.dtype.is_floating or static_shape(images)[-1] != 3:
            raise ValueError(f"{name_} needs float images with 3 channels. Received dtype "
                             f"{images.dtype.name}, shape {tuple(images.shape.as_list())}.")
        return _convert(images, kernel=name_)

    name_ = name
    source, target = name.split("_to_")
    convert.__name__ = name
    convert.__doc__ = f"Converts {source.upper()} images (float, last axis 3) to {target.upper()}."
    return convert


rgb_to_yiq = _space("rgb_to_yiq")
yiq_to_rgb = _space("yiq_to_rgb")
rgb_to_yuv = _space("rgb_to_yuv")
yuv_to_rgb = _space("yuv_to_rgb")
