"""The move code of ``movecode.py`` compiled for the kernels, from the very same source."""

from . import movecode
from .jit import njit

encode_placement = njit(cache=True)(movecode.encode_placement)
encode_swipe = njit(cache=True)(movecode.encode_swipe)
move_from = njit(cache=True)(movecode.move_from)
move_to = njit(cache=True)(movecode.move_to)
move_target = njit(cache=True)(movecode.move_target)
is_swipe = njit(cache=True)(movecode.is_swipe)

__all__ = ["encode_placement", "encode_swipe", "is_swipe", "move_from", "move_target", "move_to"]
