"""`compat.v1.losses`: the regularization losses collected by `get_variable`."""

from companion.compat.v1._variable_scope import get_regularization_loss, get_regularization_losses

__all__ = ["get_regularization_loss", "get_regularization_losses"]
