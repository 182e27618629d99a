"""``companion.lookup.experimental``: the mutable `MutableHashTable`."""

from companion.lookup._tables import MutableHashTable

__all__ = ["MutableHashTable"]
