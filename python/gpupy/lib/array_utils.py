"""gpupy.lib.array_utils: see numpy.lib.array_utils. byte_bounds takes gpupy arrays on every
device (addresses in the device's memory on cuda); normalize_axis_index and normalize_axis_tuple
are NumPy's (they raise numpy.exceptions.AxisError, as gpupy does)."""

from numpy.lib import array_utils as _numpy_utils
from numpy.lib.array_utils import normalize_axis_index, normalize_axis_tuple

from gpupy import _core

__all__ = ["byte_bounds", "normalize_axis_index", "normalize_axis_tuple"]


def byte_bounds(a):
    """(low, high): the first byte address of `a` and one past its last byte, as
    numpy.lib.array_utils.byte_bounds computes them (a C-contiguous array spans size * itemsize
    bytes; otherwise the strides' extremes plus one item)."""
    if not isinstance(a, _core.ndarray):
        return _numpy_utils.byte_bounds(a)
    low = high = a._data_ptr
    if a.flags.c_contiguous:  # NumPy's __array_interface__ gives no strides then
        return low, high + a.size * a.itemsize
    for n, stride in zip(a.shape, a.strides, strict=True):
        if stride < 0:
            low += (n - 1) * stride
        else:
            high += (n - 1) * stride
    return low, high + a.itemsize
