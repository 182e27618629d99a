"""`Solarization`: pixels at or above a threshold inverted (``255 - x``), after an optional addition."""

from companion._ops._math import clip_by_value
from companion._ops._select import where
from companion.keras.layers._image_augmentation import _Augmentation, _batched
from companion.keras.layers._value_range import checked_value_range, transform_value_range

_FACTOR_ERROR = ("The `addition_factor` and `threshold_factor` arguments should be a number (or a list of "
                 "two numbers) in the range [0, 1]. ")


def _factor(factor, name):
    """Keras's ``(lower, upper)``: a number f gives ``(0, f)``; a pair is sorted; both in [0, 1]."""
    if isinstance(factor, (tuple, list)):
        if len(factor) != 2:
            raise ValueError(_FACTOR_ERROR + f"Received: {name}={factor}")
        for number in factor:
            _check_range(number)
        lower, upper = sorted(factor)
    elif isinstance(factor, (int, float)) and not isinstance(factor, bool):
        _check_range(factor)
        lower, upper = 0, factor
    else:
        raise ValueError(_FACTOR_ERROR + f"Received: {name}={factor}")
    return lower, upper


def _check_range(number):
    if number > 1.0 or number < 0:
        raise ValueError(_FACTOR_ERROR + f"Received: input_number={number}")


class Solarization(_Augmentation):
    """Keras 3's ``Solarization``: while training, in the 0-255 scale, adds a random amount drawn
    from ``[addition_factor[0], addition_factor[1] * 255]``, clips to 0-255, then replaces each
    value at or above a random threshold (from ``[threshold_factor[0], threshold_factor[1] * 255]``)
    with ``255 - value``. One addition and one threshold per image; as in Keras, the lower bounds
    are not scaled by 255. With the default factors (0) every value is inverted. In inference
    the images pass unchanged. The random numbers follow companion's seed rules (they differ
    from TensorFlow's).

    Example:
        >>> import companion as tf
        >>> tf.keras.layers.Solarization()(tf.constant([[[[0.0], [100.0], [255.0]]]])).numpy().ravel()
        array([255., 155.,   0.], dtype=float32)
        >>> layer = tf.keras.layers.Solarization(value_range=(0, 1))
        >>> layer(tf.constant([[[[0.25], [0.5]]]])).numpy().ravel().round(4)
        array([0.75, 0.5 ], dtype=float32)
    """

    def __init__(self, addition_factor=0.0, threshold_factor=0.0, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        self.addition_factor = _factor(addition_factor, "addition_factor")
        self.threshold_factor = _factor(threshold_factor, "threshold_factor")
        self.value_range = checked_value_range(value_range)

    def _augment(self, inputs):
        images, single = _batched(inputs)
        shape = [images.shape[0], 1, 1, 1]
        additions = self._uniform(shape, self.addition_factor[0], self.addition_factor[1] * 255)
        thresholds = self._uniform(shape, self.threshold_factor[0], self.threshold_factor[1] * 255)
        images = transform_value_range(images, self.value_range, (0, 255), self._dtype)
        results = clip_by_value(images + additions, 0.0, 255.0)
        results = where(results < thresholds, results, 255.0 - results)
        results = transform_value_range(results, (0, 255), self.value_range, self._dtype)
        return results[0] if single else results

    def get_config(self):
        return {**super().get_config(), "value_range": self.value_range,
                "addition_factor": self.addition_factor, "threshold_factor": self.threshold_factor}
