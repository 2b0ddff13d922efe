"""CudaKernel on cuda: NVRTC compiles to CUBIN without a GPU; loading needs a CUDA driver, and its
absence is a gpupy CudaError rather than a crash."""

import gpupy
import numpy
import pytest
from gpupy import _core
from gpupy import cunumpy as xp

SOURCE = r"""
__global__ void saxpy(float a, const float* x, float* y, long long n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
template <typename T, int K>
__global__ void add_k(T* y, CArray1D<const T> x, long long n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) y[i] = x(i) + T(K);
}
"""

ELF_MAGIC = b"\x7fELF"


@pytest.fixture
def nvrtc(tmp_path, monkeypatch):
    ok, reason = _core._nvrtc_available()
    if not ok:
        pytest.skip(reason)
    monkeypatch.setenv("GPUPY_CACHE_DIR", str(tmp_path))


def _has_cuda():
    try:
        return gpupy.cuda.is_available()
    except Exception:
        return False


def test_cubin_of_a_kernel(nvrtc):
    k = xp.CudaKernel(SOURCE, "saxpy")
    cubin = k.cubin()
    assert cubin.startswith(ELF_MAGIC)
    assert k.cubin("sm_80").startswith(ELF_MAGIC)


def test_cubin_of_a_template_instance(nvrtc):
    k = xp.CudaKernel(SOURCE, "add_k", template_args=(numpy.float32, 3))
    assert k.cubin().startswith(ELF_MAGIC)


def test_cubin_compile_error_has_nvrtc_log(nvrtc):
    k = xp.CudaKernel("__global__ void bad(int* x) { x[0] = undefined_name; }", "bad")
    with pytest.raises(RuntimeError, match="undefined_name"):
        k.cubin()


@pytest.mark.skipif(_has_cuda(), reason="a CUDA device is available here")
def test_compile_for_cuda_without_driver_raises_cuda_error(nvrtc):
    k = xp.CudaKernel(SOURCE, "saxpy")
    with pytest.raises(gpupy.cuda.CudaError):
        k.compile(device="cuda")
    assert "cuda:0" not in k._modules  # a failure is not cached


@pytest.mark.skipif(not _has_cuda(), reason="needs a CUDA device")
def test_compile_for_cuda_loads(nvrtc):
    k = xp.CudaKernel(SOURCE, "saxpy")
    assert k.compile(device="cuda") is k.compile(device="cuda:0")


class _Foreign:
    """A foreign device array: only __cuda_array_interface__, naming the producer's stream."""

    def __init__(self, array, stream):
        self._array = array  # keeps the memory alive
        self._stream = stream

    @property
    def __cuda_array_interface__(self):
        return dict(self._array.__cuda_array_interface__, stream=self._stream)


@pytest.mark.skipif(not _has_cuda(), reason="needs a CUDA device")
@pytest.mark.parametrize("legacy", [True, False])
def test_launch_orders_foreign_arrays_with_their_stream(nvrtc, legacy):
    n = 1 << 20
    x = gpupy.asarray(numpy.arange(n, dtype=numpy.float32), device="cuda")
    producer = _core.Stream(device="cuda")
    with producer:  # the producer's writes are queued on its own stream
        y = gpupy.asarray(numpy.ones(n, dtype=numpy.float32), device="cuda")
        y *= 3.0
    stream = 1 if legacy else producer.handle
    if legacy:
        producer.synchronize()  # the legacy stream then holds nothing of it
    xp.CudaKernel(SOURCE, "saxpy")(2.0, x, _Foreign(y, stream), n)
    if legacy:
        got = gpupy.asnumpy(y)
    else:
        with producer:  # the producer's stream waits for the kernel too
            got = gpupy.asnumpy(y)
    numpy.testing.assert_array_equal(got, 2.0 * numpy.arange(n, dtype=numpy.float32) + 3.0)
