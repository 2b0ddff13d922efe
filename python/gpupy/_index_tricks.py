"""ravel_multi_index and unravel_index: flat indices and coordinates, computed with gpupy's own
integer arithmetic on the index arrays' device.

See the NumPy functions of the same names. Bounds checks (mode='raise') read one boolean back.
"""

import math
import operator

import numpy

from gpupy import _core

__all__ = ["ravel_multi_index", "unravel_index"]


def _int_array(x, op, what):
    from gpupy import asarray

    a = x if isinstance(x, _core.ndarray) else asarray(x)
    if numpy.dtype(a.dtype).kind not in "iu" and not (a.size == 0 and a.dtype.kind == "f"):
        raise TypeError(f"[{op}] only int indices permitted; {what} has dtype {a.dtype}")
    return a.astype("int64", copy=False)


def _dims(dims, op):
    dims = (dims,) if numpy.ndim(dims) == 0 else tuple(dims)
    dims = tuple(operator.index(d) for d in dims)
    if any(d < 0 for d in dims):
        raise ValueError(f"[{op}] dimensions must be non-negative")
    if math.prod(dims) > numpy.iinfo(numpy.int64).max:
        raise ValueError(
            f"[{op}] dimensions are too large; arrays and shapes with a total size "
            "greater than 'intp' are not supported."
        )
    return dims


def _strides(dims, order, op):
    if order not in ("C", "F"):
        raise ValueError(f"[{op}] only 'C' or 'F' order is permitted")
    axes = range(len(dims) - 1, -1, -1) if order == "C" else range(len(dims))
    strides, step = [0] * len(dims), 1
    for i in axes:
        strides[i], step = step, step * dims[i]
    return strides


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    """See numpy.ravel_multi_index: mode 'raise', 'wrap' or 'clip' (or one per dimension)."""
    from gpupy import broadcast_arrays, clip, remainder

    op = "ravel_multi_index"
    dims = _dims(dims, op)
    coords = [_int_array(c, op, "multi_index") for c in multi_index]
    if len(coords) != len(dims):
        raise ValueError(f"[{op}] parameter multi_index must be a sequence of length {len(dims)}")
    modes = (mode,) * len(dims) if isinstance(mode, str) else tuple(mode)
    if len(modes) != len(dims):
        raise ValueError(f"[{op}] mode must be a string or one mode per dimension")
    coords = broadcast_arrays(*coords) if coords else coords
    strides = _strides(dims, order, op)
    result = None
    for c, d, m, st in zip(coords, dims, modes, strides, strict=True):
        if m == "raise":
            if c.size and bool(_core.any(_core.logical_or(c < 0, c >= d))):
                raise ValueError(f"[{op}] invalid entry in coordinates array")
        elif m == "wrap":
            c = remainder(c, d) if d else c
        elif m == "clip":
            c = clip(c, 0, max(d - 1, 0))
        else:
            raise ValueError(f"[{op}] clipmode must be one of 'clip', 'raise', or 'wrap'")
        term = c * st
        result = term if result is None else result + term
    if result is None:
        raise ValueError(f"[{op}] multi_index must not be empty")
    return result


def unravel_index(indices, shape, order="C"):
    """See numpy.unravel_index: a tuple of int64 coordinate arrays."""
    from gpupy import floor_divide, remainder

    op = "unravel_index"
    shape = _dims(shape, op)
    idx = _int_array(indices, op, "indices")
    size = math.prod(shape)
    if idx.size and bool(_core.any(_core.logical_or(idx < 0, idx >= size))):
        bad = idx.reshape(-1)[_core.argmax(_core.logical_or(idx < 0, idx >= size).reshape(-1))]
        raise ValueError(f"[{op}] index {int(bad)} is out of bounds for array with size {size}")
    strides = _strides(shape, order, op)
    return tuple(remainder(floor_divide(idx, st), d) for st, d in zip(strides, shape, strict=True))
