"""Transfer accounting and timing for gpupy.cunumpy: every copy between host and device that the
kernel layer makes is recorded, so a time step can be checked to stay on the device."""

import contextlib
import dataclasses
import functools
import os
import sys
import threading
import time

KINDS = ("to_host", "to_device", "kernel_conversion", "fallback", "device_copy", "sync")
_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
_active = []  # the counters that receive events; empty means recording costs one truth test


@dataclasses.dataclass(frozen=True)
class TransferEvent:
    """One copy or marker: kind (see KINDS), what happened, and the user's file:line."""

    kind: str
    description: str
    where: str
    nbytes: int | None = None
    blocking: bool = True
    implicit: bool = False

    @property
    def label(self):
        return (
            self.description
            + ("" if self.blocking else " [async]")
            + (" [implicit]" if self.implicit else "")
        )

    def __str__(self):
        return f"{self.where}: {self.kind}: {self.label}"


def _where():
    """file:line of the innermost frame outside gpupy.cunumpy (the user's call site)."""
    f = sys._getframe(2)
    while f is not None and (
        os.path.dirname(os.path.abspath(f.f_code.co_filename)) == _PACKAGE_DIR
        or f.f_code.co_filename == contextlib.__file__  # a `with` block of the kernel layer
    ):
        f = f.f_back
    return "<unknown>" if f is None else f"{f.f_code.co_filename}:{f.f_lineno}"


def record(kind, description, nbytes=None, *, blocking=True, implicit=False):
    """Sends an event to every active counter; callers test `profiling._active` first."""
    if not _active:
        return
    event = TransferEvent(kind, description, _where(), nbytes, blocking, implicit)
    for c in tuple(_active):
        c._add(event)


class TransferCounter:
    """The events seen while it was active, with counts and byte totals per kind."""

    def __init__(self):
        self.events = []

    def _add(self, event):
        self.events.append(event)

    def count(self, kind):
        _check_kind(kind)
        return sum(1 for e in self.events if e.kind == kind)

    def bytes(self, kind):
        _check_kind(kind)
        return sum(e.nbytes or 0 for e in self.events if e.kind == kind)

    to_host = property(lambda s: s.count("to_host"))
    to_device = property(lambda s: s.count("to_device"))
    kernel_conversions = property(lambda s: s.count("kernel_conversion"))
    kernel_conversion_calls = kernel_conversions
    fallbacks = property(lambda s: s.count("fallback"))
    device_copies = property(lambda s: s.count("device_copy"))
    syncs = property(lambda s: s.count("sync"))
    bytes_to_host = property(lambda s: s.bytes("to_host"))
    bytes_to_device = property(lambda s: s.bytes("to_device"))

    @property
    def total(self):
        """All events except waits."""
        return sum(1 for e in self.events if e.kind != "sync")

    def report(self):
        counts = ", ".join(f"{self.count(k)} {k}" for k in KINDS)
        lines = [f"{self.total} transfer(s) through cunumpy ({counts})"]
        for kind in KINDS:
            groups = {}
            for e in self.events:
                if e.kind == kind:
                    key = (e.where, e.label)
                    groups[key] = groups.get(key, 0) + 1
            if groups:
                lines.append(f"  {kind} ({sum(groups.values())}):")
                for (where, label), n in groups.items():
                    lines.append(f"    {where}: {label}" + (f" (x{n})" if n > 1 else ""))
        return "\n".join(lines)

    def __repr__(self):
        return f"<TransferCounter {self.total} transfer(s)>"


def _check_kind(kind):
    if kind not in KINDS:
        raise ValueError(f"unknown transfer kind {kind!r}; expected one of {', '.join(KINDS)}")


class count_transfers(contextlib.ContextDecorator):  # noqa: N801 - used like a function
    """Counts the transfers of a with block (or a decorated function); nested counters all
    receive the events, and `into=` keeps adding to an existing counter."""

    def __init__(self, into=None):
        self._into = into
        self._added = []

    def __enter__(self):
        counter = self._into if self._into is not None else TransferCounter()
        added = not any(c is counter for c in _active)
        if added:
            _active.append(counter)
        self._added.append(counter if added else None)
        return counter

    def __exit__(self, *exc):
        counter = self._added.pop()
        if counter is not None:
            for i in range(len(_active) - 1, -1, -1):
                if _active[i] is counter:
                    del _active[i]
                    break
        return False


class assert_no_transfers(contextlib.ContextDecorator):  # noqa: N801 - used like a function
    """Fails a block that copies between host and device or falls back to a host kernel.
    Device-only copies pass; waits pass unless syncs=True."""

    def __init__(self, *, syncs=False):
        self._syncs = syncs
        self._inner = []

    def __enter__(self):
        cm = count_transfers()
        self._inner.append(cm)
        return cm.__enter__()

    def __exit__(self, exc_type, exc, tb):
        cm = self._inner.pop()
        counter = cm._added[-1]
        cm.__exit__(exc_type, exc, tb)
        if exc_type is not None:
            return False
        allowed = {"device_copy"} | (set() if self._syncs else {"sync"})
        if any(e.kind not in allowed for e in counter.events):
            raise AssertionError(
                "host/device transfers inside a block that must not transfer:\n" + counter.report()
            )
        return False


def nvtx_range(name, color=None):
    """Marks a region in a profiler's timeline (Nsight Systems): an NVTX range on the gpupy
    backend when it runs on a cuda device, and on CuPy; a no-op elsewhere. `color`: an ARGB int
    (0xFF76B900) on gpupy, CuPy's color id on CuPy. Without a profiler attached NVTX costs next
    to nothing."""
    if color is not None and (isinstance(color, bool) or not isinstance(color, int)):
        raise TypeError(f"[nvtx_range] color must be an int, got {type(color).__name__}")
    if color is not None and not 0 <= color < 2**32:
        raise ValueError(f"[nvtx_range] color {color} is not a 32-bit ARGB value")
    return _NvtxRange(name, color)


class _NvtxRange(contextlib.ContextDecorator):
    # Per thread (NVTX ranges and gpupy's default device are per thread), per entry, the function
    # that closes what the entry opened (None: nothing opened).
    _local = threading.local()

    def __init__(self, name, color):
        self.name, self.color = name, color

    @classmethod
    def _stack(cls):
        stack = getattr(cls._local, "stack", None)
        if stack is None:
            stack = cls._local.stack = []
        return stack

    def __enter__(self):
        self._stack().append(_nvtx_push(str(self.name), self.color))
        return self

    def __exit__(self, *exc):
        pop = self._stack().pop()
        if pop is not None:
            pop()
        return False


def _nvtx_push(name, color):
    """Opens an NVTX range on the active backend and returns the function that closes it; None
    where there is no NVTX (NumPy, gpupy on cpu or emu, CuPy without its nvtx module)."""
    from gpupy.cunumpy._backend import array_backend

    if array_backend.name == "gpupy":
        import gpupy

        if gpupy._core.default_device().type != "cuda":
            return None
        gpupy._core._nvtx_push(name, color or 0)
        return gpupy._core._nvtx_pop
    if array_backend.name != "cupy":
        return None
    try:
        from cupy.cuda import nvtx
    except ImportError:
        return None
    if color is None:
        nvtx.RangePush(name)
    else:
        nvtx.RangePush(name, color)
    return nvtx.RangePop


@dataclasses.dataclass
class Timing:
    """The wall time of a timed_region (seconds); synced says the device was waited for."""

    name: str
    elapsed: float | None = None
    synced: bool = False


@contextlib.contextmanager
def timed_region(name, *, sync=True):
    """Times a block with perf_counter inside an NVTX range; on a GPU backend with sync=True the
    device is synchronized before the start and before the clock is read."""
    from gpupy.cunumpy._backend import array_backend, synchronize

    gpu = array_backend.name != "numpy"
    timing = Timing(name)
    with nvtx_range(name):
        if gpu and sync:
            synchronize()
        start = time.perf_counter()
        try:
            yield timing
        finally:
            if gpu and sync:
                synchronize()
                timing.synced = True
            timing.elapsed = time.perf_counter() - start


def timed(name=None, *, sync=True):
    """Decorator form of timed_region; the timing of the last call is in `func.last_timing`."""

    def wrap(func):
        @functools.wraps(func)
        def inner(*args, **kwargs):
            with timed_region(name or func.__name__, sync=sync) as t:
                result = func(*args, **kwargs)
            inner.last_timing = t
            return result

        inner.last_timing = None
        return inner

    return wrap
