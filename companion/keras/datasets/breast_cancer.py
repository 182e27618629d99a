"""``companion.keras.datasets.breast_cancer``: ``load_data()`` returning train and test arrays."""

from companion.datasets._keras_style import breast_cancer_load_data as load_data

__all__ = ["load_data"]
