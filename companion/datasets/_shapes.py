"""``shapes``: procedurally generated RGB images of simple shapes, the stand-in for the course's photo sets.

Each image shows one shape (circle, square, triangle, star or cross) at a random position,
size and rotation, in a random colour on a random colour gradient, with pixel noise and
anti-aliased edges. The same configuration and seed always give the same pixels, so a
notebook can train a small CNN on it offline (two classes stand in for horses_or_humans,
five for tf_flowers).
"""

import functools

import numpy as np

from companion.datasets import _info
from companion.datasets._builder import Builder

CLASSES = ("circle", "square", "triangle", "star", "cross")
_CHUNK = 128  # images rendered at once (bounds memory: 128 × (2·size)² floats)


class Shapes(Builder):
    """Images ``uint8 [image_size, image_size, 3]`` of ``num_classes`` shapes; splits ``'train'``, ``'test'``.

    Config (``builder_kwargs`` of `load`): ``image_size`` (default 64), ``num_classes``
    (2-5, default 5: the first ones of circle, square, triangle, star, cross),
    ``train_size`` (default 1000), ``test_size`` (default 200), ``seed`` (default 0),
    ``noise`` (pixel noise standard deviation in [0, 1] units, default 0.05).
    """

    name = "shapes"
    description = ("Procedurally generated RGB images of simple shapes (circle, square, triangle, star, "
                   "cross) with random position, size, rotation, colours and noise; deterministic per seed.")

    def __init__(self, data_dir=None, image_size=64, num_classes=5, train_size=1000, test_size=200, seed=0,
                 noise=0.05):
        _check_int(image_size, "image_size", 8)
        _check_int(train_size, "train_size", 0)
        _check_int(test_size, "test_size", 0)
        if num_classes not in range(2, len(CLASSES) + 1):
            raise ValueError(f"shapes: num_classes must be 2 to {len(CLASSES)}. Received: {num_classes!r}")
        super().__init__(data_dir, image_size=image_size, num_classes=num_classes, train_size=train_size,
                         test_size=test_size, seed=int(seed), noise=float(noise))

    def _generate(self):
        c = self.config
        return {split: {"image": images, "label": labels} for split, (images, labels) in [
            ("train", render(c["train_size"], c["image_size"], c["num_classes"], (c["seed"], 0), c["noise"])),
            ("test", render(c["test_size"], c["image_size"], c["num_classes"], (c["seed"], 1), c["noise"]))]}

    def _features(self):
        size = self.config["image_size"]
        return {"image": _info.Image((size, size, 3), "uint8"),
                "label": _info.ClassLabel(CLASSES[:self.config["num_classes"]])}


@functools.lru_cache(maxsize=8)
def render(count, size, num_classes, seed, noise):
    """``count`` images and labels (balanced classes, shuffled), determined by the arguments alone.

    Example:
        >>> from companion.datasets._shapes import render
        >>> images, labels = render(4, 16, 2, (0, 0), 0.05)
        >>> images.shape, images.dtype.name, sorted(labels.tolist())
        ((4, 16, 16, 3), 'uint8', [0, 0, 1, 1])
    """
    rng = np.random.default_rng(list(seed))
    labels = rng.permutation(np.arange(count) % num_classes).astype(np.int64)
    params = _draw_params(rng, count)
    images = np.zeros((count, size, size, 3), np.uint8)
    for start in range(0, count, _CHUNK):
        chunk = slice(start, start + _CHUNK)
        images[chunk] = _render_chunk(labels[chunk], {k: v[chunk] for k, v in params.items()}, size, noise,
                                      np.random.default_rng([*seed, start]))
    images.flags.writeable = False  # cached: shared by every caller
    labels.flags.writeable = False
    return images, labels


def _draw_params(rng, count):
    background = rng.uniform(0, 1, (count, 3))
    foreground = rng.uniform(0, 1, (count, 3))
    dark = _luma(background) > 0.5  # keep the shape visible: dark on light, light on dark
    foreground = np.where(dark[:, None], foreground * 0.4, 0.6 + 0.4 * foreground)
    return {"center": rng.uniform(0.35, 0.65, (count, 2)), "radius": rng.uniform(0.2, 0.33, count),
            "angle": rng.uniform(0, 2 * np.pi, count), "background": background, "foreground": foreground,
            "gradient": rng.normal(0, 0.15, (count, 2))}


def _render_chunk(labels, params, size, noise, rng):
    x, y = _local_coordinates(params, size)
    coverage = np.zeros(x.shape, np.float32)
    for k, inside in enumerate(_INSIDE):
        mask = labels == k
        if mask.any():
            coverage[mask] = inside(x[mask], y[mask])
    coverage = coverage.reshape(len(labels), size, 2, size, 2).mean(axis=(2, 4))[..., None]  # anti-alias
    background = _background(params, size)
    image = background * (1 - coverage) + params["foreground"][:, None, None, :] * coverage
    image = image + rng.normal(0, noise, image.shape)
    return np.clip(np.round(image * 255), 0, 255).astype(np.uint8)


def _local_coordinates(params, size):
    """Supersampled (2×2 per pixel) coordinates in each shape's frame: centred, rotated, radius 1."""
    grid = (np.arange(2 * size, dtype=np.float32) + 0.5) / (2 * size)
    dx = grid[None, None, :] - params["center"][:, 0, None, None].astype(np.float32)
    dy = grid[None, :, None] - params["center"][:, 1, None, None].astype(np.float32)
    cos, sin = np.cos(params["angle"])[:, None, None], np.sin(params["angle"])[:, None, None]
    radius = params["radius"][:, None, None]
    x = (dx * cos + dy * sin) / radius
    y = (dy * cos - dx * sin) / radius
    return x.astype(np.float32), y.astype(np.float32)


def _background(params, size):
    ramp = np.linspace(-0.5, 0.5, size)
    gradient = (params["gradient"][:, 0, None, None] * ramp[None, None, :]
                + params["gradient"][:, 1, None, None] * ramp[None, :, None])
    return np.clip(params["background"][:, None, None, :] + gradient[..., None], 0, 1)


def _luma(rgb):
    return rgb @ np.array([0.299, 0.587, 0.114])


def _circle(x, y):
    return (x * x + y * y <= 0.85 ** 2).astype(np.float32)


def _square(x, y):
    return (np.maximum(np.abs(x), np.abs(y)) <= 0.75).astype(np.float32)


def _triangle(x, y):
    inside = np.ones(x.shape, bool)
    for angle in (-np.pi / 2, np.pi / 6, 5 * np.pi / 6):  # outward normals of an equilateral triangle
        inside &= x * np.cos(angle) + y * np.sin(angle) <= 0.5
    return inside.astype(np.float32)


def _star(x, y):
    rho, phi = np.hypot(x, y), np.arctan2(y, x)
    period = 2 * np.pi / 5
    tip = np.abs(2 * ((phi % period) / period) - 1)  # 1 at the points, 0 between them
    return (rho <= 0.4 + 0.6 * tip ** 2).astype(np.float32)


def _cross(x, y):
    ax, ay = np.abs(x), np.abs(y)
    return (((ax <= 0.28) & (ay <= 0.9)) | ((ay <= 0.28) & (ax <= 0.9))).astype(np.float32)


_INSIDE = (_circle, _square, _triangle, _star, _cross)


def _check_int(value, what, low):
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < low:
        raise ValueError(f"shapes: {what} must be an integer ≥ {low}. Received: {what}={value!r}")
