"""``companion.keras.datasets``: ``<name>.load_data()`` returning NumPy arrays, like Keras's loaders."""

from companion.keras.datasets import breast_cancer, digits, fashion_mnist, mnist, shapes

__all__ = ["breast_cancer", "digits", "fashion_mnist", "mnist", "shapes"]
