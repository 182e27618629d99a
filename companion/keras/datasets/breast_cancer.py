"""``companion.keras.datasets.breast_cancer``: ``load_data()`` -> ``((x_train, y_train), (x_test, y_test))``."""

from companion.datasets._keras_style import breast_cancer_load_data as load_data

__all__ = ["load_data"]
