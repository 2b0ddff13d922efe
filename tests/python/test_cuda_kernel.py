"""gpupy.cunumpy.CudaKernel: signature parsing, argument checking, and real launches on emu
compared with NumPy."""

import gpupy
import numpy
import pytest
from gpupy import cunumpy as xp

SOURCE = r"""
// __global__ void hidden(int x) {}
__global__ void saxpy(float a, const float* __restrict__ x, float* y, long long n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
__global__ void scale2d(Array2D<double> out, Array2D<const double> in, double f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < in.shape[0] && j < in.shape[1]) out(i, j) = f * in(i, j);
}
template <typename T, int K>
__global__ void add_k(T* y, CArray1D<const T> x, long long n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) y[i] = x(i) + T(K);
}
"""
SCALARS = (
    "__global__ void scalars(int i, unsigned char u, bool b, double d, complex<float> z, "
    "void* p) {}"
)


def test_parse_signature():
    sig = xp.parse_cuda_signature(SOURCE, "saxpy")
    assert [p.name for p in sig] == ["a", "x", "y", "n"]
    assert sig[1].pointer and sig[1].dtype == numpy.float32
    assert sig[3].ctype == "long long" and not sig[3].pointer
    t = xp.parse_cuda_signature(SOURCE, "add_k", template_args=(numpy.float32, 2))
    assert t[1].view_ndim == 1 and t[1].contiguous and t[1].dtype == numpy.float32
    assert xp.cuda_kernel_names(SOURCE) == ["saxpy", "scale2d", "add_k"]


@pytest.mark.parametrize(
    ("src", "message"),
    [
        ("__global__ void k(double** p) {}", "unsupported type 'double\\*\\*'"),
        ("struct P {int a;};\n__global__ void k(P p) {}", "unsupported type 'P'"),
        ("__global__ void k(Array17D<double> a) {}", "unsupported type"),
        ("__global__ void k(Array2D<double>* a) {}", "passed by value"),
        ("// __global__ void k() {}", "no __global__ function 'k'"),
        ("template <class T> __global__ void k(T* p) {}", "template with 1 parameters"),
    ],
)
def test_signature_rejections(src, message):
    with pytest.raises(ValueError, match=message):
        xp.CudaKernel(src, "k")


def test_template_args_on_plain_kernel():
    with pytest.raises(ValueError, match="not a template"):
        xp.CudaKernel(SOURCE, "saxpy", template_args=(1,))


def test_launch_shape():
    k = xp.CudaKernel(SOURCE, "saxpy")
    assert k.launch_shape(1000) == ((8,), (128,))
    assert k.launch_shape((300, 5)) == ((3, 5), (128, 1))
    assert k.launch_shape((300, 5), block=(16, 8)) == ((19, 1), (16, 8))
    assert k.launch_shape(0) == ((0,), (128,))
    assert xp.CudaKernel(SOURCE, "saxpy", block_size=(16, 16)).launch_shape((100, 33)) == (
        (7, 3),
        (16, 16),
    )
    with pytest.raises(ValueError, match="1 to 3 dimensions"):
        k.launch_shape((1, 2, 3, 4))
    with pytest.raises(TypeError, match="exactly one of n_threads and grid"):
        k.launch_shape()
    with pytest.raises(ValueError, match="positive"):
        xp.CudaKernel(SOURCE, "saxpy", block_size=0)
    with pytest.raises(ValueError, match="at most 1024"):
        xp.CudaKernel(SOURCE, "saxpy", block_size=(64, 32))


def test_host_array_is_rejected_without_copy():
    k = xp.CudaKernel(SOURCE, "saxpy")
    x = numpy.zeros(4, numpy.float32)
    msg = (
        r"^\[CudaKernel\] 'saxpy' argument 1 \(float\* x\) must be a device array, got "
        "numpy.ndarray; "
        "arrays are never copied to the device"
    )
    with pytest.raises(TypeError, match=msg):
        k(1.0, x, x, 4, n_threads=4)


def test_scalar_checks_need_no_device():
    k = xp.CudaKernel(SCALARS, "scalars")
    good = [1, numpy.uint8(3), True, 1.5, 1 + 2j, None]

    def call(i, v):
        args = list(good)
        args[i] = v
        k(*args, n_threads=0)

    with pytest.raises(
        TypeError, match=r"^\[CudaKernel\] 'scalars' argument 5 \(void\* p\) must be a device array"
    ):
        call(5, None)
    good[5] = _FakeDeviceArray()
    call(0, numpy.int64(5))  # NumPy integers go by value
    with pytest.raises(
        OverflowError,
        match=r"^\[CudaKernel\] 'scalars' argument 0 \(int i\): 2147483648 is out of range",
    ):
        call(0, numpy.int64(2**31))
    with pytest.raises(OverflowError, match=r"\[0, 255\]"):
        call(1, 256)
    with pytest.raises(TypeError, match="cannot take a value of type float"):
        call(0, 1.0)
    with pytest.raises(TypeError, match="cannot take a value of type int"):
        call(2, 1)
    with pytest.raises(
        TypeError, match=r"^\[CudaKernel\] 'scalars' argument 3 .* cannot take a value of type str"
    ):
        call(3, "x")
    with pytest.raises(TypeError, match="cannot take a complex128 scalar without losing"):
        call(3, numpy.complex128(1))
    call(3, numpy.float32(1.5))
    call(3, 2)
    with pytest.raises(TypeError, match=r"takes 6 arguments after flattening argument objects"):
        k(1, n_threads=1)


class _FakeDeviceArray:
    """A foreign device array: only __cuda_array_interface__."""

    __cuda_array_interface__ = {"data": (0, False), "shape": (4,), "typestr": "<f4", "version": 3}


class _Args:
    def __init__(self, *values):
        self.values = values

    def __cuda_args__(self):
        return self.values


def test_saxpy_with_n_threads(kernel_device):
    k = xp.CudaKernel(SOURCE, "saxpy")
    n = 1000
    x = numpy.linspace(0, 1, n, dtype=numpy.float32)
    y = numpy.arange(n, dtype=numpy.float32)
    gx, gy = gpupy.asarray(x), gpupy.asarray(y)
    k(numpy.float32(2.5), gx, gy, n, n_threads=n)
    numpy.testing.assert_allclose(gy.get(), 2.5 * x + y, rtol=1e-6)
    assert k.is_compiled
    k(_Args(2.0, gx), gy, n, n_threads=n)  # __cuda_args__ objects are flattened
    numpy.testing.assert_allclose(gy.get(), 2.5 * x + y + 2 * x, rtol=1e-6)


@pytest.mark.parametrize(
    ("grid", "block"), [((1, 65536), (1,)), ((1, 1, 65536), (1,)), ((1,), (1, 1, 65))]
)
def test_launch_shape_beyond_the_gpu_limits_raises(kernel_device, grid, block):
    # emu checks the limits of real GPUs, and so does the cuda launch before the driver does.
    y = gpupy.zeros(4, dtype=numpy.float32)
    with pytest.raises(ValueError, match="65535|the 64 limit"):
        xp.CudaKernel(SOURCE, "saxpy")(numpy.float32(1), y, y, 4, grid=grid, block=block)


def test_pointer_checks_on_device(kernel_device):
    k = xp.CudaKernel(SOURCE, "saxpy")
    f64 = gpupy.zeros(8)
    f32 = gpupy.zeros((4, 4), dtype=numpy.float32)
    with pytest.raises(TypeError, match="must have dtype float32, got float64"):
        k(1.0, f64, f64, 8, n_threads=8)
    with pytest.raises(TypeError, match="must be C-contiguous"):
        k(1.0, f32[:, 1:3], f32, 8, n_threads=8)
    with pytest.raises(TypeError, match="must be a device array"):
        k(1.0, gpupy.zeros(4, dtype=numpy.float32, device="cpu"), f32, 8, n_threads=8)


def test_2d_views_of_a_non_contiguous_array(kernel_device):
    host = numpy.arange(120.0).reshape(10, 12)
    view = gpupy.asarray(host)[1::3, ::2]
    out = gpupy.zeros(view.shape)
    k = xp.CudaKernel(SOURCE, "scale2d", block_size=(8, 4))
    k(out, view, -2.0, n_threads=view.shape)
    numpy.testing.assert_array_equal(out.get(), -2.0 * host[1::3, ::2])
    with pytest.raises(TypeError, match="must be a 2D array, got 1D"):
        k(gpupy.zeros(3), view, 1.0, n_threads=(3, 1))


def test_template_kernel(kernel_device):
    k = xp.CudaKernel(SOURCE, "add_k", template_args=(numpy.float32, 7))
    assert k.expression == "add_k<float, 7>"
    x = numpy.arange(50, dtype=numpy.float32)
    y = gpupy.zeros(50, dtype=numpy.float32)
    k(y, gpupy.asarray(x), 50, n_threads=50)
    numpy.testing.assert_array_equal(y.get(), x + 7)
    with pytest.raises(TypeError, match="must be C-contiguous"):
        k(y, gpupy.asarray(numpy.arange(100, dtype=numpy.float32))[::2], 50, n_threads=50)


def test_from_file_and_all_from_file(tmp_path, kernel_device):
    path = tmp_path / "saxpy_cuda.cu"
    path.write_text(SOURCE.split("template")[0])
    k = xp.CudaKernel.from_file(path)
    assert k.name == "saxpy" and str(tmp_path) in k.include_dirs[0]
    kernels = xp.CudaKernel.all_from_file(path)
    assert sorted(kernels) == ["saxpy", "scale2d"]
    y = gpupy.ones(3, dtype=numpy.float32)
    kernels["saxpy"](1.0, y, y, 3, n_threads=3)
    numpy.testing.assert_array_equal(y.get(), [2, 2, 2])
    with pytest.raises(ValueError, match="does not end with"):
        xp.CudaKernel.from_file(tmp_path / "other.cu")


def test_n_threads_inference_and_prepare_args(kernel_device):
    k = xp.CudaKernel(SOURCE, "saxpy")
    x, y = gpupy.ones(300, dtype=numpy.float32), gpupy.zeros(300, dtype=numpy.float32)
    assert k.launch_shape(args=(1.0, x, y, 300)) == ((3,), (128,))
    k(2.0, x, y, 300)  # n_threads from the first array
    numpy.testing.assert_array_equal(y.get(), numpy.full(300, 2.0))
    k2 = xp.CudaKernel(SOURCE, "scale2d", block_size=(8, 4))
    assert k2.launch_shape(args=(gpupy.zeros((35, 19)),)) == ((5, 5), (8, 4))
    with pytest.raises(ValueError, match="cannot infer 2D n_threads"):
        k2.launch_shape(args=(gpupy.zeros(3),))
    with pytest.raises(TypeError, match="needs an array argument"):
        k.launch_shape(args=(1.0,))
    with pytest.raises(TypeError, match="n_threads_from must be callable"):
        k.n_threads_from = "sideways"
    assert k.n_threads_from == "auto"
    k.n_threads_from = lambda a: a[3]
    assert k.launch_shape(args=(1.0, x, y, 1000)) == ((8,), (128,))
    args = k.prepare_args(_Args(1.0, x), y, 300)
    assert args[1] is x and len(args) == 4


GLOBAL_MATH_SOURCE = r"""
__global__ void global_math(int* sizes, double* values, float xf, double xd, long long xl) {
  sizes[0] = sizeof(abs(xf));
  sizes[1] = sizeof(sin(xf));
  sizes[2] = sizeof(sqrt(xf));
  sizes[3] = sizeof(pow(xf, xf));
  sizes[4] = sizeof(abs(xd));
  sizes[5] = sizeof(abs(xl));
  values[0] = abs(xf);
  values[1] = abs(xd);
  values[2] = (double)abs(xl);
  values[3] = fabs(xf);
  sizes[6] = isnan(xf / 0.0f - xf / 0.0f) && !isnan(xd) && signbit(xd);
}
"""


def test_global_math_overloads_are_cudas(kernel_device):
    """Unqualified abs/sin/sqrt/pow take CUDA's float and double overloads on every device: on
    the host, abs(-2.5) must not reach the C library's abs(int), nor sin(float) use double."""
    sizes = gpupy.zeros(7, dtype=numpy.int32)
    values = gpupy.zeros(4, dtype=numpy.float64)
    kernel = xp.CudaKernel(GLOBAL_MATH_SOURCE, "global_math")
    kernel(sizes, values, numpy.float32(-2.5), -3.25, -(2**40) - 1, n_threads=1)
    assert sizes.get().tolist() == [4, 4, 4, 4, 8, 8, 1]
    assert values.get().tolist() == [2.5, 3.25, float(2**40 + 1), 2.5]
