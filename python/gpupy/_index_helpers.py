"""Index arrays for grids, diagonals and triangles: indices, ix_, diag_indices(_from),
tril_indices(_from), triu_indices(_from) and mask_indices (see the NumPy functions of the same
names).

They are built on the device from arange, tril/triu and nonzero. Functions that take only sizes
return arrays on the default device; the *_from variants use the given array's device.
"""

import operator

import numpy

from gpupy import _core
from gpupy._core import ndarray

__all__ = [
    "diag_indices",
    "diag_indices_from",
    "ix_",
    "mask_indices",
    "tril_indices",
    "tril_indices_from",
    "triu_indices",
    "triu_indices_from",
]


def ix_(*args):
    """See numpy.ix_: open-mesh index arrays (booleans become the positions of their Trues).
    Lists join the device of the first gpupy array given (else the default one)."""
    out = []
    nd = len(args)
    device = next((a.device for a in args if isinstance(a, ndarray)), None)
    for k, seq in enumerate(args):
        a = seq if isinstance(seq, ndarray) else _core._asarray(seq, device=device)
        if a.ndim != 1:
            raise ValueError("[ix_] Cross index must be 1 dimensional")
        if a.size == 0 and not isinstance(seq, (ndarray, numpy.ndarray)):
            a = a.astype("int64")  # an empty list is an index, as in NumPy
        if a.dtype.kind == "b":
            a = a._flatnonzero()
        out.append(a.reshape((1,) * k + (a.size,) + (1,) * (nd - k - 1)))
    return tuple(out)


def diag_indices(n, ndim=2):
    """See numpy.diag_indices: ndim copies of arange(n)."""
    idx = _core._arange(0, operator.index(n), 1, "int64", _core.default_device())
    return (idx,) * ndim


def diag_indices_from(arr):
    """See numpy.diag_indices_from (on arr's device)."""
    if not isinstance(arr, ndarray):
        arr = _core._asarray(arr)
    if arr.ndim < 2:
        raise ValueError("[diag_indices_from] input array must be at least 2-d")
    if len(set(arr.shape)) != 1:
        raise ValueError("[diag_indices_from] All dimensions of input must be of equal length")
    idx = _core._arange(0, arr.shape[0], 1, "int64", arr.device)
    return (idx,) * arr.ndim


def _triangle(n, k, m, upper, device):
    n = operator.index(n)
    m = n if m is None else operator.index(m)
    n, m = max(n, 0), max(m, 0)  # NumPy's (n, m) mask comes from aranges: empty when negative
    ones = _core.ones((n, m), "bool", device)
    tri = _core._triu(ones, k) if upper else _core._tril(ones, k)
    return tuple(tri._nonzero())


def tril_indices(n, k=0, m=None):
    """See numpy.tril_indices: row and column indices of the lower triangle of an (n, m)
    array, in row-major order."""
    return _triangle(n, k, m, False, _core.default_device())


def triu_indices(n, k=0, m=None):
    """See numpy.triu_indices."""
    return _triangle(n, k, m, True, _core.default_device())


def _square_2d(arr, op):
    if not isinstance(arr, ndarray):
        arr = _core._asarray(arr)
    if arr.ndim != 2:
        raise ValueError(f"[{op}] input array must be 2-d")
    return arr


def tril_indices_from(arr, k=0):
    """See numpy.tril_indices_from (on arr's device)."""
    arr = _square_2d(arr, "tril_indices_from")
    return _triangle(arr.shape[0], k, arr.shape[1], False, arr.device)


def triu_indices_from(arr, k=0):
    """See numpy.triu_indices_from (on arr's device)."""
    arr = _square_2d(arr, "triu_indices_from")
    return _triangle(arr.shape[0], k, arr.shape[1], True, arr.device)


def mask_indices(n, mask_func, k=0):
    """See numpy.mask_indices: the nonzero places of mask_func(ones((n, n), int), k); the
    function receives a gpupy array on the default device."""
    n = operator.index(n)
    if n < 0:
        raise ValueError("[mask_indices] negative dimensions are not allowed")
    m = _core.ones((n, n), "int64", _core.default_device())
    a = mask_func(m, k)
    if not isinstance(a, ndarray):
        a = _core._asarray(a, device=m.device)
    return tuple(_core.not_equal(a, 0)._nonzero())
