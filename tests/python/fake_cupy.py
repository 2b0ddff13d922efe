"""A stand-in `cupy` over gpupy's emu device, for testing CudaKernel launches into CUDA graphs
without a GPU. Its arrays are gpupy emu arrays; `cupy.cuda.Stream` captures graphs with CuPy's API
(`begin_capture`, `end_capture` returning a `cupy.cuda.Graph`, `is_capturing`) and
`Graph.launch(stream=None)` replays them. As in CUDA, a capture records each CudaKernel launch on
its stream instead of running it, with the arguments it had then (the arrays, so their addresses,
and the scalars' values); a replay runs the kernels on the arrays' current data. A sync or a host
read while the stream captures raises CUDA's "operation not permitted when stream is capturing"
and invalidates the capture, so that end_capture raises."""

import itertools
import sys
import types

import gpupy
from gpupy import _core
from gpupy.cunumpy._cuda_launch_args import _flatten
from gpupy.cunumpy._cuda_signature import _RawSignature

NOT_PERMITTED = (
    "cudaErrorStreamCaptureUnsupported: operation not permitted when stream is capturing"
)
INVALIDATED = (
    "cudaErrorStreamCaptureInvalidated: operation failed due to a previous error during capture"
)


class CUDARuntimeError(RuntimeError):
    """cupy.cuda.runtime.CUDARuntimeError."""


class ndarray:  # noqa: N801 - CuPy's name
    """No object is one: the fake's arrays are gpupy emu arrays (kept apart from CuPy's type so
    that the kernel layer still treats them as gpupy's)."""


class Graph:
    """A captured graph: its launches, replayed in capture order."""

    def __init__(self, launches):
        self._launches = tuple(launches)

    def launch(self, stream=None):
        stream = _state.current() if stream is None else stream
        if stream.captured is not None:  # a graph launched into a capture becomes part of it
            stream.captured.extend(self._launches)
            return
        for run in self._launches:
            run()

    def upload(self, stream=None):
        return None


class Stream:
    """cupy.cuda.Stream: no device_id (emu is no CUDA device: the launch's arrays decide)."""

    _handles = itertools.count(0x5000, 0x10)

    def __init__(self, null=False, non_blocking=False, ptds=False):
        self.ptr = 0 if null else next(Stream._handles)
        self.captured = None  # the launches of the capture in progress; None: not capturing
        self.invalidated = False
        self.syncs = 0  # synchronize() calls that waited (the tests count them)

    def begin_capture(self, mode=None):
        if self.ptr == 0:
            raise CUDARuntimeError(
                "cudaErrorStreamCaptureUnsupported: the legacy stream cannot capture"
            )
        if self.captured is not None:
            raise CUDARuntimeError("cudaErrorIllegalState: the stream is already capturing")
        self.captured, self.invalidated = [], False
        _state.capturing[self.ptr] = self

    def is_capturing(self):
        return self.captured is not None

    def end_capture(self):
        if self.captured is None:
            raise CUDARuntimeError("cudaErrorIllegalState: the stream is not capturing")
        launches, invalidated = self.captured, self.invalidated
        self.captured = None
        del _state.capturing[self.ptr]
        if invalidated:
            raise CUDARuntimeError(INVALIDATED)
        return Graph(launches)

    def synchronize(self):
        self._refuse_while_capturing()
        self.syncs += 1

    def query(self):
        self._refuse_while_capturing()
        return True

    def _refuse_while_capturing(self):
        if self.captured is not None:
            self.invalidated = True
            raise CUDARuntimeError(NOT_PERMITTED)

    def __enter__(self):
        _state.stack.append(self)
        return self

    def __exit__(self, *exc):
        _state.stack.pop()
        return False


class _State:
    def __init__(self):
        self.null = Stream(null=True)
        self.stack = []
        self.capturing = {}  # stream handle -> Stream

    def current(self):
        return self.stack[-1] if self.stack else self.null


_state = _State()


def _recording(launch):
    """A signature's launch that, on a capturing stream, checks the arguments and records the
    launch (as CUDA does: the argument values of now, nothing run) instead of launching."""

    def recording_launch(self, module, args, grid, block, shared_mem, stream=None):
        capture = _state.capturing.get(stream) if module is not None else None
        if capture is None:
            return launch(self, module, args, grid, block, shared_mem, stream)
        device = launch(self, None, args, grid, block, shared_mem, stream)
        frozen = _flatten(args)
        capture.captured.append(lambda: launch(self, module, frozen, grid, block, shared_mem))
        return device

    return recording_launch


def asnumpy(a, stream=None):
    """A device-to-host copy on `stream` (the current one): refused while it captures."""
    (_state.current() if stream is None else stream)._refuse_while_capturing()
    return gpupy.asnumpy(a)


def install(monkeypatch):
    """Installs the fake as `cupy` for one test (monkeypatch undoes it) and returns it."""
    monkeypatch.setattr(sys.modules[__name__], "_state", _State())
    runtime = types.ModuleType("cupy.cuda.runtime")
    runtime.CUDARuntimeError = CUDARuntimeError
    cuda = types.ModuleType("cupy.cuda")
    cuda.Stream, cuda.Graph, cuda.runtime = Stream, Graph, runtime
    cuda.get_current_stream = lambda: _state.current()
    cupy = types.ModuleType("cupy")
    cupy.__cunumpy_fake__ = True
    cupy.cuda, cupy.ndarray, cupy.asnumpy = cuda, ndarray, asnumpy
    cupy.asarray = lambda a, dtype=None: gpupy.asarray(a, dtype=dtype, device="emu")
    for name, module in (("cupy", cupy), ("cupy.cuda", cuda), ("cupy.cuda.runtime", runtime)):
        monkeypatch.setitem(sys.modules, name, module)
    for cls in (_core._KernelSignature, _RawSignature):
        monkeypatch.setattr(cls, "launch", _recording(cls.launch))
    return cupy
