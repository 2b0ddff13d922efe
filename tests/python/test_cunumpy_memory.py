"""gpupy.cunumpy.DeviceMirror: a host-owned buffer with a device copy refreshed on request."""

import numpy
import pytest
from gpupy import cunumpy as xp
from gpupy.cunumpy import kernel_testing as kt

DEPOSIT = """
__global__ void add_one(double* rho, long long n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&rho[i % 4], 1.0);
}
"""


def test_numpy_backend_is_identity():
    host = numpy.ones(4)
    m = xp.DeviceMirror(host)
    assert m.device is host and m.to_device() is m and m.to_host() is m
    m.zero()
    assert (host == 0).all() and m.shape == (4,) and m.dtype == numpy.float64
    with pytest.raises(TypeError, match="needs a NumPy array as host buffer, got list"):
        xp.DeviceMirror([1.0])


def test_device_round_trip_with_an_accumulation_kernel():
    if not kt.device_backend_available():
        pytest.skip("no device runs CUDA kernels")
    host = numpy.full(4, 5.0)
    m = xp.DeviceMirror(host)
    k = xp.CudaKernel(DEPOSIT, "add_one")
    with kt.on_backend("gpupy"):
        assert "not allocated" in repr(m)
        with xp.count_transfers() as c:
            m.zero()
            k(m.device, 40, n_threads=40)
            m.to_host()
        assert (c.to_device, c.to_host) == (0, 1)
        assert m.host is host and (host == 10.0).all()
        host[:] = 1.0
        with xp.count_transfers() as c:
            m.to_device()
        assert c.to_device == 1 and (xp.to_numpy(m.device) == 1.0).all()
        host.resize(8, refcheck=False)
        with pytest.raises(ValueError, match=r"call rebind\(host\)"):
            m.to_host()
        m.rebind(numpy.zeros(8))
        assert "not allocated" in repr(m) and m.shape == (8,)
