"""Device-to-host copies that do not stall the device: `to_host_async` for a value the host
checks now and then (a residual norm, a particle count) and `HostStaging` for arrays written out
every few steps, through rotating buffers.

On a cuda device the copy is queued on a side stream into pinned memory after the work queued so
far, and the call returns at once; the pinned buffers are reused from call to call (allocating
pinned memory would synchronize the device), and result() hands out its own copy of the value.
Emu and CuPy arrays are copied when the call is made, and host arrays too (ready() is then True
at once), so the same code runs on every backend."""

import collections
import functools
import operator
import threading

import numpy

from gpupy._utilities import host_shape, named_errors
from gpupy.cunumpy import profiling
from gpupy.cunumpy._backend import _describe, _is_cupy, _is_gpupy, is_gpu
from gpupy.cunumpy.cuda_devices import _wait_on_host, check_producer

_side_streams = {}  # cuda index -> the stream to_host_async copies on


def _kind(a):
    """ "cuda" for gpupy arrays on a cuda device, "device" for other device arrays (emu, CuPy,
    __cuda_array_interface__ objects), "host" for everything else."""
    if _is_gpupy(a):
        return {"cuda": "cuda", "emu": "device"}.get(a.device.type, "host")
    return "device" if is_gpu(a) else "host"


def _host_value(a):
    """A device array's values on the host, copied now (blocking)."""
    if _is_gpupy(a):
        import gpupy

        return gpupy.asnumpy(a)
    if _is_cupy(a):
        return a.get()
    import gpupy  # another library's __cuda_array_interface__ array: viewed by gpupy, copied down

    return gpupy.asnumpy(gpupy.asarray(a))


def _copy_async(source, host, stream):
    """Queues source (C-contiguous, cuda) -> host (pinned, same bytes) on a gpupy stream."""
    import gpupy

    gpupy._core.cuda_copy_to_host_async(source, host.reshape(-1).view(numpy.uint8), stream)


def _record_sync(description):
    if profiling._active:
        profiling.record("sync", description)


class _PinnedBuffers:
    """The pinned buffers to_host_async copies into, reused: allocating or freeing page-locked
    memory synchronizes the device (CUDA's implicit synchronization), which a copy meant not to
    stall it cannot afford at every call. Keyed by (cuda index, bytes); a buffer handed back while
    its copy is still in flight is reused once that copy's event is done. Thread-safe."""

    KEEP = 8  # free buffers kept per key; more are released

    def __init__(self):
        self._lock = threading.Lock()
        self._free = {}  # (index, nbytes) -> [uint8 pinned arrays]
        self._pending = []  # (key, event, buffer) whose copy may still be in flight
        # Handed back without the lock: give() runs in HostCopy.__del__, which the garbage
        # collector may call inside take() on this very thread. deque.append is atomic.
        self._returned = collections.deque()

    def take(self, index, nbytes):
        """A pinned uint8 array of nbytes for cuda device `index`, reused when one is free."""
        with self._lock:
            self._reclaim()
            free = self._free.get((index, nbytes))
            if free:
                return free.pop()
        import gpupy

        return gpupy.cuda.pinned_empty(nbytes, numpy.uint8)

    def give(self, index, buffer, event=None):
        """Hands `buffer` back; with `event`, it is reused only after the event is done."""
        self._returned.append(((index, buffer.nbytes), event, buffer))

    def _reclaim(self):
        while self._returned:
            self._pending.append(self._returned.popleft())
        pending = []
        for key, event, buffer in self._pending:
            if event is not None and not event.query():
                pending.append((key, event, buffer))
                continue
            free = self._free.setdefault(key, [])
            if len(free) < self.KEEP:
                free.append(buffer)
        self._pending = pending


_pinned = _PinnedBuffers()


class HostCopy:
    """A device-to-host copy started by `to_host_async`: ready() never waits, result() does."""

    def __init__(self, host, event=None, source=None, release=None):
        self._host = host
        self._event = event
        self._source = source  # the device array is kept alive until the copy is done
        self._release = release  # release(event) hands a reused pinned buffer back

    def ready(self):
        """Whether the copy has finished (never waits)."""
        return self._event is None or self._event.query()

    def result(self):
        """The value on the host, after waiting for the copy if it is still running (counted as a
        `sync` by count_transfers): a NumPy scalar for a 0-d array, else a NumPy array."""
        if self._event is not None:
            if not self._event.query():
                _record_sync("to_host_async(...).result()")
                self._event.synchronize()
            self._event = self._source = None
        if self._release is not None:
            # the value leaves the pinned buffer, which later copies reuse
            self._host = self._host.copy()
            release, self._release = self._release, None
            release(None)
        return self._host[()] if self._host.ndim == 0 else self._host

    def __del__(self):
        release = getattr(self, "_release", None)
        if release is not None:
            self._release = None
            try:
                release(self._event)  # reused once the copy in flight is done
            except Exception:  # noqa: BLE001, S110 - at interpreter exit CUDA may be gone
                pass

    def __repr__(self):
        state = "ready" if self.ready() else "in flight"
        return f"<HostCopy shape={self._host.shape} dtype={self._host.dtype} {state}>"


def to_host_async(array):
    """Starts copying `array` (a device scalar or small array) to the host and returns a
    `HostCopy` at once, so the host can queue more work while the copy runs::

        pending = xp.to_host_async(residual)
        ...  # queue the next iteration
        if pending.ready() and pending.result() < tol:
            break

    The value is the array's after the work queued before the call (a device snapshot is taken on
    the current stream, so later work may overwrite the array). For large arrays copied again
    and again, HostStaging reuses its buffers. Host arrays are copied at once. count_transfers
    records a `to_host` event marked [async] for device arrays.
    """
    kind = _kind(array)
    if kind == "host":
        return HostCopy(numpy.array(array))
    if kind == "cuda":
        import gpupy

        index = array.device.index
        # A snapshot queued on the current stream: later work there cannot change the value.
        source = gpupy.array(array, copy=True, order="C")
        buffer = _pinned.take(index, source.nbytes)
        host = buffer.view(source.dtype).reshape(source.shape)
        release = functools.partial(_pinned.give, index, buffer)
        side = _side_streams.get(index)
        if side is None:
            side = _side_streams[index] = gpupy.cuda.Stream(device=index)
        side.wait(gpupy.cuda.current_stream(index).record())
        try:
            _copy_async(source, host, side)
        except BaseException:
            release(None)  # nothing was queued into the buffer
            raise
        copy = HostCopy(host, side.record(), source, release)
    else:
        copy = HostCopy(_host_value(array))
    if profiling._active:
        desc = _describe("to_host_async", array)
        profiling.record("to_host", desc, copy._host.nbytes, blocking=False)
    return copy


class _Slot:
    """One host buffer of a HostStaging (pinned for cuda copies), the device snapshot copied into
    it, the event its last copy recorded, and how often it was reused."""

    def __init__(self, host):
        self.host = host
        self.device = None
        self.event = None
        self.generation = 0


class StagedCopy:
    """A copy started by HostStaging.copy; valid until its buffer is reused."""

    def __init__(self, slot, generation):
        self._slot, self._generation = slot, generation

    def _check(self):
        if self._slot.generation != self._generation:
            raise RuntimeError(
                "[StagedCopy] this copy's host buffer was reused by a later HostStaging.copy; "
                "call result() before starting more copies than there are buffers, or keep "
                "result().copy()"
            )

    def ready(self):
        """Whether the copy has finished (never waits); RuntimeError once the buffer is reused."""
        self._check()
        return self._slot.event is None or self._slot.event.query()

    def result(self):
        """Waits for the copy and returns the host buffer itself (valid until reused, `buffers`
        copies later); RuntimeError once the buffer is reused."""
        self._check()
        event = self._slot.event
        if event is not None and not event.query():
            _record_sync("HostStaging result()")
            event.synchronize()
        return self._slot.host


class HostStaging:
    """Host buffers that arrays of one shape and dtype are copied to in the background::

        staging = xp.memory.HostStaging(rho.shape, rho.dtype)       # once
        for step in range(n_steps):
            advance(...)
            if step % every == 0:
                pending.append((step, staging.copy(rho)))           # returns at once
            while pending and pending[0][1].ready():
                s, copy = pending.pop(0)
                out[f"rho/{s}"] = copy.result()                     # a NumPy array

    On cuda, copy() snapshots the array on the device (on the producer stream, so later steps may
    overwrite it) and copies the snapshot to a pinned buffer on its own stream. Buffers are used
    in turn: with buffers=2 a third copy first waits for the first, so output never falls more
    than `buffers` copies behind, and a StagedCopy whose buffer was reused raises RuntimeError
    rather than returning another step's data. Other arrays are copied at once, into the same
    buffers. The buffers and snapshots belong to the first cuda device copied from.
    """

    def __init__(self, shape, dtype, buffers=2):
        buffers = operator.index(buffers)
        if buffers < 1:
            raise ValueError(f"[HostStaging] buffers must be at least 1, got {buffers}")
        with named_errors("HostStaging"):
            self._dtype = numpy.dtype(dtype)
        if self._dtype.hasobject:
            raise TypeError("[HostStaging] object arrays cannot be staged")
        self._shape = host_shape("HostStaging", shape, self._dtype)
        self._buffers = buffers
        self._slots = []
        self._pinned = False
        self._next = 0
        self._device = None  # the cuda index the snapshots live on
        self._stream = None  # the stream the copies to the host run on

    shape = property(lambda s: s._shape)
    dtype = property(lambda s: s._dtype)
    buffers = property(lambda s: s._buffers)

    def __repr__(self):
        return f"HostStaging(shape={self._shape}, dtype={self._dtype}, buffers={self._buffers})"

    def _slot(self, pinned):
        if not self._slots or (pinned and not self._pinned):
            # The first cuda copy replaces ordinary buffers by pinned ones; StagedCopy objects of
            # earlier copies keep their own buffers.
            import gpupy

            empty = gpupy.cuda.pinned_empty if pinned else numpy.empty
            self._slots = [_Slot(empty(self._shape, self._dtype)) for _ in range(self._buffers)]
            self._pinned, self._next = pinned, 0
        slot = self._slots[self._next]
        self._next = (self._next + 1) % self._buffers
        return slot

    def copy(self, array, *, stream=None, event=None):
        """Starts copying `array` (of the staging's shape and dtype) to the host; returns a
        StagedCopy at once. `stream`: the producer stream the snapshot is queued on (the current
        stream by default); `event`: a producer event the snapshot waits for. Give at most one.
        For arrays that are not on a cuda device the host waits for the producer, then copies."""
        check_producer("HostStaging.copy", stream, event)
        if not hasattr(array, "shape") or not hasattr(array, "dtype"):
            raise TypeError(f"[HostStaging.copy] expected an array, got {type(array).__name__}")
        if tuple(array.shape) != self._shape or numpy.dtype(array.dtype) != self._dtype:
            raise ValueError(
                f"[HostStaging.copy] the staging holds {self._shape} {self._dtype}, got an array "
                f"of shape {tuple(array.shape)} and dtype {numpy.dtype(array.dtype)}"
            )
        kind = _kind(array)
        if kind == "cuda":
            self._check_cuda(array, stream, event)
        elif event is not None:
            _wait_on_host("HostStaging.copy", event)
        elif stream is not None:
            stream.synchronize()
        slot = self._slot(pinned=kind == "cuda")
        if slot.event is not None:
            slot.event.synchronize()  # the copy that used this buffer last is done
        slot.generation += 1
        if kind == "cuda":
            self._queue(slot, array, stream, event)
        else:
            slot.event = None
            # numpy.asarray first: copyto with a gpupy source would dispatch to gpupy.copyto.
            slot.host[...] = _host_value(array) if kind == "device" else numpy.asarray(array)
        if kind != "host" and profiling._active:
            desc = f"HostStaging.copy(shape={self._shape}, dtype={self._dtype.name})"
            profiling.record("to_host", desc, slot.host.nbytes, blocking=False)
        return StagedCopy(slot, slot.generation)

    def _check_cuda(self, array, stream, event):
        import gpupy

        index = array.device.index
        for obj, kind in ((stream, gpupy.cuda.Stream), (event, gpupy.cuda.Event)):
            if obj is not None and not isinstance(obj, kind):
                raise TypeError(
                    f"[HostStaging.copy] a {type(obj).__name__} cannot order a copy from "
                    f"{array.device}; pass a gpupy.cuda.Stream or gpupy.cuda.Event"
                )
        if stream is not None and stream.device.index != index:
            raise ValueError(
                f"[HostStaging.copy] the producer stream is on {stream.device}, the array on "
                f"{array.device}"
            )
        if self._device is not None and self._device != index:
            raise ValueError(
                f"[HostStaging.copy] this staging copies from cuda:{self._device}, got an array "
                f"on {array.device}"
            )
        self._device = index

    def _queue(self, slot, array, stream, event):
        import gpupy

        producer = gpupy.cuda.current_stream(array.device.index) if stream is None else stream
        with producer:
            if event is not None:
                producer.wait(event)
            if slot.device is None:
                slot.device = gpupy.empty(self._shape, dtype=self._dtype, device=array.device)
            slot.device[...] = array
            snapshot = producer.record()
        if self._stream is None:
            self._stream = gpupy.cuda.Stream(device=self._device)
        self._stream.wait(snapshot)
        try:
            _copy_async(slot.device, slot.host, self._stream)
        finally:
            slot.event = self._stream.record()  # also after a failed copy: later waits end

    def synchronize(self):
        """Waits for every copy in flight."""
        for slot in self._slots:
            if slot.event is not None:
                slot.event.synchronize()
