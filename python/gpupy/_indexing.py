"""Advanced indexing helpers: see the NumPy functions of the same names.

``a[idx]`` with integer or boolean arrays is implemented in the C++ core; these functions build
on it. Index arrays given as lists or NumPy arrays are copied to the device of the indexed array.
"""

import math
import operator

import numpy
from numpy.exceptions import AxisError

from gpupy import _core
from gpupy._core import ndarray


def _arr(a):
    return a if isinstance(a, ndarray) else _core._asarray(a)


def _index(indices, like):
    # An explicit user index: lists and NumPy arrays move to the device of the indexed array.
    if isinstance(indices, ndarray):
        return indices
    out = _core._asarray(indices, device=like.device)
    if out.size == 0 and out.dtype.kind == "f":
        out = out.astype("int64")  # an empty list is an integer index, as in NumPy
    return out


def int_indices(indices, like, op):
    """Index values of take and put as NumPy converts them to intp: booleans count as 0 and 1
    (they are never a mask here), a list or scalar of floats is truncated (a forced cast), while
    index arrays must have an integer or boolean dtype."""
    if isinstance(indices, (ndarray, numpy.ndarray)):
        idx = _index(indices, like)
        if idx.dtype.kind not in "biu":
            raise TypeError(
                f"[{op}] cannot cast indices of dtype {idx.dtype} to int64 with casting rule "
                "'same_kind'"
            )
    else:
        idx = _core._asarray(indices, device=like.device)
        if idx.dtype.kind == "c":
            raise TypeError(f"[{op}] indices must be integers, not {idx.dtype}")
    return idx.astype("int64", copy=False)


def _int(value, op, what):
    """`value` (anything with __index__) as a Python int; a TypeError naming `op` otherwise."""
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"[{op}] {what} must be an integer, not {type(value).__name__}") from None


def _axis(axis, ndim, op):
    axis = _int(axis, op, "axis")
    # NumPy's AxisError subclasses both ValueError and IndexError, so either except clause works.
    if not -ndim <= axis < ndim:
        raise AxisError(f"[{op}] axis {axis} is out of bounds for array of dimension {ndim}")
    return axis % ndim


def _axes(axis, ndim, op):
    """An axis argument (an integer, a sequence of them, or None for all) as distinct non-negative
    axes in the order given, read as NumPy reads it: AxisError out of range, ValueError repeated."""
    if axis is None:
        return tuple(range(ndim))
    if not isinstance(axis, (tuple, list)):
        try:
            axis = (operator.index(axis),)
        except TypeError:
            if not hasattr(axis, "__iter__"):
                raise TypeError(
                    f"[{op}] axis must be an integer or a tuple of integers, "
                    f"not {type(axis).__name__}"
                ) from None
    axes = tuple(_axis(ax, ndim, op) for ax in axis)
    if len(set(axes)) != len(axes):
        raise ValueError(f"[{op}] repeated axis")
    return axes


def nonzero(a):
    """See numpy.nonzero: a tuple of int64 coordinate arrays, one per axis."""
    return tuple(_arr(a)._nonzero())


def flatnonzero(a):
    """See numpy.flatnonzero."""
    return _arr(a)._flatnonzero()


def argwhere(a):
    """See numpy.argwhere: shape (N, a.ndim), int64."""
    a = _arr(a)
    if a.ndim == 0:
        a = a.reshape(1)
        return _core.empty((int(a._flatnonzero().size), 0), "int64", a.device)
    coords = a._nonzero()
    out = _core.empty((coords[0].size, a.ndim), "int64", a.device)
    for d, c in enumerate(coords):
        out[:, d] = c
    return out


def take(a, indices, axis=None, out=None, mode="raise"):
    """See numpy.take: mode='raise' refuses out-of-range indices, 'wrap' wraps them around,
    'clip' clips them to the axis (negative indices become 0, as in NumPy)."""
    if axis is None and out is None and mode == "raise":
        if isinstance(a, ndarray) and isinstance(indices, ndarray) and a.ndim == 1:
            return a[indices]  # what the steps below come to, without their 0.7 us
    a = _arr(a)
    indices = int_indices(indices, a, "take")
    if axis is None or (a.ndim == 0 and axis in (0, -1)):  # NumPy reads a 0-d array as 1-d
        a, axis = (a if a.ndim == 1 else _core.ravel(a)), 0
    axis = _axis(axis, a.ndim, "take")
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"[take] mode must be 'raise', 'wrap' or 'clip', not {mode!r}")
    if mode != "raise":
        n = a.shape[axis]
        if n == 0 and indices.size:  # no index: an empty result, as NumPy's
            raise IndexError("[take] cannot do a non-empty take from an empty axes.")
        if n and mode == "wrap":
            indices = _core.remainder(indices, n)
        elif n:
            indices = _core.minimum(_core.maximum(indices, 0), n - 1)
    if math.prod(a.shape[:axis]) == 0:
        # NumPy checks the indices once per element of the axes before `axis`: here never
        shape = a.shape[:axis] + indices.shape + a.shape[axis + 1 :]
        result = _core.zeros(shape, a.dtype, a.device)
    else:
        result = a._getitem((slice(None),) * axis + (indices,), "C")  # NumPy's take: C order
    return _write_back("take", result, out)


def _write_back(op, result, out):
    """result into out= as NumPy's take and compress write it: through a copy of out in the
    result's dtype, so out must have the result's shape and cast to its dtype safely."""
    if out is None:
        return result
    if out.shape != result.shape:
        raise ValueError(f"[{op}] output array does not match result of ndarray.{op}")
    if not numpy.can_cast(out.dtype, result.dtype, "safe"):
        raise TypeError(
            f"[{op}] Cannot cast array data from {out.dtype!r} to {result.dtype!r} according "
            "to the rule 'safe'"
        )
    out[...] = result
    return out


def _integer_indices(indices, op):
    if indices.dtype.kind not in "iu":
        raise IndexError(f"[{op}] `indices` must be an integer array")


def _along_axis_index(arr, indices, axis, op):
    _integer_indices(indices, op)
    if arr.ndim != indices.ndim:
        raise ValueError(f"[{op}] `indices` and `arr` must have the same number of dimensions")
    key = []
    for d in range(arr.ndim):
        if d == axis:
            key.append(indices)
        else:
            shape = [1] * arr.ndim
            shape[d] = arr.shape[d]
            key.append(_core._arange(0, arr.shape[d], 1, "int64", arr.device).reshape(shape))
    return tuple(key)


def take_along_axis(arr, indices, axis=-1):
    """See numpy.take_along_axis (axis=None flattens)."""
    arr = _arr(arr)
    indices = _index(indices, arr)
    if axis is None:
        if indices.ndim != 1:
            raise ValueError(
                "[take_along_axis] when axis=None, `indices` must have a single dimension."
            )
        arr, axis = arr.ravel(), 0
    axis = _axis(axis, arr.ndim, "take_along_axis")
    return arr[_along_axis_index(arr, indices, axis, "take_along_axis")]


def put_along_axis(arr, indices, values, axis):
    """See numpy.put_along_axis (in place; arr must be a gpupy array)."""
    indices = _index(indices, arr)
    if axis is None:
        if indices.ndim != 1:
            raise ValueError(
                "[put_along_axis] when axis=None, `indices` must have a single dimension."
            )
        _integer_indices(indices, "put_along_axis")
        if not arr._c_contiguous:  # NumPy's flattened copy of such an array is read-only too
            raise ValueError(
                "[put_along_axis] assignment destination is read-only: axis=None needs a "
                "C-contiguous array"
            )
        arr, axis = arr.reshape(-1), 0
    axis = _axis(axis, arr.ndim, "put_along_axis")
    arr[_along_axis_index(arr, indices, axis, "put_along_axis")] = values


def compress(condition, a, axis=None, out=None):
    """See numpy.compress: `condition` may be shorter than the axis, or longer with False
    beyond it."""
    a = _arr(a)
    condition = _index(condition, a)
    if condition.ndim != 1:
        raise ValueError("[compress] condition must be a 1-d array")
    if axis is None or (a.ndim == 0 and axis in (0, -1)):  # NumPy reads a 0-d array as 1-d
        a, axis = a.ravel(), 0
    axis = _axis(axis, a.ndim, "compress")
    picked = condition._flatnonzero()
    # a longer condition is fine while its extra entries are False, as in NumPy (or while the
    # axes before `axis` are empty: take checks nothing then)
    longer = condition.shape[0] > a.shape[axis] and math.prod(a.shape[:axis])
    if longer and picked.size and int(picked[-1]) >= a.shape[axis]:
        raise IndexError(
            f"[compress] index {int(picked[-1])} is out of bounds for axis {axis} "
            f"with size {a.shape[axis]}"
        )
    return _write_back("compress", take(a, picked, axis=axis), out)


def extract(condition, arr):
    """See numpy.extract."""
    arr = _arr(arr)
    return arr.ravel()[_index(condition, arr).ravel()._flatnonzero()]


ndarray.nonzero = nonzero
ndarray.take = take
ndarray.compress = lambda self, condition, axis=None, out=None: compress(condition, self, axis, out)

__all__ = [
    "argwhere",
    "compress",
    "extract",
    "flatnonzero",
    "nonzero",
    "put_along_axis",
    "take",
    "take_along_axis",
]
