"""`xp.cuda` device helpers: device selection (per MPI rank too), device memory, streams and
events. On a CUDA backend (gpupy on a cuda device, or CuPy) they act on the current CUDA device;
elsewhere work runs on the host, in order, so streams and events are the HostStream/HostEvent
stand-ins and code written for the GPU runs unchanged."""

import contextlib
import time

import numpy

from gpupy.cunumpy._backend import array_backend
from gpupy.cunumpy._mpi_serial import local_rank

# Dynamic shared memory per block every CUDA device grants without opting in.
DEFAULT_SHARED_MEMORY_PER_BLOCK = 48 * 1024


class HostEvent:
    """An event of host execution: recording it marks a point the host has already reached, so
    it is always done; elapsed_time() measures host wall time between two recorded events."""

    def __init__(self):
        self._time = None

    def record(self, stream=None):
        _check_host_stream("HostEvent.record", stream)
        self._time = time.perf_counter()
        return self

    done = property(lambda self: True)

    def query(self):
        return True

    def synchronize(self):
        return None

    def elapsed_time(self, end):
        """Milliseconds from this event to `end` (both recorded)."""
        if not isinstance(end, HostEvent):
            raise TypeError(f"[elapsed_time] end must be a HostEvent, got {type(end).__name__}")
        if self._time is None or end._time is None:
            raise RuntimeError("[elapsed_time] both events must be recorded first")
        return (end._time - self._time) * 1e3

    def __repr__(self):
        return f"<HostEvent {'recorded' if self._time is not None else 'not recorded'}>"


class HostStream:
    """A stream of host execution: work is done when it is issued, so the stream is always idle;
    waiting on a CUDA event blocks the host until the event completes."""

    ptr = 0
    done = property(lambda self: True)

    def query(self):
        return True

    def synchronize(self):
        return None

    def is_capturing(self):
        """False: host work cannot be captured into a CUDA graph."""
        return False

    def record(self, event=None):
        event = HostEvent() if event is None else event
        if not isinstance(event, HostEvent):
            raise TypeError(f"[record_event] a HostStream records HostEvents, got {_name(event)}")
        return event.record(self)

    def wait_event(self, event):
        _wait_on_host("wait_event", event)

    wait = wait_event

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __repr__(self):
        return "<HostStream>"


def _name(obj):
    return type(obj).__name__


def _check_host_stream(op, stream):
    if stream is not None and not isinstance(stream, HostStream):
        raise TypeError(f"[{op}] host events are recorded on HostStreams, got {_name(stream)}")


def _wait_on_host(op, event):
    """The host waits for `event`: a HostEvent is done already, a CUDA event is synchronized."""
    if isinstance(event, HostEvent):
        return
    if not callable(getattr(event, "synchronize", None)):
        raise TypeError(f"[{op}] expected an event, got {_name(event)}")
    event.synchronize()


def check_producer(op, stream, event):
    """The producer arguments of a copy or an MPI call: at most one of `stream` and `event`, each
    None or an object with synchronize() (a gpupy or CuPy stream or event, or their host
    stand-ins); ValueError / TypeError naming `op`."""
    if stream is not None and event is not None:
        raise ValueError(f"[{op}] pass stream or event, not both")
    for obj, what in ((stream, "stream"), (event, "event")):
        if obj is not None and not callable(getattr(obj, "synchronize", None)):
            raise TypeError(
                f"[{op}] {what} must be a stream or an event (an object with synchronize()), "
                f"got {_name(obj)}"
            )


def _cuda_target():
    """("gpupy", cuda index) or ("cupy", None) when work runs on a CUDA device, else None."""
    if array_backend.name == "gpupy":
        import gpupy

        device = gpupy._core.default_device()
        return ("gpupy", device.index) if device.type == "cuda" else None
    if array_backend.name == "cupy":
        return ("cupy", None)
    return None


def _cupy():
    import cupy

    return cupy


def _index(op, value, name):
    if isinstance(value, bool) or not isinstance(value, (int, numpy.integer)):
        raise TypeError(f"[{op}] {name} must be an int, got {_name(value)}")
    if value < 0:
        raise ValueError(f"[{op}] {name} must be non-negative, got {value}")
    return int(value)


def device_count():
    """Number of visible CUDA devices, whatever the backend (0 without CUDA)."""
    import gpupy

    try:
        return gpupy.cuda.device_count()
    except Exception:  # noqa: BLE001 - a broken driver means no device
        return 0


def set_device(device_id):
    """Makes CUDA device `device_id` current for this process (on gpupy: the default device;
    inside a `with gpupy.Device(...)` block that block's device stays in force); a no-op where
    work runs on the host (NumPy, gpupy on cpu or emu)."""
    device_id = _index("set_device", device_id, "device_id")
    target = _cuda_target()
    if target is None:
        return
    count = device_count()
    if device_id >= count:
        raise ValueError(
            f"[set_device] device {device_id} out of range; {count} device(s) are visible"
        )
    if target[0] == "gpupy":
        import gpupy

        gpupy.set_default_device(f"cuda:{device_id}")
    else:
        _cupy().cuda.Device(device_id).use()


def set_device_for_rank(rank, devices_per_node=None):
    """Selects device rank % devices_per_node (default: device_count()) and returns it; 0 and no
    change without visible devices. For ranks numbered node by node; else use set_device."""
    rank = _index("set_device_for_rank", rank, "rank")
    if devices_per_node is None:
        n = device_count()
    else:
        n = _index("set_device_for_rank", devices_per_node, "devices_per_node")
        if n == 0:
            raise ValueError("[set_device_for_rank] devices_per_node must be at least 1")
    if n == 0:
        return 0
    set_device(rank % n)
    return rank % n


def bind_local_device():
    """Binds this process to device xp.mpi.local_rank() % device_count() and creates its CUDA
    context now. Call it before MPI_Init (before importing mpi4py.MPI) so that CUDA-aware MPI sees
    the right device; without it every rank of a node shares device 0. Returns the device index, or
    None where work does not run on a CUDA device (or none is visible)."""
    target = _cuda_target()
    count = device_count()
    if target is None or count == 0:
        return None
    index = local_rank() % count
    set_device(index)
    if target[0] == "gpupy":
        import gpupy

        gpupy.synchronize(f"cuda:{index}")  # creates the context
    else:
        _cupy().cuda.Stream.null.synchronize()
    return index


def memory_info():
    """(free, total) bytes of the current CUDA device's memory (all processes, not only the
    pool's); None where work runs on the host."""
    target = _cuda_target()
    if target is None:
        return None
    if target[0] == "gpupy":
        import gpupy

        return gpupy.cuda.memory_info(target[1])
    return _cupy().cuda.runtime.memGetInfo()


def free_memory():
    """Returns the blocks the memory pool caches but no array uses (arrays keep theirs). A pool
    that holds memory after arrays are freed is caching it, not leaking it."""
    if array_backend.name == "gpupy":
        import gpupy

        gpupy.free_all_blocks(gpupy._core.default_device())
    elif array_backend.name == "cupy":
        cp = _cupy()
        cp.get_default_memory_pool().free_all_blocks()
        cp.get_default_pinned_memory_pool().free_all_blocks()


def pin_memory(array):
    """A copy of host array `array` in page-locked memory, which CUDA copies read and write
    directly and asynchronously. Where no CUDA device is used, an ordinary NumPy copy (there is
    nothing to pin for)."""
    if _is_device(array):  # gpupy arrays on the cpu are host arrays
        raise TypeError(
            f"[pin_memory] expected a host array, got a device array ({_name(array)}); "
            "copy it with xp.to_numpy first"
        )
    host = numpy.asarray(array)
    if host.dtype.hasobject:
        raise TypeError("[pin_memory] object arrays cannot live in pinned memory")
    target = _cuda_target()
    if target is None:
        return host.copy()
    if target[0] == "gpupy":
        import gpupy

        pinned = gpupy.cuda.pinned_empty(host.shape, host.dtype)
    else:
        import cupyx

        pinned = cupyx.empty_pinned(host.shape, dtype=host.dtype)
    pinned[...] = host
    return pinned


def _is_device(a):
    from gpupy.cunumpy._backend import is_gpu

    return is_gpu(a)


def create_stream(non_blocking=True):
    """A new CUDA stream of the current device; a HostStream where work runs on the host."""
    target = _cuda_target()
    if target is None:
        return HostStream()
    if target[0] == "gpupy":
        import gpupy

        return gpupy.cuda.Stream(device=target[1], non_blocking=non_blocking)
    return _cupy().cuda.Stream(non_blocking=non_blocking)


def create_event(timing=True):
    """A new CUDA event (for ordering streams; `timing` enables elapsed_time); a HostEvent
    where work runs on the host."""
    target = _cuda_target()
    if target is None:
        return HostEvent()
    if target[0] == "gpupy":
        import gpupy

        return gpupy.cuda.Event(timing=timing)
    return _cupy().cuda.Event(disable_timing=not timing)


def _current_stream(target):
    if target[0] == "gpupy":
        import gpupy

        return gpupy.cuda.current_stream(target[1])
    return _cupy().cuda.get_current_stream()


def _check_cuda_pair(op, event, stream):
    for obj, what in ((event, "event"), (stream, "stream")):
        if isinstance(obj, (HostEvent, HostStream)):
            raise TypeError(
                f"[{op}] a {_name(obj)} cannot order work on a CUDA device; create the {what} "
                "with xp.cuda.create_" + what + "() on this backend"
            )


def record_event(event=None, stream=None):
    """Records `event` (a new one when None) after the work queued so far on `stream` (the
    current stream when None) and returns it."""
    target = _cuda_target()
    if target is None:
        _check_host_stream("record_event", stream)
        return (stream or HostStream()).record(event)
    _check_cuda_pair("record_event", event, stream)
    stream = _current_stream(target) if stream is None else stream
    event = create_event() if event is None else event
    event.record(stream)
    return event


def wait_event(event, stream=None):
    """Makes work queued later on `stream` (the current stream when None) wait for `event`;
    where work runs on the host, the host waits for it."""
    target = _cuda_target()
    if target is None:
        _check_host_stream("wait_event", stream)
        _wait_on_host("wait_event", event)
        return
    _check_cuda_pair("wait_event", event, stream)
    stream = _current_stream(target) if stream is None else stream
    if target[0] == "gpupy":
        stream.wait(event)
    else:
        stream.wait_event(event)


@contextlib.contextmanager
def stream(existing=None):
    """Queues the block's work on `existing`, or on a new non-blocking stream, and yields it;
    synchronize it (or call xp.synchronize()) before reading results on the host. Where work runs
    on the host, yields `existing` (None by default) and changes nothing."""
    target = _cuda_target()
    if target is None:
        _check_host_stream("stream", existing)
        yield existing
        return
    _check_cuda_pair("stream", None, existing)
    s = create_stream() if existing is None else existing
    with s:
        yield s


def max_shared_memory_per_block(device=None, *, opt_in=False):
    """Bytes of shared memory one block may use on CUDA device `device` (the current one when
    None): the default limit, or with opt_in the larger one a kernel can opt in to. 48 KiB
    without a CUDA device, so code choosing a strategy by it runs anywhere; on the emu device,
    the limits emu enforces."""
    import gpupy
    from gpupy.cunumpy.cuda_kernel import EMU_LAUNCH_LIMITS, device_launch_limits

    key = "shared_mem_per_block_optin" if opt_in else "shared_mem_per_block"
    index = None if device is None else _index("max_shared_memory_per_block", device, "device")
    if array_backend.name == "cupy":
        cp = _cupy()
        attrs = (cp.cuda.Device() if index is None else cp.cuda.Device(index)).attributes
        name = "MaxSharedMemoryPerBlockOptin" if opt_in else "MaxSharedMemoryPerBlock"
        return int(attrs.get(name, DEFAULT_SHARED_MEMORY_PER_BLOCK))
    if index is None:
        current = gpupy._core.default_device() if array_backend.name == "gpupy" else None
        if current is not None and current.type == "emu":
            return EMU_LAUNCH_LIMITS[key]
        index = current.index if current is not None and current.type == "cuda" else 0
    count = device_count()
    if count == 0:
        return DEFAULT_SHARED_MEMORY_PER_BLOCK
    if index >= count:
        raise ValueError(
            f"[max_shared_memory_per_block] there is no CUDA device {index} ({count} visible)"
        )
    return int(device_launch_limits(f"cuda:{index}")[key])


def is_hip():
    """True when the backend runs on AMD GPUs through HIP (a ROCm build of CuPy); gpupy is
    CUDA-only."""
    if array_backend.name != "cupy":
        return False
    return bool(getattr(_cupy().cuda.runtime, "is_hip", False))


__all__ = [
    "DEFAULT_SHARED_MEMORY_PER_BLOCK",
    "HostEvent",
    "HostStream",
    "bind_local_device",
    "create_event",
    "create_stream",
    "device_count",
    "free_memory",
    "is_hip",
    "max_shared_memory_per_block",
    "memory_info",
    "pin_memory",
    "record_event",
    "set_device",
    "set_device_for_rank",
    "stream",
    "wait_event",
]
