"""Argument checks shared by the kernel layer's array helpers (algorithms, rng)."""

import operator

import numpy

from gpupy.cunumpy._backend import assert_same_backend, get_array_module


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


def _is_scalar(v):
    return isinstance(v, (int, float, complex, numpy.generic)) or (
        isinstance(v, numpy.ndarray) and v.ndim == 0
    )


def array_module(op, *values):
    """The array module (numpy, gpupy or cupy) of the arrays among `values`; scalars go with any.
    TypeError naming `op` when the arrays belong to different backends (or, for gpupy, to
    different devices): nothing is copied between them. NumPy when there is no array."""
    arrays = [v for v in values if not _is_scalar(v)]
    try:
        assert_same_backend(*arrays)
    except TypeError as e:
        raise TypeError(f"[{op}] {e}") from None
    return get_array_module(*arrays)
