"""partition, argpartition, lexsort and sort_complex (see the NumPy functions of the same names),
plus the ndarray methods partition and argpartition.

partition and argpartition run the backends' selection: an introselect per row on cpu (O(n)),
a full sort on cuda and emu (one valid partition for every kth). Either way a[kth] is the value a
sort puts there, nothing before it is greater and nothing after it smaller; the order elsewhere is
unspecified, as in NumPy. lexsort is a chain of stable argsorts, from the secondary keys to the
primary one. Everything runs on the input's device.
"""

import operator

import numpy

from gpupy import _core
from gpupy._core import ndarray
from gpupy._indexing import _arr, _axis, take_along_axis
from gpupy._utilities import check_operands

__all__ = ["argpartition", "lexsort", "partition", "sort_complex"]


def _check_partition(a, kth, axis, kind, order, op):
    """The array (flattened for axis=None), the axis and kth as a list, once they are valid."""
    if not isinstance(kind, str):
        raise TypeError(f"[{op}] kind must be a string, not {type(kind).__name__}")
    if kind != "introselect":
        raise ValueError(f"[{op}] select kind must be 'introselect' (got {kind!r})")
    if order is not None:
        raise ValueError(f"[{op}] Cannot specify order when the array has no fields.")
    if axis is None:
        a, axis = a.reshape(-1), 0
    axis = _axis(axis, a.ndim, op)
    kths = kth.get() if isinstance(kth, ndarray) else numpy.asarray(kth)
    if kths.dtype.kind not in "iu":
        raise TypeError(f"[{op}] Partition index must be integer")
    # The bounds of kth are checked by _core.partition, with NumPy's message.
    return a, axis, kths.reshape(-1).tolist()


def partition(a, kth, axis=-1, kind="introselect", order=None):
    """See numpy.partition: a partitioned copy."""
    a, axis, kths = _check_partition(_arr(a), kth, axis, kind, order, "partition")
    return _core.partition(a, kths, axis=axis)


def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    """See numpy.argpartition: int64 indices that partition `a`."""
    a = _arr(a)
    if a.ndim == 0:
        a = a.reshape(1)  # NumPy answers [0] for a 0-d array, as argsort does
    a, axis, kths = _check_partition(a, kth, axis, kind, order, "argpartition")
    return _core.argpartition(a, kths, axis=axis)


def _method_partition(self, kth, axis=-1, kind="introselect", order=None):
    if axis is None:
        raise TypeError("[partition] the method partitions one axis in place; axis=None is invalid")
    if not self.flags.writeable:  # NumPy's first check, before kth's
        raise ValueError("[partition] partition array is read-only")
    _, axis, kths = _check_partition(self, kth, axis, kind, order, "partition")
    self[...] = _core.partition(self, kths, axis=axis)


def _method_argpartition(self, kth, axis=-1, kind="introselect", order=None):
    return argpartition(self, kth, axis, kind, order)


def lexsort(keys, axis=-1):
    """See numpy.lexsort: int64 indices that sort by the last key, then the one before, ...
    `keys` is a sequence of arrays of one shape, or an array whose first axis runs over the
    keys. The sort is stable."""
    if isinstance(keys, (ndarray, numpy.ndarray)):
        if keys.ndim == 0:
            raise TypeError("[lexsort] need sequence of keys with len > 0 in lexsort")
        keys = [keys[i] for i in range(keys.shape[0])]
    elif not hasattr(keys, "__iter__"):
        raise TypeError(f"[lexsort] expected a sequence of keys, got {type(keys).__name__}")
    else:
        keys = list(keys)
    if not keys:
        raise TypeError("[lexsort] need sequence of keys with len > 0 in lexsort")
    check_operands("lexsort", keys)
    device = next((k.device for k in keys if isinstance(k, ndarray)), _core.default_device())
    keys = [k if isinstance(k, ndarray) else _core._asarray(k, device=device) for k in keys]
    shape = keys[0].shape
    if any(k.shape != shape for k in keys):
        raise ValueError("[lexsort] all keys need to be the same shape")
    if axis is None:
        raise TypeError("[lexsort] axis must be an integer, not None")
    # 0-d keys sort as one item; NumPy checks the axis as for 1-d keys (its message says 0).
    if len(shape) == 0:
        if not -1 <= operator.index(axis) <= 0:
            raise numpy.exceptions.AxisError(
                f"[lexsort] axis {axis} is out of bounds for array of dimension 0"
            )
        return _core.zeros((), "int64", device)
    axis = _axis(operator.index(axis), len(shape), "lexsort")
    order = _core.argsort(keys[0], axis=axis, kind="stable")
    for k in keys[1:]:
        step = _core.argsort(take_along_axis(k, order, axis), axis=axis, kind="stable")
        order = take_along_axis(order, step, axis)
    return order


_COMPLEX64_SOURCES = frozenset(("int8", "int16", "uint8", "uint16", "complex64"))


def sort_complex(a):
    """See numpy.sort_complex: sorted along the last axis (real part first, then imaginary) as
    complex; 8- and 16-bit integers give complex64, other real types complex128."""
    a = _arr(a)
    if a.ndim == 0:
        raise numpy.exceptions.AxisError(
            "[sort_complex] axis -1 is out of bounds for array of dimension 0"
        )
    dtype = "complex64" if a.dtype.name in _COMPLEX64_SOURCES else "complex128"
    out = _core.sort(a, axis=-1)
    return out if out.dtype == dtype else out.astype(dtype)


ndarray.partition = _method_partition
ndarray.argpartition = _method_argpartition
