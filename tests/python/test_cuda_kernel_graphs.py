"""CudaKernel launches into CUDA graphs (spec 2.4 step 7 and its pitfalls list): debug mode and
check_finite do not sync a capturing stream, and the pitfalls behave as the spec says: compile
before capture, allocate arrays first, keep changing scalars in device arrays, no host reads.
Captured with a stand-in CuPy over the emu device (fake_cupy.py: no GPU or CuPy here), so the
tests run on every device of the suite."""

import warnings

import fake_cupy
import gpupy
import numpy
import pytest
from gpupy import cunumpy as xp
from gpupy.cunumpy.cuda_devices import HostStream

# x[i] += a * b[0]: `a` is a scalar argument, b[0] a value kept in a device array.
AXPY = r"""
__global__ void axpy(double* x, double a, const double* b, long long n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) x[i] += a * b[0];
}
"""
N = 8


@pytest.fixture
def cp(monkeypatch):
    try:
        gpupy.zeros(1, device="emu")
    except NotImplementedError as exc:
        pytest.skip(str(exc))
    with gpupy.Device("emu"):
        yield fake_cupy.install(monkeypatch)


def capture(cp, stream, *launches):
    """The graph of `launches` (callables taking the stream) captured on stream."""
    with stream:
        stream.begin_capture()
        for launch in launches:
            launch(stream)
        assert stream.is_capturing()
        graph = stream.end_capture()
    assert not stream.is_capturing()
    return graph


def test_a_kernel_compiled_before_capture_replays(cp):
    k = xp.CudaKernel(AXPY, "axpy")
    module = k.compile()
    x, b = cp.asarray(numpy.arange(N, dtype=numpy.float64)), cp.asarray([1.0])
    s = cp.cuda.Stream(non_blocking=True)
    g = capture(cp, s, lambda s: k(x, 2.0, b, N, stream=s), lambda s: k(x, 0.5, b, N, stream=s))
    # recorded, not run
    numpy.testing.assert_array_equal(cp.asnumpy(x), numpy.arange(N))
    for _ in range(3):
        g.launch(stream=s)
    s.synchronize()
    numpy.testing.assert_array_equal(cp.asnumpy(x), numpy.arange(N) + 3 * (2.0 + 0.5))
    assert k.compile() is module  # the replays used the module compiled before the capture


def test_an_unchecked_kernel_is_captured_too(cp):
    k = xp.CudaKernel(AXPY, "axpy", check_signature=False)
    k.compile()
    x, b = cp.asarray(numpy.zeros(N)), cp.asarray([2.0])
    s = cp.cuda.Stream(non_blocking=True)
    g = capture(cp, s, lambda s: k(x, 0.25, b, numpy.int64(N), stream=s, n_threads=N))
    numpy.testing.assert_array_equal(cp.asnumpy(x), numpy.zeros(N))
    g.launch(stream=s)
    g.launch(stream=s)
    numpy.testing.assert_array_equal(cp.asnumpy(x), numpy.full(N, 1.0))


def test_arrays_allocated_before_capture_keep_their_addresses(cp):
    k = xp.CudaKernel(AXPY, "axpy")
    k.compile()
    x, b = cp.asarray(numpy.zeros(N)), cp.asarray([1.0])
    address = x._data_ptr
    s = cp.cuda.Stream(non_blocking=True)
    g = capture(cp, s, lambda s: k(x, 1.0, b, N, stream=s))
    x[...] = cp.asarray(numpy.full(N, 10.0))  # new data at the same address: the graph sees it
    g.launch(stream=s)
    assert x._data_ptr == address
    numpy.testing.assert_array_equal(cp.asnumpy(x), numpy.full(N, 11.0))
    captured, x = x, cp.asarray(numpy.zeros(N))  # a new array: the graph does not see it
    g.launch(stream=s)
    numpy.testing.assert_array_equal(cp.asnumpy(x), numpy.zeros(N))
    numpy.testing.assert_array_equal(cp.asnumpy(captured), numpy.full(N, 12.0))


def test_a_scalar_is_frozen_at_capture_a_device_value_is_not(cp):
    k = xp.CudaKernel(AXPY, "axpy")
    k.compile()
    x, dt = cp.asarray(numpy.zeros(N)), cp.asarray([1.0])
    s = cp.cuda.Stream(non_blocking=True)

    def step(scale):  # what a time loop would capture once and replay
        return lambda s: k(x, scale, dt, N, stream=s)

    g = capture(cp, s, step(0.5))
    expected = numpy.zeros(N)
    for new_dt in (2.0, 3.0):
        dt[...] = cp.asarray([new_dt])  # read by every replay
        g.launch(stream=s)
        expected += 0.5 * new_dt  # the scalar stays what it was at capture
    numpy.testing.assert_array_equal(cp.asnumpy(x), expected)


def test_debug_mode_does_not_sync_a_capturing_stream(cp):
    k = xp.CudaKernel(AXPY, "axpy")
    x, b = cp.asarray(numpy.zeros(N)), cp.asarray([1.0])
    s = cp.cuda.Stream(non_blocking=True)
    with xp.cuda.cuda_debug():
        k.compile()
        k(x, 1.0, b, N, stream=s)  # outside a capture debug mode waits for the stream
        assert s.syncs == 1
        g = capture(cp, s, lambda s: k(x, 1.0, b, N, stream=s))  # a sync here would raise
        assert s.syncs == 1
    g.launch(stream=s)
    numpy.testing.assert_array_equal(cp.asnumpy(x), numpy.full(N, 2.0))


def test_check_finite_is_skipped_with_one_warning_while_capturing(cp):
    k = xp.CudaKernel(AXPY, "axpy", check_finite=True)
    k.compile()
    x, b = cp.asarray(numpy.zeros(N)), cp.asarray([1.0])
    s = cp.cuda.Stream(non_blocking=True)
    nan = float("nan")
    with pytest.warns(UserWarning, match="'axpy': check_finite is skipped while the launch stream"):
        g = capture(cp, s, lambda s: k(x, nan, b, N, stream=s))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # once per kernel
        g2 = capture(cp, s, lambda s: k(x, nan, b, N, stream=s))
    assert s.syncs == 0
    g.launch(stream=s)
    g2.launch(stream=s)
    assert numpy.isnan(cp.asnumpy(x)).all()
    with pytest.raises(RuntimeError, match=r"kernel 'axpy' left a NaN or inf in argument 0 "):
        k(x, 1.0, b, N, stream=s)  # outside a capture the scan runs again


def test_a_host_read_while_capturing_raises_and_invalidates_the_capture(cp):
    k = xp.CudaKernel(AXPY, "axpy")
    k.compile()
    x, b = cp.asarray(numpy.zeros(N)), cp.asarray([1.0])
    s = cp.cuda.Stream(non_blocking=True)
    error = cp.cuda.runtime.CUDARuntimeError
    with s:
        s.begin_capture()
        k(x, 1.0, b, N, stream=s)
        with pytest.raises(error, match="operation not permitted when stream is capturing"):
            cp.asnumpy(x)
        with pytest.raises(error, match="previous error during capture"):
            s.end_capture()
    assert not s.is_capturing()
    numpy.testing.assert_array_equal(cp.asnumpy(x), numpy.zeros(N))  # the launch never ran


def test_launches_on_cupy_streams_are_checked(cp):
    k = xp.CudaKernel(AXPY, "axpy")
    x, b = cp.asarray(numpy.zeros(N)), cp.asarray([1.0])
    other = cp.cuda.Stream()
    other.device_id = 1  # CuPy names the device of its streams
    with pytest.raises(ValueError, match=r"the stream belongs to another device \(cuda:1"):
        k(x, 1.0, b, N, stream=other)
    with pytest.raises(TypeError, match="a CuPy stream, a HostStream .emu. or None, got object"):
        k(x, 1.0, b, N, stream=object())
    k(x, 1.0, b, N, stream=cp.cuda.Stream())  # not capturing: runs now
    k(x, 1.0, b, N, stream=HostStream())  # emu's streams, as xp.cuda.create_stream() makes there
    numpy.testing.assert_array_equal(cp.asnumpy(x), numpy.full(N, 2.0))


def test_host_streams_never_capture():
    assert HostStream().is_capturing() is False


def test_a_host_stream_is_a_stream_of_emu_only(device_name):
    if device_name != "cuda":
        pytest.skip("needs a device other than emu that runs CudaKernels")
    k = xp.CudaKernel(AXPY, "axpy")
    x, b = gpupy.zeros(N, device="cuda"), gpupy.ones(1, device="cuda")
    with pytest.raises(ValueError, match=r"the stream belongs to another device \(emu, the launch"):
        k(x, 1.0, b, N, stream=HostStream())


def test_gpupy_streams_say_whether_they_capture(device_name):
    if device_name != "cuda":
        pytest.skip("gpupy.cuda.Stream needs a GPU")
    s = gpupy.cuda.Stream()
    assert s.is_capturing() is False
    assert gpupy.cuda.current_stream().is_capturing() is False
