"""`compat.v1.train`: TF1 optimizers whose ``minimize`` returns a graph op."""

from companion.compat.v1._train import GradientDescentOptimizer

__all__ = ["GradientDescentOptimizer"]
