"""The cuda device: availability, streams and events, device properties and settings.

Everything here imports on machines without CUDA; functions that need a GPU raise
``gpupy.cuda.CudaError`` (a RuntimeError) saying why CUDA is unavailable.
"""

from gpupy import _core
from gpupy._core import CudaError, Event, Stream, current_stream  # noqa: F401


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


def driver_version():
    """The CUDA driver's version as 1000 * major + 10 * minor (13000 for CUDA 13.0), or None when
    no driver can be loaded.

    Read once from libcuda, which is loaded on this first call (gpupy never links it); it needs
    no GPU. ``gpupy._core.cuda_driver_version()[1]`` says why there is none.
    """
    return _core.cuda_driver_version()[0]


def runtime_version():
    """The CUDA runtime version gpupy was built with (1000 * major + 10 * minor), or None in a
    build without CUDA."""
    return _core.cuda_runtime_version()


def memory_info(device=None):
    """(free, total) bytes of a cuda device's memory as the driver counts them, for all processes
    (gpupy's pool holds some of the used part: see ``gpupy.memory_stats``)."""
    return _core.cuda_memory_info(device)


def pinned_empty(shape, dtype=float):
    """An uninitialised NumPy array in page-locked (pinned) host memory, which copies to and from
    cuda devices read and write directly, asynchronously. Needs a usable CUDA device."""
    import math

    import numpy

    from gpupy._utilities import host_shape, named_errors

    with named_errors("pinned_empty"):
        dtype = numpy.dtype(dtype)
    if dtype.hasobject:
        raise TypeError("[pinned_empty] object arrays cannot live in pinned memory")
    shape = host_shape("pinned_empty", shape, dtype)
    nbytes = math.prod(shape) * dtype.itemsize
    return _core.cuda_pinned_empty(nbytes).view(dtype).reshape(shape)


def get_device_properties(device=0):
    """Name, compute capability, memory and limits of CUDA device `device` as a dict."""
    return _core.cuda_device_properties(device)


def allow_tf32(allow=None):
    """Whether float32 matmul may use TF32 tensor cores (off by default: strict FP32).

    With an argument, sets it and returns the previous setting.
    """
    previous = _core.cuda_allow_tf32()
    if allow is not None:
        _core.cuda_set_allow_tf32(bool(allow))
    return previous


def set_memory_limit(nbytes, device=None):
    """Caps the bytes gpupy's memory pool may hold on a cuda device (0: no limit)."""
    _core.cuda_set_memory_limit(device, nbytes)


def record_stream(array, stream):
    """Keeps `array`'s memory from reuse, once the array is freed, until the work queued so far
    on `stream` is done.

    gpupy does this by itself for its own work on any stream (``with gpupy.cuda.Stream():``) and
    for DLPack exports to a consumer stream. Call it when other code uses the memory on a stream
    of its own, e.g. another library's kernels reading it through ``__cuda_array_interface__``.
    `stream` is a ``gpupy.cuda.Stream`` or a cudaStream_t as an int (0 or 1: the legacy default
    stream, 2: the per-thread one). Arrays on cpu and emu need nothing (their memory is never
    reused while queued work uses it): a no-op there.
    """
    if not isinstance(array, _core.ndarray):
        raise TypeError(f"[record_stream] expected a gpupy.ndarray, got {type(array).__name__}")
    if isinstance(stream, Stream):
        if array.device.type == "cuda" and stream.device != array.device:
            raise ValueError(
                f"[record_stream] the stream is on {stream.device}, the array on {array.device}"
            )
        handle = stream.handle
    elif isinstance(stream, int) and not isinstance(stream, bool):
        if not 0 <= stream < 2**64:
            raise ValueError(f"[record_stream] {stream} is not a cudaStream_t value")
        handle = stream
    else:
        raise TypeError(
            "[record_stream] stream must be a gpupy.cuda.Stream or a cudaStream_t as an int, "
            f"got {type(stream).__name__}"
        )
    _core.cuda_record_stream(array, handle)


def synchronize(device=None):
    """Waits for all work queued on a cuda device."""
    _core.synchronize(device if device is not None else "cuda")


__all__ = [
    "CudaError",
    "Event",
    "Stream",
    "allow_tf32",
    "current_stream",
    "device_count",
    "driver_version",
    "get_device_properties",
    "is_available",
    "is_built",
    "memory_info",
    "pinned_empty",
    "record_stream",
    "runtime_version",
    "set_memory_limit",
    "synchronize",
    "unavailable_reason",
]
