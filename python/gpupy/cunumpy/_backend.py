"""The process-wide array backend of gpupy.cunumpy (numpy, gpupy or cupy) and the conversions
between backends. Not thread-safe: one backend per process, as in NumPy-style code bases."""

import contextlib
import os

import numpy

from gpupy.cunumpy import profiling

BACKENDS = ("numpy", "gpupy", "cupy")


class ArrayBackend:
    """Which array module `xp.<name>` resolves to; listeners hear about every switch."""

    def __init__(self):
        self.name = "numpy"
        self.module = numpy
        self._listeners = []

    # The names code written against CuNumpy reads: `array_backend.backend == "cupy"`.
    backend = property(lambda self: self.name, doc="The active backend's name (read-only).")
    xp = property(lambda self: self.module, doc="The active array module (read-only).")

    def add_listener(self, callback):
        """Calls callback(module) after every backend switch."""
        self._listeners.append(callback)

    def switch(self, name, module):
        self.name, self.module = name, module
        for cb in self._listeners:
            cb(module)


array_backend = ArrayBackend()
_cupy_status = None  # (available, reason), computed once per process


MIN_CUPY_VERSION = "14.0.0"


def cupy_available():
    """True when CuPy imports and sees a usable GPU (checked once per process); a CuPy older than
    MIN_CUPY_VERSION warns then."""
    global _cupy_status
    if _cupy_status is None:
        try:
            import cupy

            ok = bool(cupy.is_available())
            _cupy_status = (ok, None if ok else "cupy.is_available() returned False")
        except Exception as exc:  # noqa: BLE001 - any failure means "not usable"
            _cupy_status = (False, f"{type(exc).__name__}: {exc}")
        else:
            _warn_if_old(getattr(cupy, "__version__", None))
    return _cupy_status[0]


def _version_tuple(version):
    """(major, minor, micro) of a version string, missing parts 0 ("14.0" is "14.0.0"); None when
    it has no number."""
    import re

    parts = [int(p) for p in re.findall(r"\d+", str(version).split("+")[0])[:3]]
    return tuple(parts + [0] * (3 - len(parts))) if parts else None


def _warn_if_old(version):
    have = None if version is None else _version_tuple(version)
    if have is not None and have < _version_tuple(MIN_CUPY_VERSION):
        import warnings

        warnings.warn(
            f"CuPy {version} is older than {MIN_CUPY_VERSION}, the oldest gpupy.cunumpy supports",
            UserWarning,
            stacklevel=3,
        )


def _gpupy_module():
    import gpupy

    return gpupy


def _module_for(name, strict):
    if name == "numpy":
        return numpy
    if name == "gpupy":
        return _gpupy_module()
    if cupy_available():
        import cupy

        return cupy
    if strict:
        raise RuntimeError(f"Cannot select the CuPy backend: {_cupy_status[1]}")
    return None


def set_backend(name, *, strict=False):
    """Selects the array backend: "numpy", "gpupy" or "cupy". A GPU backend that is not usable
    falls back to NumPy, or raises RuntimeError with strict=True. Arrays are never moved."""
    if name not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(map(repr, BACKENDS))}, got {name!r}")
    module = _module_for(name, strict)
    if module is None:
        name, module = "numpy", numpy
    if module is not array_backend.module:
        array_backend.switch(name, module)
    array_backend.name = name


@contextlib.contextmanager
def use_backend(name, *, strict=False):
    """Selects a backend inside a with block and restores the previous one on exit."""
    prev = (array_backend.name, array_backend.module)
    set_backend(name, strict=strict)
    try:
        yield array_backend.module
    finally:
        if array_backend.module is not prev[1]:
            array_backend.switch(*prev)
        array_backend.name = prev[0]


def get_backend():
    """The effective backend: "numpy", "gpupy" or "cupy"."""
    return array_backend.name


def init_from_environment():
    """Reads CUNUMPY_BACKEND once, at import."""
    name = os.environ.get("CUNUMPY_BACKEND", "numpy").strip().lower()
    set_backend(name if name in BACKENDS else "numpy")


def _is_gpupy(a):
    import gpupy

    return isinstance(a, gpupy.ndarray)


def _is_cupy(a):
    cp = _loaded_cupy()
    return cp is not None and isinstance(a, cp.ndarray)


def _loaded_cupy():
    import sys

    return sys.modules.get("cupy")


def get_array_backend(a):
    """ "gpupy", "cupy" or "numpy": the backend an array belongs to."""
    if _is_gpupy(a):
        return "gpupy"
    return "cupy" if _is_cupy(a) else "numpy"


def get_array_module(*arrays):
    """gpupy or cupy when any argument is one of their arrays, else numpy."""
    for a in arrays:
        if _is_gpupy(a):
            return _gpupy_module()
        if _is_cupy(a):
            return _loaded_cupy()
    return numpy


def _backend_label(a):
    """The backend of an array for same_backend: "numpy", "cupy", or "gpupy (<device>)"."""
    name = get_array_backend(a)
    return f"gpupy ({a.device})" if name == "gpupy" else name


def same_backend(*arrays):
    """True when all arrays belong to one backend (gpupy arrays: and to one device)."""
    return len({_backend_label(a) for a in arrays}) <= 1


def assert_same_backend(*arrays):
    """TypeError naming the backends when the arrays do not all belong to one backend."""
    labels = [_backend_label(a) for a in arrays]
    if len(set(labels)) > 1:
        listed = ", ".join(f"argument {i}: {b}" for i, b in enumerate(labels))
        raise TypeError(f"arrays from different backends ({listed})")


def is_gpu(a):
    """True for arrays in device memory (gpupy arrays on cuda or emu, CuPy arrays, any object
    with __cuda_array_interface__)."""
    if _is_gpupy(a):
        return str(a.device) != "cpu"
    return hasattr(type(a), "__cuda_array_interface__")


def is_cpu(a):
    """True for arrays whose memory the host reads directly."""
    return not is_gpu(a)


def _describe(func, a):
    """`func(shape=(3,), dtype=float64)` for arrays, `func(list)` for anything else."""
    if hasattr(a, "shape") and hasattr(a, "dtype"):
        return f"{func}(shape={tuple(a.shape)}, dtype={numpy.dtype(a.dtype).name})"
    return f"{func}({type(a).__name__})"


def _record(kind, func, a, out):
    if profiling._active:
        profiling.record(kind, _describe(func, a), getattr(out, "nbytes", None))


def to_numpy(a):
    """A NumPy array: device arrays are copied to the host, anything else goes through asarray."""
    if _is_gpupy(a):
        out = _gpupy_module().asnumpy(a, order="A")  # as CuPy's: F-contiguous stays F
    elif _is_cupy(a):
        out = a.get(order="A")
    else:
        return numpy.asarray(a)
    if is_gpu(a):
        _record("to_host", "to_numpy", a, out)
    return out


def _device_name(device):
    return str(device if device is not None else _gpupy_module()._core.default_device())


def to_gpupy(a, device=None):
    """A gpupy array on `device` (default: the default device); gpupy arrays there are kept."""
    out = _gpupy_module().asarray(a, device=device)
    if profiling._active and is_gpu(out):
        if not _is_gpupy(a) and not hasattr(type(a), "__cuda_array_interface__"):
            _record("to_device", "to_gpupy", a, out)
        elif _is_gpupy(a) and str(a.device) != str(out.device):
            _record("device_copy" if is_gpu(a) else "to_device", "to_gpupy", a, out)
    return out


def to_cupy(a):
    """A CuPy array; ImportError when CuPy is not usable."""
    if not cupy_available():
        raise ImportError(f"CuPy is not usable: {_cupy_status[1]}")
    import cupy

    out = cupy.asarray(a)
    if not is_gpu(a):
        _record("to_device", "to_cupy", a, out)
    return out


def to_cunumpy(a):
    """The array in the active backend."""
    name = array_backend.name
    if name == "gpupy":
        return to_gpupy(a)
    return to_cupy(a) if name == "cupy" else to_numpy(a)


def as_device_array(value, dtype=None, ndim=None, *, name=None):
    """The value as a C-contiguous device array of dtype: the same object when it already is one,
    else one copy. RuntimeError on the NumPy backend (host data is never silently uploaded)."""
    backend = array_backend.name
    if backend == "numpy":
        raise RuntimeError("as_device_array needs a GPU backend; the active backend is numpy")
    xp = array_backend.module
    label = f"{name} " if name else ""
    if backend == "gpupy" and _is_gpupy(value):
        ok = (dtype is None or value.dtype == numpy.dtype(dtype)) and value.flags.c_contiguous
        out = value if ok and is_gpu(value) else None
    else:
        out = None
    if out is None:
        source = value
        if backend == "gpupy" and not _is_gpupy(value) and not isinstance(value, numpy.ndarray):
            value = numpy.asarray(value, dtype=dtype)
        out = xp.ascontiguousarray(xp.asarray(value, dtype=dtype))
        if is_gpu(out):
            kind = "device_copy" if is_gpu(source) else "to_device"
            _record(kind, "as_device_array", source, out)
    if ndim is not None and out.ndim != ndim:
        raise ValueError(f"{label}must have {ndim} dimensions, got {out.ndim}".strip())
    return out


def synchronize():
    """Waits for the active GPU backend's queued work."""
    if array_backend.name != "numpy" and profiling._active:
        profiling.record("sync", "synchronize()")
    if array_backend.name == "gpupy":
        _gpupy_module().synchronize()
    elif array_backend.name == "cupy":
        _loaded_cupy().cuda.Device().synchronize()
