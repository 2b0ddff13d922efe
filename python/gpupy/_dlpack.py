"""DLPack: ndarray.__dlpack__ / __dlpack_device__ (producer) and gpupy.from_dlpack (consumer).

The capsules are built in C++ (python/src/bind_dlpack.cpp); this module applies the protocol's
argument rules. emu arrays live in memory that is host memory only by accident of emulation, so
they are not exported as kDLCPU: a consumer would read them as host data. They can be exported as
a host copy (``dl_device=(1, 0), copy=True``), flagged IS_COPIED.
"""

from gpupy import _core

KDLCPU = 1
KDLCUDA = 2
KDLCUDAHOST = 3
_CPU = (KDLCPU, 0)


def _native_dl_device(a):
    dev = a.device
    if dev.type == "cpu":
        return _CPU
    if dev.type == "cuda":
        return (KDLCUDA, dev.index)
    return None


def dlpack_device(self):
    """See the Array API: (device type, device id) of the data."""
    dl = _native_dl_device(self)
    if dl is None:
        raise BufferError(
            f"[__dlpack_device__] arrays on '{self.device}' cannot be shared through DLPack; "
            "request a host copy with __dlpack__(dl_device=(1, 0), copy=True) or use .get()"
        )
    return dl


def _check_stream(native, stream):
    if native is None or native[0] != KDLCUDA:
        if stream is not None:
            raise ValueError("[__dlpack__] stream must be None for arrays in host memory")
        return
    if stream == 0:
        raise ValueError("[__dlpack__] stream=0 is ambiguous in DLPack; use 1 or 2")
    if stream is not None and not isinstance(stream, int):
        raise TypeError(f"[__dlpack__] stream must be None or an int, got {type(stream).__name__}")


def _target(self, native, dl_device, copy):
    """The array to export and whether it is a copy."""
    if dl_device is not None:
        dl_device = (int(dl_device[0]), int(dl_device[1]))
    if dl_device is None or dl_device == native:
        if native is None:
            dlpack_device(self)  # raises the explanation
        return (self.copy(), True) if copy else (self, False)
    if dl_device != _CPU:
        raise BufferError(f"[__dlpack__] cannot export an array on '{self.device}' to {dl_device}")
    if copy is False:
        raise BufferError(
            f"[__dlpack__] exporting an array on '{self.device}' to the host needs a copy, "
            "but copy=False was given"
        )
    if native is None and copy is not True:
        raise BufferError(
            f"[__dlpack__] arrays on '{self.device}' are copied to the host only on request: "
            "pass copy=True"
        )
    return self.to_device("cpu"), True


def dlpack(self, *, stream=None, max_version=None, dl_device=None, copy=None):
    """See the Array API (DLPack 1.x). A versioned capsule when max_version >= (1, 0)."""
    native = _native_dl_device(self)
    _check_stream(native, stream)
    versioned = max_version is not None and int(max_version[0]) >= 1
    out, copied = _target(self, native, dl_device, copy)
    if not versioned and out._readonly:
        if copy is False:
            raise BufferError(
                "[__dlpack__] the legacy DLPack format cannot mark a read-only array; "
                "pass max_version=(1, 0) or allow a copy"
            )
        out, copied = out.copy(), True
    if out.device.type == "cuda" and stream != -1:
        # The consumer's stream must see the work gpupy queued on its own current stream, and the
        # memory must outlive the consumer's work on it, even once both sides have let go.
        consumer = 1 if stream is None else stream
        _core._cuda_stream_wait_current(out.device.index, consumer)
        _core.cuda_record_stream(out, consumer)
    return _core._dlpack_export(out, versioned, copied)


def _producer_device(x):
    if hasattr(x, "__dlpack_device__"):
        kind, index = x.__dlpack_device__()
        kind, index = int(kind), int(index)
        if kind in (KDLCPU, KDLCUDAHOST):
            return _core.Device("cpu"), _CPU
        if kind == KDLCUDA:
            return _core.Device(f"cuda:{index}"), (kind, index)
        raise BufferError(f"[from_dlpack] DLPack device type {kind} is not supported by gpupy")
    return None, None


def _capsule(x, dl, copy):
    stream = None
    if dl is not None and dl[0] == KDLCUDA:
        stream = _core.current_stream(dl[1]).handle or 1
    try:
        return x.__dlpack__(stream=stream, max_version=(1, 1), copy=copy)
    except TypeError:
        # Producers from before the 2023.12 signature take no max_version/copy.
        return x.__dlpack__() if stream is None else x.__dlpack__(stream=stream)


def from_dlpack(x, /, *, device=None, copy=None):
    """See the Array API. Shares memory with the producer when it can (the result keeps it
    alive); ``device`` other than the producer's means a copy, refused when ``copy=False``.
    Data whose address or strides are not multiples of the item size cannot be shared (gpupy's
    kernels load aligned items): it is copied by the producer, or refused when ``copy=False``."""
    if not hasattr(x, "__dlpack__"):
        raise TypeError(
            f"[from_dlpack] {type(x).__name__} does not implement the DLPack protocol (__dlpack__)"
        )
    target = None if device is None else _as_device(device)
    if isinstance(x, _core.ndarray):
        return _from_gpupy(x, target, copy)
    src_device, dl = _producer_device(x)
    moving = target is not None and src_device is not None and target != src_device
    if moving and copy is False:
        raise BufferError(f"[from_dlpack] moving the data to '{target}' needs a copy")
    capsule = _capsule(x, dl, None if moving else copy)
    if copy is not False and _core._dlpack_misalignment(capsule):
        # gpupy's kernels load aligned items; the Array API lets copy=None copy what cannot be
        # shared, so ask the producer for a copy (copy=False raises in _dlpack_import).
        capsule = _capsule(x, dl, True)
    a, copied = _core._dlpack_import(capsule)
    if moving or (target is not None and a.device != target):
        return a.to_device(target)
    if copy and not copied:
        return a.copy()
    return a


def _as_device(device):
    return device if isinstance(device, _core.Device) else _core.Device(device)


def _from_gpupy(x, target, copy):
    """gpupy to gpupy needs no capsule, and works for emu arrays, which DLPack cannot carry."""
    if target is not None and target != x.device:
        if copy is False:
            raise BufferError(f"[from_dlpack] moving the data to '{target}' needs a copy")
        return x.to_device(target)
    return x.copy() if copy else x._getitem(...)
