"""Whether gpupy was built with CUDA and whether a CUDA device can be used now."""

from gpupy import _core
from gpupy._core import CudaError  # noqa: F401


def is_built():
    """True when this gpupy was compiled with CUDA support."""
    return _core.cuda_is_built()


def is_available():
    """True when a CUDA device can be used (built with CUDA, driver present, a GPU visible)."""
    return _core.cuda_is_available()[0]


def unavailable_reason():
    """Why CUDA cannot be used, or None when it can."""
    ok, reason = _core.cuda_is_available()
    return None if ok else reason


def device_count():
    """Number of usable CUDA devices (0 when CUDA is unavailable)."""
    return _core.cuda_device_count() if is_available() else 0


__all__ = ["CudaError", "device_count", "is_available", "is_built", "unavailable_reason"]
