"""The stream of a CudaKernel launch: a gpupy or a CuPy stream (or the current one), whether it
captures a CUDA graph, and waiting for it in debug mode."""

from gpupy import _core
from gpupy.cunumpy._backend import _loaded_cupy
from gpupy.cunumpy.cuda_devices import HostStream


def _stream(stream):
    """(device string, handle) of a gpupy stream, a CuPy one (device None when CuPy does not name
    it: the arrays decide) or a HostStream (emu's, which xp.cuda.create_stream() returns there);
    TypeError for anything else."""
    if isinstance(stream, _STREAM_TYPES):
        return str(stream.device), stream.handle
    if _is_cupy_stream(stream):
        device_id = getattr(stream, "device_id", -1)  # -1: CuPy's null and per-thread streams
        return (f"cuda:{device_id}" if device_id >= 0 else None), stream.ptr
    if isinstance(stream, HostStream):
        return "emu", None
    raise TypeError(
        "[CudaKernel] stream must be a gpupy.cuda.Stream, a CuPy stream, a HostStream (emu) or "
        f"None, got {type(stream).__name__}"
    )


_STREAM_TYPES = (_core.Stream,)


def _is_cupy_stream(stream):
    """True for cupy.cuda.Stream and ExternalStream objects (CuPy is never imported here)."""
    cuda = getattr(_loaded_cupy(), "cuda", None)
    kinds = tuple(
        k for k in (getattr(cuda, "Stream", None), getattr(cuda, "ExternalStream", None)) if k
    )
    return bool(kinds) and isinstance(stream, kinds)


def _launch_stream(device, stream):
    """The stream a launch on device went to: `stream`, else the current stream (None on emu,
    whose launches run when issued)."""
    if stream is not None or device == "emu":
        return stream
    return _core.current_stream(int(device.partition(":")[2] or 0))


def _capturing(device, stream):
    """Whether the launch stream captures a CUDA graph (spec 2.4 step 7): then the launch was
    recorded, not run, and a sync or a host read would fail and invalidate the capture."""
    stream = _launch_stream(device, stream)
    return stream is not None and bool(stream.is_capturing())


def _synchronize(device, stream):
    """Waits for the launch (emu launches on no stream are synchronous already)."""
    stream = _launch_stream(device, stream)
    if stream is not None:
        stream.synchronize()
