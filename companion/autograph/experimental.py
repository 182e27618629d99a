"""``companion.autograph.experimental``: ``do_not_convert``."""

from malt.impl.api import do_not_convert

__all__ = ["do_not_convert"]
