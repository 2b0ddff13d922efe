"""CudaKernel(check_signature=False) (spec §2.4): no signature, no argument checks; arguments are
converted to the kernel's declared parameter types and launched like a raw kernel."""

import gpupy
import numpy
import pytest
from gpupy import cunumpy as xp

AXPY = r"""
extern "C" __global__ void axpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
"""


def test_raw_kernel_has_no_signature_and_parses_nothing():
    k = xp.CudaKernel("this is not C at all", "anything", check_signature=False)
    assert k.signature is None
    assert k.name == "anything"
    # A checked kernel with the same broken source fails at definition.
    with pytest.raises((ValueError, TypeError)):
        xp.CudaKernel("this is not C at all", "anything")


def test_raw_kernel_refuses_template_args():
    with pytest.raises(ValueError, match="check_signature=True"):
        xp.CudaKernel(AXPY, "axpy", check_signature=False, template_args=["float"])


@pytest.mark.parametrize("a", [2.5, numpy.float32(2.5), numpy.float64(2.5)])
def test_raw_launch_converts_to_declared_types(kernel_device, a):
    n = 1000
    x_host = numpy.arange(n, dtype=numpy.float32)
    y_host = numpy.ones(n, dtype=numpy.float32)
    x, y = gpupy.asarray(x_host), gpupy.asarray(y_host)
    k = xp.CudaKernel(AXPY, "axpy", check_signature=False)
    k(a, x, y, numpy.int64(n), n_threads=n)  # int64 scalar into an int parameter: converted
    numpy.testing.assert_allclose(gpupy.asnumpy(y), 2.5 * x_host + y_host, rtol=1e-6)


def test_raw_launch_errors(kernel_device):
    k = xp.CudaKernel(AXPY, "axpy", check_signature=False)
    y = gpupy.ones(4, dtype=gpupy.float32)
    with pytest.raises(TypeError, match="takes 4 arguments, got 3"):
        k(1.0, y, y, n_threads=4)
    with pytest.raises(TypeError):
        k(1.0, numpy.ones(4, numpy.float32), y, 4, n_threads=4)  # host memory is never passed
    cpu = gpupy.ones(4, dtype=gpupy.float32, device="cpu")
    with pytest.raises((ValueError, TypeError)):
        k(1.0, cpu, y, 4, n_threads=4)  # arrays on two devices


def test_kernel_pair_skips_the_signature_check_of_a_raw_kernel():
    def axpy(a, x, y, n):
        for i in range(n):
            y[i] = a * x[i] + y[i]

    pair = xp.Kernel(axpy, xp.CudaKernel(AXPY, "axpy", check_signature=False))
    pair.check_signature()  # nothing to compare against: no error


class _Interface:
    """Another library's CUDA array: only __cuda_array_interface__."""

    def __init__(self, interface, keep=None):
        self._keep = keep  # keeps the memory alive
        self._interface = interface

    @property
    def __cuda_array_interface__(self):
        return self._interface


def test_raw_launch_takes_cuda_array_interface_objects(kernel_device):
    k = xp.CudaKernel(AXPY, "axpy", check_signature=False)
    if kernel_device != "cuda":
        # Foreign CUDA memory needs the cuda device; emu kernels read host memory.
        fake = _Interface({"data": (0x10000, False), "shape": (4,), "typestr": "<f4", "version": 3})
        y = gpupy.zeros(4, dtype="float32")
        with pytest.raises(TypeError, match="needs the cuda device"):
            k(numpy.float32(2), fake, y, 4, n_threads=4)
        return
    x = gpupy.arange(8, dtype="float32")
    y = gpupy.ones(8, dtype="float32")
    xi = _Interface(x.__cuda_array_interface__, x)
    yi = _Interface(y.__cuda_array_interface__, y)
    k(2.0, xi, yi, 8, n_threads=8)
    numpy.testing.assert_array_equal(y.get(), 2 * numpy.arange(8, dtype=numpy.float32) + 1)
