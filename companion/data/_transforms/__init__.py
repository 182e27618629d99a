"""The transformations of `companion.data.Dataset`, one concept per module."""
