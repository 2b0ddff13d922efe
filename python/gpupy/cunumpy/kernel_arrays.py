"""Arguments of dispatch="arrays" kernels: bring each array to the side of a reference array
(device or host), C-contiguous with the kernel's dtype, copying only when it does not fit."""

import contextlib

import numpy

from gpupy.cunumpy._backend import is_gpu, to_gpupy, to_numpy
from gpupy.cunumpy.host_kernel import _is_gpupy


def _fits_host(value, dtype, strided):
    if not isinstance(value, numpy.ndarray) or (dtype is not None and value.dtype != dtype):
        return False
    if value.flags.c_contiguous:
        return True
    # strided=True: C order with gaps between rows (storage[:, :n]); the last axis is dense.
    s = value.strides
    return strided and value.ndim > 0 and s[-1] == value.itemsize and list(s) == sorted(s)[::-1]


def as_kernel_array(value, like, dtype=None, *, strided=False):
    """value on the side of `like` (device if like is a device array, else NumPy), C-contiguous
    with dtype; the same object when it already fits."""
    dtype = None if dtype is None else numpy.dtype(dtype)
    if is_gpu(like):
        if (
            _is_gpupy(value)
            and str(value.device) == str(like.device)
            and (dtype is None or value.dtype == dtype)
            and value.flags.c_contiguous
        ):
            return value
        import gpupy

        out = to_gpupy(value if _is_gpupy(value) else numpy.asarray(value), device=like.device)
        out = gpupy.ascontiguousarray(out if dtype is None else out.astype(dtype))
        return out
    if _fits_host(value, dtype, strided):
        return value
    host = to_numpy(value)
    return numpy.ascontiguousarray(host, dtype=dtype)


@contextlib.contextmanager
def kernel_output(out, like, dtype=None, *, strided=False):
    """Yields `out`, or a converted buffer whose contents are written back into `out` when the
    block ends normally (not when it raises)."""
    buf = as_kernel_array(out, like, dtype, strided=strided)
    yield buf
    if buf is not out:
        out[...] = buf if _is_gpupy(out) or not _is_gpupy(buf) else to_numpy(buf)
