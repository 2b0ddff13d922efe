"""DeviceMirror: the device copy of a NumPy buffer that another library owns (for example the
storage an MPI reduction reads), refreshed only when asked, every refresh counted. Also the
background copies to the host: HostCopy (from xp.to_host_async), HostStaging and StagedCopy."""

import numpy

from gpupy.cunumpy import profiling
from gpupy.cunumpy._backend import array_backend, to_cunumpy, to_numpy
from gpupy.cunumpy.host_copies import HostCopy, HostStaging, StagedCopy  # noqa: F401


class DeviceMirror:
    """`device` is the host array itself on NumPy, else a device copy made on first use;
    to_device()/to_host() copy between them into the existing buffers."""

    def __init__(self, host):
        self._check(host)
        self._host = host
        self._shape, self._dtype = host.shape, host.dtype
        self._device = None

    @staticmethod
    def _check(host):
        if not isinstance(host, numpy.ndarray):
            raise TypeError(
                f"DeviceMirror needs a NumPy array as host buffer, got {type(host).__name__}"
            )

    host = property(lambda s: s._host)
    shape = property(lambda s: s._shape)
    dtype = property(lambda s: s._dtype)

    def __repr__(self):
        state = "allocated" if self._device is not None else "not allocated"
        return f"DeviceMirror(shape={self._shape}, dtype={self._dtype}, device buffer {state})"

    def _bound(self):
        """The host array must still have the shape and dtype the mirror was made for."""
        h = self._host
        if h.shape != self._shape or h.dtype != self._dtype:
            raise ValueError(
                f"the host buffer changed from {self._shape} {self._dtype} to {h.shape} "
                f"{h.dtype} behind the mirror; call rebind(host)"
            )

    @property
    def device(self):
        if array_backend.name == "numpy":
            return self._host
        if self._device is None:
            self._bound()
            self._device = to_cunumpy(self._host)
        return self._device

    def to_device(self):
        self._bound()
        if array_backend.name == "numpy":
            return self
        if self._device is None:
            self._device = to_cunumpy(self._host)
        else:
            self._device[...] = self._host
            if profiling._active:
                desc = f"DeviceMirror.to_device(shape={self._shape}, dtype={self._dtype})"
                profiling.record("to_device", desc, self._host.nbytes)
        return self

    def to_host(self, stream=None, event=None):
        """Copies the device buffer into the existing host array (blocking)."""
        self._bound()
        if array_backend.name == "numpy" or self._device is None:
            return self
        if event is not None:
            event.synchronize()
        elif stream is not None:
            stream.synchronize()
        self._host[...] = to_numpy(self._device)  # counted as to_host by to_numpy
        return self

    def zero(self):
        """Zeros the buffer that kernels write: the device one (no upload) or the host one."""
        if array_backend.name == "numpy":
            self._host.fill(0)
        elif self._device is None:
            self._bound()
            self._device = array_backend.module.zeros(self._shape, dtype=self._dtype)
        else:
            self._device[...] = 0
        return self

    def rebind(self, host):
        """A new host buffer; the device buffer is kept (not refreshed) when shape and dtype
        match, else dropped."""
        self._check(host)
        if host.shape != self._shape or host.dtype != self._dtype:
            self._device = None
        self._host, self._shape, self._dtype = host, host.shape, host.dtype
        return self
