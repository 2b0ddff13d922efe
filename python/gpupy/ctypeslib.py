"""gpupy.ctypeslib: see numpy.ctypeslib, for cpu arrays. ``ndpointer`` argument types take gpupy
cpu arrays (as NumPy's take NumPy arrays: the same dtype, ndim, shape and flags checks) and pass
their memory, ``as_ctypes`` views a cpu array as a ctypes array and ``as_array`` a ctypes object
as a cpu array, all without copying. Arrays on emu and cuda are refused with a TypeError naming
.get(): a C function on the host cannot read device memory."""

import numpy
import numpy.ctypeslib as _np_ctypeslib
from numpy.ctypeslib import as_ctypes_type, c_intp, load_library  # noqa: F401

from gpupy import _core

__all__ = ["as_array", "as_ctypes", "as_ctypes_type", "c_intp", "load_library", "ndpointer"]

_POINTER_TYPES = {}  # NumPy's ndpointer class -> its subclass taking gpupy arrays


def _host_view(a, op):
    """The NumPy view of gpupy cpu array `a` (sharing its memory); other objects as they are."""
    if not isinstance(a, _core.ndarray):
        return a
    if a.device.type != "cpu":
        raise TypeError(
            f"[{op}] the array is on '{a.device}'; host C functions take cpu arrays (copy it "
            "with .get() or .to_device('cpu'))"
        )
    return numpy.asarray(a)


def ndpointer(dtype=None, ndim=None, shape=None, flags=None):
    """See numpy.ctypeslib.ndpointer: an argtypes entry that checks an array's dtype, ndim, shape
    and flags and passes its address; it takes gpupy cpu arrays and NumPy arrays."""
    base = _np_ctypeslib.ndpointer(dtype, ndim, shape, flags)
    klass = _POINTER_TYPES.get(base)
    if klass is None:

        def from_param(cls, obj):
            return super(klass, cls).from_param(_host_view(obj, "ndpointer"))

        klass = type(base.__name__, (base,), {"from_param": classmethod(from_param)})
        _POINTER_TYPES[base] = klass
    return klass


def as_ctypes(obj):
    """See numpy.ctypeslib.as_ctypes: a ctypes array over a C-contiguous cpu array's memory."""
    return _np_ctypeslib.as_ctypes(_host_view(obj, "as_ctypes"))


def as_array(obj, shape=None):
    """See numpy.ctypeslib.as_array: a gpupy cpu array over a ctypes array's or pointer's memory
    (no copy); a gpupy array is returned as it is."""
    if isinstance(obj, _core.ndarray):
        return obj
    from gpupy import asarray

    return asarray(_np_ctypeslib.as_array(obj, shape), device="cpu")
