"""Argument checks shared by the kernel layer's array helpers (algorithms, rng)."""

import operator


def nonnegative_int(op, name, value):
    """value as a Python int >= 0: TypeError for non-integers, ValueError for negatives, both
    naming the operation and the argument."""
    try:
        value = operator.index(value)
    except TypeError:
        raise TypeError(f"[{op}] {name} must be an integer, got {type(value).__name__}") from None
    if value < 0:
        raise ValueError(f"[{op}] {name} must not be negative, got {value}")
    return value
