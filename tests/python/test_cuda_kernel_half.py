"""CudaKernel with CUDA's __half (cuda_fp16.h): float16 arrays and scalars as __half arguments,
and the half arithmetic of the emu device's cuda_fp16.h against NumPy's float16 (which rounds
each operation from float, as the GPU does)."""

import gpupy
import numpy
import pytest
from gpupy import cunumpy as xp

SOURCE = r"""
#include <cuda_fp16.h>

__global__ void half_ops(__half* out, const __half* x, const __half* y, __half s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half a = x[i], b = y[i];
  out[0 * n + i] = a + b;
  out[1 * n + i] = a * b - s;
  out[2 * n + i] = __hdiv(a, b);
  out[3 * n + i] = __float2half(__half2float(a) * 0.1f);
  out[4 * n + i] = hsqrt(__habs(a));
  out[5 * n + i] = a < b ? a : b;
}
"""


def _inputs(n=4000):
    rng = numpy.random.default_rng(3)
    x = (rng.standard_normal(n) * 100).astype(numpy.float16)
    y = (rng.standard_normal(n) * 10 + 0.5).astype(numpy.float16)
    return x, y


def test_signature_maps_half_to_float16():
    sig = xp.parse_cuda_signature(SOURCE, "half_ops")
    assert sig[0].pointer and sig[0].dtype == numpy.float16
    assert not sig[3].pointer and sig[3].dtype == numpy.float16


def test_half_arithmetic_matches_numpy_float16(kernel_device):
    x, y = _inputs()
    n = x.size
    s = numpy.float16(1.5)
    out = gpupy.empty(6 * n, dtype=numpy.float16)
    xp.CudaKernel(SOURCE, "half_ops")(out, gpupy.asarray(x), gpupy.asarray(y), s, n, n_threads=n)
    got = out.get().reshape(6, n)
    with numpy.errstate(all="ignore"):
        expected = [
            x + y,
            x * y - s,
            x / y,
            (x.astype(numpy.float32) * numpy.float32(0.1)).astype(numpy.float16),
            numpy.sqrt(numpy.abs(x)),
            numpy.where(x < y, x, y),
        ]
    for row, (g, e) in enumerate(zip(got, expected, strict=True)):
        # Bit for bit: one rounding from float is what both compute.
        assert numpy.array_equal(g.view(numpy.uint16), e.view(numpy.uint16)), row


def test_float32_array_for_a_half_pointer_is_refused(kernel_device):
    x, y = _inputs(8)
    out = gpupy.empty(48, dtype=numpy.float16)
    wrong = gpupy.asarray(x.astype(numpy.float32))
    with pytest.raises(TypeError, match="float16|__half"):
        xp.CudaKernel(SOURCE, "half_ops")(out, wrong, gpupy.asarray(y), 1.0, 8, n_threads=8)


def _toolkit_has_cuda_fp16():
    import os

    roots = [os.environ.get("CUDA_PATH"), os.environ.get("CUDA_HOME"), "/usr/local/cuda"]
    return any(r and os.path.exists(os.path.join(r, "include", "cuda_fp16.h")) for r in roots)


def test_nvrtc_compiles_the_same_source_for_cuda(tmp_path, monkeypatch):
    # The cuda device compiles with NVRTC, which finds cuda_fp16.h in the CUDA toolkit.
    from gpupy import _core

    ok, reason = _core._nvrtc_available()
    if not ok:
        pytest.skip(reason)
    if not _toolkit_has_cuda_fp16():
        pytest.skip("no CUDA toolkit headers (CUDA_PATH, CUDA_HOME, /usr/local/cuda)")
    monkeypatch.setenv("GPUPY_CACHE_DIR", str(tmp_path))
    assert xp.CudaKernel(SOURCE, "half_ops").cubin().startswith(b"\x7fELF")
