"""Run-time compiled kernels on the emu device (gpupy._core._EmuModule), compared with NumPy."""

import gpupy
import numpy
import pytest
from gpupy import _core

SOURCE = r"""
__global__ void axpy(double* y, const double* x, double a, long long n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
__global__ void block_sum(const float* in, float* out, int n) {
  extern __shared__ float buf[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  buf[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) buf[threadIdx.x] += buf[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = buf[0];
}
"""


@pytest.fixture(scope="module")
def module(device_name):
    if device_name != "emu":
        pytest.skip("run-time compiled emu kernels need --device=emu")
    return _core._EmuModule.compile(SOURCE, ["axpy", "block_sum"])


def test_axpy_matches_numpy(module):
    n = 1000
    x = numpy.arange(n, dtype=numpy.float64)
    y = numpy.linspace(0, 1, n)
    want = 2.5 * x + y
    gx, gy = gpupy.asarray(x), gpupy.asarray(y)
    module.launch("axpy", (n + 127) // 128, 128, 0, [gy, gx, 2.5, n])
    numpy.testing.assert_allclose(gy.get(), want)


def test_block_sum_with_dynamic_shared_memory(module):
    n, threads = 1000, 256
    blocks = (n + threads - 1) // threads
    x = numpy.random.default_rng(0).random(n, dtype=numpy.float32)
    out = gpupy.zeros(blocks, dtype=numpy.float32)
    module.launch("block_sum", (blocks,), (threads,), threads * 4, [gpupy.asarray(x), out, n])
    numpy.testing.assert_allclose(out.get().sum(), x.sum(), rtol=1e-5)


def test_argument_errors(module):
    out = gpupy.zeros(4)
    with pytest.raises(TypeError):
        module.launch("axpy", 1, 4, 0, [out, out, out, 4])
    with pytest.raises(TypeError):
        module.launch("axpy", 1, 4, 0, [out, out, 1.0])
    with pytest.raises(ValueError):
        module.launch("missing", 1, 4, 0, [])


def test_compile_error_is_a_runtime_error(device_name):
    if device_name != "emu":
        pytest.skip("run-time compiled emu kernels need --device=emu")
    with pytest.raises(RuntimeError, match=r"\[emu\] compiling kernel\(s\) bad failed"):
        _core._EmuModule.compile("__global__ void bad(int* p) { p[0] = }", ["bad"])
