"""`xp.mpi`: MPI with host or device buffers. get_mpi() gives mpi4py.MPI under an MPI launcher
and a size-1 stand-in otherwise; mpi_buffer() hands MPI a device array directly when MPI is
CUDA-aware, or stages it through a reused host buffer when not; synchronize_for_mpi() makes
queued device work finish first (MPI knows nothing of streams). mpi4py is imported only when an
MPI run asks for it, never by `import gpupy.cunumpy`."""

import contextlib
import logging
import sys

import numpy

from gpupy._utilities import host_shape, named_errors
from gpupy.cunumpy import profiling
from gpupy.cunumpy._backend import _is_cupy, _is_gpupy, array_backend, is_gpu, to_numpy
from gpupy.cunumpy._mpi_serial import (
    OVERRIDE_VARIABLE,
    SerialCartComm,
    SerialComm,
    SerialMPI,
    SerialRequest,
    get_mpi,
    is_serial,
    launched_under_mpi,
    local_rank,
)
from gpupy.cunumpy.cuda_devices import check_producer

__all__ = [
    "MPIStaging",
    "OVERRIDE_VARIABLE",
    "SerialCartComm",
    "SerialComm",
    "SerialMPI",
    "SerialRequest",
    "get_mpi",
    "get_mpi_cuda_aware",
    "is_serial",
    "launched_under_mpi",
    "local_rank",
    "mpi_buffer",
    "mpi_is_cuda_aware",
    "require_cuda_aware_mpi",
    "set_mpi_cuda_aware",
    "synchronize_for_mpi",
]

_logger = logging.getLogger(__name__)


def _device_key(a):
    """The device an array lives on, as a hashable key: ("gpupy", "emu"), ("cupy", 0)."""
    if _is_gpupy(a):
        return ("gpupy", str(a.device))
    if _is_cupy(a):
        return ("cupy", a.device.id)
    return ("cai", None)


def synchronize_for_mpi(*arrays, stream=None, event=None):
    """Waits for queued device work before MPI reads or writes `arrays`: only for the producer
    `stream` or `event` when one is given, else for every device the arrays live on. Host arrays
    and None entries cost nothing; after MPI returns no wait is needed."""
    check_producer("synchronize_for_mpi", stream, event)
    devices = {_device_key(a) for a in arrays if a is not None and is_gpu(a)}
    if not devices:
        return
    if profiling._active:
        profiling.record("sync", f"synchronize_for_mpi({len(devices)} device(s))")
    if event is not None or stream is not None:
        (event if event is not None else stream).synchronize()
        return
    for kind, device in devices:
        if kind == "gpupy":
            import gpupy

            gpupy.synchronize(device)
        elif kind == "cupy":
            sys.modules["cupy"].cuda.Device(device).synchronize()
        else:  # another library's __cuda_array_interface__ object: its stream is unknown
            import gpupy

            gpupy.cuda.synchronize()


_cuda_aware = None  # the last probe's answer, or set_mpi_cuda_aware's; None: not known


def set_mpi_cuda_aware(value):
    """Tells mpi_buffer whether MPI takes device buffers (True/False), or forgets it (None);
    mpi_is_cuda_aware() records its answer itself."""
    global _cuda_aware
    if value is not None and not isinstance(value, (bool, numpy.bool_)):
        raise TypeError(f"[set_mpi_cuda_aware] expected True, False or None, got {value!r}")
    _cuda_aware = None if value is None else bool(value)


def get_mpi_cuda_aware():
    """The recorded answer (True/False), or None when nothing was recorded."""
    return _cuda_aware


def _device_buffers_in_use():
    """Whether this process's arrays live in device memory (a gpupy backend on a device other
    than cpu, or a usable CuPy)."""
    if array_backend.name == "gpupy":
        import gpupy

        return str(gpupy._core.default_device()) != "cpu"
    if array_backend.name == "cupy":
        from gpupy.cunumpy._backend import cupy_available

        return cupy_available()
    return False


def _mpi_of(comm):
    """The module whose constants go with `comm`: the stand-in for a SerialComm, else mpi4py."""
    if isinstance(comm, SerialComm):
        return get_mpi(False)
    mpi = sys.modules.get("mpi4py.MPI")
    return mpi if mpi is not None else get_mpi(True)


def mpi_is_cuda_aware(comm=None):
    """Whether MPI sends and receives device arrays correctly: every rank sends a small device
    array to the next and checks what arrives from the previous (Sendrecv), then the ranks agree
    (allreduce LAND). Collective: every rank of `comm` (default get_mpi().COMM_WORLD) calls it.
    The answer is recorded for mpi_buffer. False, without touching MPI, when arrays live on the
    host (numpy backend, gpupy on cpu). A non-CUDA-aware MPI may also crash inside the probe."""
    if not _device_buffers_in_use():
        return False
    mpi = get_mpi() if comm is None else _mpi_of(comm)
    comm = mpi.COMM_WORLD if comm is None else comm
    rank, size = comm.Get_rank(), comm.Get_size()
    source = (rank - 1) % size
    xp = array_backend.module
    try:
        send = xp.arange(4, dtype=xp.float64) + rank
        recv = xp.zeros(4, dtype=xp.float64)
        synchronize_for_mpi(send, recv)
        comm.Sendrecv(send, (rank + 1) % size, recvbuf=recv, source=source)
        ok = bool(numpy.array_equal(to_numpy(recv), numpy.arange(4.0) + source))
    except Exception as exc:  # noqa: BLE001 - any failure means "not CUDA-aware"
        _logger.debug("CUDA-aware MPI probe failed on rank %d: %r", rank, exc)
        ok = False
    result = bool(comm.allreduce(ok, op=mpi.LAND))
    set_mpi_cuda_aware(result)
    return result


def require_cuda_aware_mpi(comm=None):
    """RuntimeError with what to do when device arrays cannot go to MPI; returns quietly when
    they can, or when arrays live on the host. Collective, like mpi_is_cuda_aware."""
    if not _device_buffers_in_use() or mpi_is_cuda_aware(comm):
        return
    raise RuntimeError(
        "[require_cuda_aware_mpi] the MPI library cannot send or receive device arrays: it is not "
        "CUDA-aware. Use a CUDA-aware build (Open MPI or MPICH with CUDA/UCX support; on "
        "clusters the site's CUDA-aware MPI module, with mpi4py rebuilt against it), or stage "
        "through the host with xp.mpi.mpi_buffer(array) after xp.mpi.set_mpi_cuda_aware(False)"
    )


class MPIStaging:
    """Reusable host storage for exchanging a device array through a non-CUDA-aware MPI: one per
    buffer, fixed shape and dtype, allocated on first use, bound to the first array's device,
    used by one mpi_buffer block at a time. Non-blocking requests must be waited inside the
    block. The storage is a NumPy array; gpupy's own copies into and out of it go through its
    pinned staging ring."""

    def __init__(self, shape, dtype):
        with named_errors("MPIStaging"):
            self._dtype = numpy.dtype(dtype)
        if self._dtype.hasobject:
            raise TypeError("[MPIStaging] object arrays cannot be staged for MPI")
        self._shape = host_shape("MPIStaging", shape, self._dtype)
        self._host = None
        self._device = None
        self._busy = False

    shape = property(lambda s: s._shape)
    dtype = property(lambda s: s._dtype)
    host = property(lambda s: s._host, doc="The host buffer, None until first used.")

    def __repr__(self):
        return f"MPIStaging(shape={self._shape}, dtype={self._dtype})"

    def buffer(self, array, **kwargs):
        """mpi_buffer(array, staging=self, **kwargs)."""
        return mpi_buffer(array, staging=self, **kwargs)

    @contextlib.contextmanager
    def _lease(self, array):
        if self._busy:
            raise RuntimeError("[mpi_buffer] the MPIStaging buffer is already in use")
        if tuple(array.shape) != self._shape or numpy.dtype(array.dtype) != self._dtype:
            raise ValueError(
                f"[mpi_buffer] the staging buffer is {self._shape} {self._dtype}, the array "
                f"{tuple(array.shape)} {numpy.dtype(array.dtype)}"
            )
        device = _device_key(array)
        if self._device is not None and device != self._device:
            raise ValueError(
                f"[mpi_buffer] the staging buffer is bound to device {self._device[1]}, the "
                f"array is on {device[1]}"
            )
        self._device = device
        if self._host is None:
            self._host = numpy.empty(self._shape, self._dtype)
        self._busy = True
        try:
            yield self._host
        finally:
            self._busy = False


def _describe(a):
    return f"shape={tuple(a.shape)}, dtype={numpy.dtype(a.dtype).name}"


def _copy_down(array, host):
    if _is_gpupy(array):
        import gpupy

        gpupy.asnumpy(array, out=host)
    else:
        host[...] = array.get()
    if profiling._active:
        desc = f"mpi_buffer({_describe(array)}) staged for send"
        profiling.record("to_host", desc, host.nbytes)


def _copy_up(array, host):
    if _is_gpupy(array):
        array[...] = host
    else:
        array.set(host)
    if profiling._active:
        desc = f"mpi_buffer({_describe(array)}) received into the device array"
        profiling.record("to_device", desc, host.nbytes)
    synchronize_for_mpi(array)  # the host buffer may be reused as soon as the block ends


@contextlib.contextmanager
def mpi_buffer(
    array, send=True, recv=False, cuda_aware=None, staging=None, stream=None, event=None
):
    """The buffer to give MPI for `array`, one call site for every backend and MPI build:

        with xp.mpi.mpi_buffer(out) as sbuf, xp.mpi.mpi_buffer(inn, send=False, recv=True) as rbuf:
            comm.Sendrecv(sbuf, dest, recvbuf=rbuf, source=source)

    Host arrays are yielded unchanged. A device array is yielded itself, after its device work
    finished (synchronize_for_mpi), when MPI is CUDA-aware; else a host copy (`staging` or a new
    MPIStaging): copied down first when `send`, copied back into the array at the end when
    `recv` (not when the block raised). Both copies are counted. `cuda_aware=None` uses the
    recorded answer: RuntimeError for a device array when nothing is recorded."""
    check_producer("mpi_buffer", stream, event)
    if not is_gpu(array):
        yield array
        return
    if cuda_aware is None:
        cuda_aware = _cuda_aware
    if cuda_aware is None:
        raise RuntimeError(
            "[mpi_buffer] it is not known whether MPI takes device arrays: call "
            "xp.mpi.mpi_is_cuda_aware(comm) once at start-up (on every rank), or "
            "xp.mpi.set_mpi_cuda_aware(True/False), or pass cuda_aware="
        )
    if cuda_aware:
        if _is_gpupy(array) and not array.flags.c_contiguous:
            raise ValueError(
                f"[mpi_buffer] MPI reads a device array as one flat block; this one "
                f"({_describe(array)}) is not C-contiguous: pass ascontiguousarray(a)"
            )
        synchronize_for_mpi(array, stream=stream, event=event)
        yield array
        return
    if staging is None:
        staging = MPIStaging(tuple(array.shape), array.dtype)
    elif not isinstance(staging, MPIStaging):
        raise TypeError(f"[mpi_buffer] staging must be an MPIStaging, got {type(staging).__name__}")
    with staging._lease(array) as host:
        synchronize_for_mpi(array, stream=stream, event=event)
        if send:
            _copy_down(array, host)
        yield host
        if recv:
            _copy_up(array, host)
