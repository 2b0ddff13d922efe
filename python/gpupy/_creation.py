"""Array creation and moving data between NumPy and gpupy devices."""

from gpupy import _core
from gpupy._core import empty, eye, full, linspace, ones, zeros  # noqa: F401


def asarray(obj, dtype=None, device=None, copy=None):
    """See numpy.asarray. NumPy input stays zero-copy on the cpu device unless ``copy=True``."""
    a = _core._asarray(obj, dtype, device)
    if copy and (a is obj or not isinstance(obj, _core.ndarray) or a._same_buffer(obj)):
        return a.copy()
    return a


def array(obj, dtype=None, device=None, copy=True):
    """See numpy.array: copies by default."""
    return asarray(obj, dtype=dtype, device=device, copy=copy)


def arange(start, stop=None, step=1, dtype=None, device=None):
    """See numpy.arange."""
    if stop is None:
        start, stop = 0, start
    return _core._arange(start, stop, step, dtype, device)


def asnumpy(a):
    """A NumPy copy of a gpupy array from any device (NumPy input is returned as it is)."""
    if isinstance(a, _core.ndarray):
        return a.get()
    import numpy

    return numpy.asarray(a)


__all__ = [
    "arange",
    "array",
    "asarray",
    "asnumpy",
    "empty",
    "eye",
    "full",
    "linspace",
    "ones",
    "zeros",
]
