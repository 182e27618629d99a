"""``companion.keras.datasets.fashion_mnist``: ``load_data()`` returning train and test arrays."""

from companion.datasets._keras_style import fashion_mnist_load_data as load_data

__all__ = ["load_data"]
