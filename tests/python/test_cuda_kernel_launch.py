"""CudaKernel launch features: debug mode, check_finite, launch validation against the device's
limits (emu reports an H200's), streams, CudaKernelVariants with parallel compilation, and
device_function_kernel; launches run on emu and are compared with NumPy."""

import gpupy
import numpy
import pytest
from gpupy import cunumpy as xp
from gpupy.cunumpy import _cuda_launch_stream, cuda_kernel
from gpupy.cunumpy.arguments import CudaStruct, CudaStructArguments
from gpupy.cunumpy.kernel_testing import device_function_kernel

OOB = r"""
__global__ void oob(Array1D<double> a, int k) { a(k) = 1.0; }
"""
FILL = r"""
__global__ void fill(double* x, double v, long long n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) x[i] = v;
}
"""
SHARED = r"""
__global__ void shared_sum(const double* x, double* out, int n) {
  extern __shared__ double buf[];
  int t = threadIdx.x;
  buf[t] = t < n ? x[t] : 0.0;
  __syncthreads();
  if (t == 0) {
    double s = 0;
    for (int k = 0; k < blockDim.x; ++k) s += buf[k];
    out[0] = s;
  }
}
"""


def dev(a):
    return gpupy.asarray(numpy.asarray(a))


# -- debug mode ----------------------------------------------------------------------------


def test_debug_flag_and_context_manager(monkeypatch):
    assert xp.cuda.DEBUG_OPTIONS == ("-lineinfo", "-DCUNUMPY_BOUNDS_CHECK")
    previous = xp.cuda.get_cuda_debug()
    k = xp.CudaKernel(FILL, "fill")
    pinned_off = xp.CudaKernel(FILL, "fill", debug=False)
    pinned_on = xp.CudaKernel(FILL, "fill", debug=True)
    with xp.cuda.cuda_debug():
        assert xp.cuda.get_cuda_debug() and k.debug_active()
        assert not pinned_off.debug_active()
        assert k.compile_options()[-2:] == xp.cuda.DEBUG_OPTIONS
        with xp.cuda.cuda_debug(False):
            assert not k.debug_active() and pinned_on.debug_active()
        assert k.debug_active()
    assert xp.cuda.get_cuda_debug() == previous
    xp.cuda.set_cuda_debug(False)
    try:
        assert not any(o in k.compile_options() for o in xp.cuda.DEBUG_OPTIONS)
        assert k.debug is None and pinned_on.debug is True
    finally:
        xp.cuda.set_cuda_debug(previous)
    with pytest.raises(TypeError, match="debug must be None, True or False"):
        xp.CudaKernel(FILL, "fill", debug="yes")


def test_xp_cuda_falls_back_to_the_backend_cuda_module():
    assert xp.cuda.CudaKernelVariants is xp.CudaKernelVariants
    with xp.use_backend("gpupy"):
        assert xp.cuda.Stream is gpupy.cuda.Stream
    with xp.use_backend("numpy"), pytest.raises(AttributeError, match="Stream"):
        xp.cuda.Stream  # noqa: B018


@pytest.mark.parametrize("value", ["1", "on", "TRUE", "yes", "0", ""])
def test_debug_flag_from_environment(value):
    import subprocess
    import sys

    code = "from gpupy import cunumpy as xp; print(xp.cuda.get_cuda_debug())"
    env = {**__import__("os").environ, "CUNUMPY_CUDA_DEBUG": value}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.stdout.strip() == str(value.lower() in ("1", "on", "true", "yes")), out.stderr


def test_debug_mode_bounds_checks_views(kernel_device):
    a = dev(numpy.zeros(4))
    plain = xp.CudaKernel(OOB, "oob", debug=False)
    plain(a, 3, n_threads=1)
    plain(a, 2, n_threads=1)
    numpy.testing.assert_array_equal(gpupy.asnumpy(a), [0, 0, 1, 1])
    checked = xp.CudaKernel(OOB, "oob")
    with xp.cuda.cuda_debug():
        checked(a, 0, n_threads=1)  # in range
        with pytest.raises(RuntimeError) as info:
            checked(a, 4, n_threads=1)
    message = str(info.value)
    assert message.startswith("CUDA error after launching kernel 'oob' with grid (1,) and block")
    assert "index 4 is out of bounds for axis 0 with size 4" in message
    assert isinstance(info.value.__cause__, RuntimeError)
    numpy.testing.assert_array_equal(gpupy.asnumpy(a), [1, 0, 1, 1])


def test_debug_options_are_frozen_until_recompile(kernel_device):
    base = dev(numpy.zeros(8))
    a = base[:4]
    k = xp.CudaKernel(OOB, "oob")
    k(a, 1, n_threads=1)  # compiled without debug options
    with xp.cuda.cuda_debug():
        k(a, 4, n_threads=1)  # no bounds check compiled in: writes the base's element 4
        numpy.testing.assert_array_equal(gpupy.asnumpy(base), [0, 1, 0, 0, 1, 0, 0, 0])
        k.recompile()
        with pytest.raises(RuntimeError, match="out of bounds"):
            k(a, 5, n_threads=1)
    numpy.testing.assert_array_equal(gpupy.asnumpy(base), [0, 1, 0, 0, 1, 0, 0, 0])


# -- check_finite --------------------------------------------------------------------------

MARKERS = CudaStruct("Markers", [("x", "double*"), ("w", "float*"), ("n", "int")])
POISON = (
    MARKERS.to_header()
    + r"""
__global__ void poison(Markers m, int* count, int bad) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= m.n) return;
  m.x[i] = 2.0 * i;
  m.w[i] = 1.0f;
  if (i == bad) m.w[i] = 0.0f / 0.0f;
  count[i] = i;
}
"""
)


class MarkerArgs(CudaStructArguments):
    struct_name = "Markers"
    fields = [("x", "double*"), ("w", "float*"), ("n", "int")]

    def __init__(self, x, w):
        self.x, self.w, self.n = x, w, x.shape[0]
        self.pack()


def test_check_finite_names_the_struct_field(kernel_device):
    k = xp.CudaKernel(POISON, "poison", structs=[MARKERS])
    assert k.check_finite is False
    x, w, count = (
        dev(numpy.zeros(50)),
        dev(numpy.zeros(50, numpy.float32)),
        dev(numpy.zeros(50, numpy.int32)),
    )
    k(MARKERS(x=x, w=w, n=50), count, -1, n_threads=50)  # not checked: passes
    k.check_finite = True
    k(MARKERS(x=x, w=w, n=50), count, -1, n_threads=50)  # finite everywhere
    numpy.testing.assert_array_equal(gpupy.asnumpy(x), 2.0 * numpy.arange(50))
    with pytest.raises(RuntimeError) as info:
        k(MARKERS(x=x, w=w, n=50), count, 7, n_threads=50)
    assert str(info.value) == (
        "kernel 'poison' left a NaN or inf in argument 0.w (dtype float32, shape (50,))"
    )
    assert numpy.isnan(gpupy.asnumpy(w)[7])
    args = MarkerArgs(x, dev(numpy.zeros(50, numpy.float32)))
    k(args, count, -1, n_threads=50)
    with pytest.raises(RuntimeError, match=r"argument 0\.w \(dtype float32"):
        k(args, count, 3, n_threads=50)


def test_check_finite_plain_and_argument_objects(kernel_device):
    k = xp.CudaKernel(FILL, "fill", check_finite=True)
    x = dev(numpy.zeros(10))
    k(x, 1.5, 10)
    with pytest.raises(RuntimeError, match=r"left a NaN or inf in argument 0 \(dtype float64"):
        k(x, float("inf"), 10)
    with pytest.raises(RuntimeError, match=r"argument 0\[0\]"):
        k(xp.CudaArguments(x, float("nan"), 10))


# -- launch validation ---------------------------------------------------------------------


def test_emu_reports_h200_limits(kernel_device):
    limits = xp.cuda.device_launch_limits("emu")
    assert limits["max_threads_dim"] == (1024, 1024, 64)
    assert limits["max_grid_size"] == (2**31 - 1, 65535, 65535)
    assert limits["max_threads_per_block"] == 1024
    assert limits["shared_mem_per_block_optin"] == 232448


def test_launch_validation(kernel_device):
    if kernel_device != "emu":
        pytest.skip("the exact limits below are the emu device's")
    k = xp.CudaKernel(FILL, "fill", block_size=(1, 1))
    x = dev(numpy.zeros(4))
    with pytest.raises(
        ValueError, match=r"fill on emu \(gpupy emu.*\): grid\[1\]=65536 exceeds the 65535 limit"
    ):
        k(x, 1.0, 4, grid=(1, 65536))
    with pytest.raises(ValueError, match=r"block\[2\]=65 exceeds the 64 limit"):
        k(x, 1.0, 4, grid=(1,), block=(1, 1, 65))
    with pytest.raises(TypeError, match="must have dtype float64"):  # signature errors first
        k(dev(numpy.zeros(4, numpy.float32)), 1.0, 4, grid=(1, 65536))
    numpy.testing.assert_array_equal(gpupy.asnumpy(x), numpy.zeros(4))  # nothing launched
    k(x, 1.0, 4, grid=(4, 1))
    numpy.testing.assert_array_equal(gpupy.asnumpy(x), numpy.ones(4))


def test_shared_memory_limits(kernel_device):
    if kernel_device != "emu":
        pytest.skip("the exact limits below are the emu device's")
    k = xp.CudaKernel(SHARED, "shared_sum", block_size=64)
    x, out = dev(numpy.arange(64.0)), dev(numpy.zeros(1))
    k(x, out, 64, grid=1, shared_mem=64 * 8)
    assert gpupy.asnumpy(out)[0] == numpy.arange(64.0).sum()
    with pytest.raises(
        ValueError,
        match=r"static shared memory 0 \+ shared_mem=232449 exceeds the 232448-byte limit",
    ):
        k(x, out, 64, grid=1, shared_mem=227 * 1024 + 1)
    gpupy.asarray(out)[...] = 0
    k(x, out, 64, grid=1, shared_mem=100 * 1024)  # above 48 KiB: opts in
    assert gpupy.asnumpy(out)[0] == numpy.arange(64.0).sum()


# -- streams -------------------------------------------------------------------------------


class FakeStream:
    """Stands in for a gpupy.cuda.Stream of cuda:0 (no GPU here to create a real one)."""

    device = "cuda:0"
    handle = 0


def test_stream_argument(kernel_device, monkeypatch):
    k = xp.CudaKernel(FILL, "fill")
    x = dev(numpy.zeros(8))
    for bad in (0, "stream", object()):
        with pytest.raises(TypeError, match="stream must be a gpupy.cuda.Stream"):
            k(x, 1.0, 8, stream=bad)
    if kernel_device == "emu":
        monkeypatch.setattr(_cuda_launch_stream, "_STREAM_TYPES", (gpupy._core.Stream, FakeStream))
        with pytest.raises(ValueError, match="stream belongs to another device"):
            k(x, 1.0, 8, stream=FakeStream())
        numpy.testing.assert_array_equal(gpupy.asnumpy(x), numpy.zeros(8))


def test_arrays_on_another_device(kernel_device):
    k = xp.CudaKernel(FILL, "fill")
    with pytest.raises(TypeError, match="must be a device array"):
        k(gpupy.zeros(4, device="cpu"), 1.0, 4)


# -- CudaKernelVariants --------------------------------------------------------------------

TEMPLATE = r"""
template <typename T>
__global__ void affine(T* x, T a, T b, long long n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) x[i] = a * x[i] + b;
}
"""


def test_variants(kernel_device):
    made = []

    def factory(dtype):
        made.append(dtype)
        return xp.CudaKernel(TEMPLATE, "affine", template_args=[dtype])

    variants = xp.CudaKernelVariants(factory)
    assert len(variants) == 0
    assert variants.get(numpy.float32) is variants.get(numpy.float32)
    assert made == [numpy.float32]
    assert variants.compile_all([numpy.float64, (numpy.int32,)], jobs=2) == [
        (numpy.float32,),
        (numpy.float64,),
        (numpy.int32,),
    ]
    assert variants.keys() == list(variants) == [(numpy.float32,), (numpy.float64,), (numpy.int32,)]
    assert len(variants) == 3 and all(variants.get(*key).is_compiled for key in variants)
    for dt in (numpy.float32, numpy.float64, numpy.int32):
        x = dev(numpy.arange(10).astype(dt))
        variants.get(dt)(x, 3, 1, 10)
        numpy.testing.assert_array_equal(gpupy.asnumpy(x), 3 * numpy.arange(10).astype(dt) + 1)
    bad = xp.CudaKernelVariants(lambda key: "not a kernel")
    with pytest.raises(TypeError, match="the factory must return a CudaKernel"):
        bad.get(1)
    with pytest.raises(ValueError, match="jobs must be positive or None"):
        variants.compile_all(jobs=0)


def test_parallel_compile_reports_the_first_error_in_order(kernel_device):
    def broken(name):
        return xp.CudaKernel(f"__global__ void {name}(double* x) {{ oops; }}", name)

    ok = xp.CudaKernel(FILL, "fill")
    kernels = [("first_bad", broken("first_bad")), ("ok", ok), ("second_bad", broken("second_bad"))]
    with pytest.raises(RuntimeError, match="first_bad"):
        cuda_kernel.compile_kernels(kernels, jobs=3)
    assert ok.is_compiled  # every kernel was compiled although the first one failed
    ok2 = xp.CudaKernel(FILL + "\n", "fill")
    with pytest.raises(RuntimeError, match="second_bad"):
        cuda_kernel.compile_kernels([("bad", broken("second_bad")), ("ok", ok2)], jobs=1)
    assert not ok2.is_compiled  # serial: stops at the first error


def test_compile_all_on_cpu_raises(device_name):
    if device_name != "cpu":
        pytest.skip("checks the cpu device")
    v = xp.CudaKernelVariants(lambda: xp.CudaKernel(FILL, "fill"))
    with pytest.raises(RuntimeError, match="default device is cpu"):
        v.compile_all([()])


# -- device_function_kernel ----------------------------------------------------------------

HYPOT = r"""
__device__ double scaled_hypot(double x, double y) { return 2.0 * sqrt(x * x + y * y); }
"""


def test_device_function_kernel_source():
    k = device_function_kernel(HYPOT, "__device__ double scaled_hypot(double x, double y)")
    assert k.name == "scaled_hypot_kernel"
    assert [f"{p.ctype}{'*' if p.pointer else ''} {p.name}" for p in k.signature] == [
        "double* x",
        "double* y",
        "double* out",
        "int n",
    ]
    assert 'extern "C" __global__ void scaled_hypot_kernel(' in k.source
    assert "if (i >= n) return;" in k.source and "out[i] = scaled_hypot(x[i], y[i]);" in k.source
    k2 = device_function_kernel("", "double f(double x)", includes=("<cunumpy/index.cuh>", "my.h"))
    assert k2.source.startswith('#include <cunumpy/index.cuh>\n#include "my.h"\n')


def test_device_function_kernel_on_arrays(kernel_device):
    k = device_function_kernel(HYPOT, "__device__ double scaled_hypot(double x, double y);")
    rng = numpy.random.default_rng(0)
    x, y = rng.normal(size=1000), rng.normal(size=1000)
    out = dev(numpy.zeros(1000))
    k(dev(x), dev(y), out, 1000)
    numpy.testing.assert_allclose(gpupy.asnumpy(out), 2.0 * numpy.hypot(x, y), rtol=1e-14)


PARAMS = CudaStruct("Params", [("a", "double"), ("b", "double"), ("scale", "float*")])
AFFINE = (
    PARAMS.to_header()
    + r"""
__device__ float affine(const Params& p, float x, int k) {
  return (float)(p.a * x + p.b * k) * p.scale[0];
}
"""
)


def test_device_function_kernel_with_struct(kernel_device):
    k = device_function_kernel(
        AFFINE, "__device__ float affine(const Params& p, float x, int k)", structs=[PARAMS]
    )
    assert [p.name for p in k.signature] == ["p", "x", "k", "out", "n"]
    x = numpy.linspace(-1, 1, 300, dtype=numpy.float32)
    kk = numpy.arange(300, dtype=numpy.int32)
    scale = dev(numpy.array([0.5], numpy.float32))
    out = dev(numpy.zeros(300, numpy.float32))
    k(PARAMS(a=3.0, b=-0.25, scale=scale), dev(x), dev(kk), out, 300)  # n_threads from n
    with pytest.raises(TypeError, match="must be the int n"):
        k(PARAMS(a=3.0, b=-0.25, scale=scale), dev(x), dev(kk), out, 300.0)
    expected = (3.0 * x.astype(numpy.float64) - 0.25 * kk).astype(numpy.float32) * 0.5
    numpy.testing.assert_allclose(gpupy.asnumpy(out), expected, rtol=1e-6)


def test_device_function_kernel_void_with_pointer(kernel_device):
    src = "__device__ void bump(double* acc, long long x) { atomicAdd(acc, (double)x); }"
    k = device_function_kernel(src, "__device__ void bump(double* acc, long long x)")
    assert [p.name for p in k.signature] == ["acc", "x", "n"]
    acc = dev(numpy.zeros(1))
    k(acc, dev(numpy.arange(100, dtype=numpy.int64)), 100)  # n_threads from n
    assert gpupy.asnumpy(acc)[0] == 4950.0


@pytest.mark.parametrize(
    ("prototype", "message"),
    [
        ("double f(double x", "cannot parse the prototype"),
        ("double* f(double x)", "returns a pointer"),
        ("Params f(double x)", "returns a struct"),
        ("widget f(double x)", "unsupported return type"),
        ("double f(double& x)", "reference to a non-struct"),
        ("double f(double out)", "collides"),
        ("double f(int n, double x)", "collides"),
        ("double f(widget w)", "unsupported parameter type"),
    ],
)
def test_device_function_kernel_errors(prototype, message):
    with pytest.raises(ValueError, match=message):
        device_function_kernel(PARAMS.to_header(), prototype, structs=[PARAMS])
