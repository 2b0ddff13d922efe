"""gpupy.ElementwiseKernel, ReductionKernel and RawKernel (CuPy's user kernels) on emu and cuda,
each result compared with NumPy computing the same thing; and every bad input's error."""

import gpupy
import numpy
import pytest
from gpupy import _core

RNG = numpy.random.default_rng(7)

SQ_DIFF = gpupy.ElementwiseKernel(
    "float32 x, float32 y", "float32 z", "z = (x - y) * (x - y)", "sqd"
)
MUL_ADD = gpupy.ElementwiseKernel("T x, T y", "T z", "z = x * y + x", "mul_add")
REVERSE = gpupy.ElementwiseKernel("raw T x", "T y", "y = x[_ind.size() - i - 1]", "reverse")
L2 = gpupy.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")
MAX_ABS = gpupy.ReductionKernel("T x", "T y", "abs(x)", "max(a, b)", "y = a", None, "max_abs")
SAXPY_SRC = r"""
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}
"""
SAXPY = gpupy.RawKernel(SAXPY_SRC, "saxpy")


def _dev(h):
    return gpupy.asarray(h)


# ElementwiseKernel


def test_squared_difference_broadcasts(kernel_device):
    x = numpy.arange(10, dtype=numpy.float32).reshape(2, 5)
    y = RNG.standard_normal(5).astype(numpy.float32)
    z = SQ_DIFF(_dev(x), _dev(y))
    assert z.dtype == numpy.float32 and z.shape == (2, 5) and str(z.device) == kernel_device
    numpy.testing.assert_allclose(z.get(), (x - y) ** 2, rtol=1e-6)
    numpy.testing.assert_allclose(SQ_DIFF(_dev(x), 5).get(), (x - 5) ** 2, rtol=1e-6)
    numpy.testing.assert_allclose(SQ_DIFF(2.5, _dev(x)).get(), (2.5 - x) ** 2, rtol=1e-6)


@pytest.mark.parametrize(
    "dtype", ["int32", "uint8", "float16", "float32", "float64", "complex64", "complex128"]
)
def test_placeholder_binds_each_dtype(kernel_device, dtype):
    x = (numpy.arange(12) % 7 + 1).astype(dtype).reshape(3, 4)
    y = x[::-1].copy()
    if dtype == "complex128":
        x = x + 1j * numpy.arange(12).reshape(3, 4)
    z = MUL_ADD(_dev(x), _dev(y))
    assert z.dtype == numpy.dtype(dtype)
    numpy.testing.assert_array_equal(z.get(), x * y + x)


def test_python_scalar_takes_the_placeholder_dtype(kernel_device):
    x = numpy.arange(-4, 6, dtype=numpy.int32)
    z = MUL_ADD(_dev(x), 2.7)  # 2.7 becomes int32(2), as CuPy casts scalars to T
    assert z.dtype == numpy.int32
    numpy.testing.assert_array_equal(z.get(), x * 2 + x)
    f = numpy.linspace(0, 1, 7, dtype=numpy.float32)
    numpy.testing.assert_allclose(MUL_ADD(_dev(f), 0.1).get(), f * numpy.float32(0.1) + f)


def test_raw_index_reverses(kernel_device):
    h = RNG.standard_normal(37)
    out = gpupy.empty(37)
    assert REVERSE(_dev(h), out) is out
    numpy.testing.assert_array_equal(out.get(), h[::-1])
    strided = _dev(numpy.arange(40.0).reshape(8, 5))[::2, 1::2]  # raw and non-contiguous
    res = REVERSE(strided, gpupy.empty((4, 2)))
    numpy.testing.assert_array_equal(
        res.get(), numpy.arange(40.0).reshape(8, 5)[::2, 1::2].ravel()[::-1].reshape(4, 2)
    )


def test_non_contiguous_inputs_and_outputs_are_indexed_in_place(kernel_device):
    base = RNG.standard_normal((6, 8, 5))
    x = _dev(base).transpose(2, 0, 1)[:, ::2, 1:7]
    y = _dev(base[0].T.copy())[:, None, 1:7]  # (5, 1, 6): broadcast along axis 1
    out_base = gpupy.zeros((5, 3, 12))
    out = out_base[:, :, ::2]
    assert MUL_ADD(x, y, out) is out
    hx = base.transpose(2, 0, 1)[:, ::2, 1:7]
    hy = base[0].T[:, None, 1:7]
    expect = numpy.zeros((5, 3, 12))
    expect[:, :, ::2] = hx * hy + hx
    numpy.testing.assert_allclose(out_base.get(), expect, rtol=1e-15)
    no_collapse = gpupy.ElementwiseKernel(
        "T x, T y", "T z", "z = x * y + x", "mul_add_nd", reduce_dims=False
    )
    numpy.testing.assert_allclose(no_collapse(x, y).get(), hx * hy + hx, rtol=1e-15)


def test_outputs_tuple_no_return_and_zero_d(kernel_device):
    k = gpupy.ElementwiseKernel("T x", "T s, T d", "s = x + x; d = x * x", "twice")
    h = numpy.arange(5.0)
    s, d = k(_dev(h))
    numpy.testing.assert_array_equal(s.get(), 2 * h)
    numpy.testing.assert_array_equal(d.get(), h * h)
    one = gpupy.ElementwiseKernel("T x", "T y", "y = -x", "neg", return_tuple=True)
    (y,) = one(_dev(h))
    numpy.testing.assert_array_equal(y.get(), -h)
    z = one(_dev(numpy.float64(3.5)))[0]
    assert z.shape == () and float(z.get()) == -3.5
    sink = gpupy.ElementwiseKernel("T x", "T y", "y = x + 1", "inc", no_return=True)
    out = gpupy.empty(5)
    assert sink(_dev(h), out) is None
    numpy.testing.assert_array_equal(out.get(), h + 1)
    empty = MUL_ADD(_dev(numpy.zeros((0, 3))), _dev(numpy.ones(3)))
    assert empty.shape == (0, 3)


def test_size_with_raw_arrays_preamble_and_loop_hooks(kernel_device):
    k = gpupy.ElementwiseKernel(
        "raw T x, int32 k",
        "raw T y",
        "y[i] = sq(x[i]) + k + offset",
        "raw_sq",
        preamble="template <class U> __device__ U sq(U v) { return v * v; }",
        loop_prep="const T offset = T(10)",
    )
    h = numpy.arange(9, dtype=numpy.int64)
    y = gpupy.zeros(12, dtype=numpy.int64)
    k(_dev(h), 3, y, size=9)
    expect = numpy.zeros(12, dtype=numpy.int64)
    expect[:9] = h * h + 13
    numpy.testing.assert_array_equal(y.get(), expect)


def test_bool_and_mixed_fixed_types(kernel_device):
    k = gpupy.ElementwiseKernel("bool m, float64 x, T y", "T z", "z = m ? T(x) : y", "select")
    m = numpy.array([True, False, True, False])
    x = numpy.array([1.5, 2.5, 3.5, 4.5])
    y = numpy.array([10, 20, 30, 40], dtype=numpy.int16)
    z = k(_dev(m), _dev(x), _dev(y))
    assert z.dtype == numpy.int16
    numpy.testing.assert_array_equal(z.get(), numpy.where(m, x.astype(numpy.int16), y))


# ReductionKernel


@pytest.mark.parametrize("axis", [0, 1, None, -1, (0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_l2_norm_and_max_abs(kernel_device, axis, keepdims):
    h = RNG.standard_normal((37, 300))
    g = _dev(h)
    r = L2(g, axis=axis, keepdims=keepdims)
    ref = numpy.sqrt((h * h).sum(axis=axis, keepdims=keepdims))
    assert r.shape == ref.shape and r.dtype == numpy.float64
    numpy.testing.assert_allclose(r.get(), ref, rtol=1e-12)
    m = MAX_ABS(g, axis=axis, keepdims=keepdims)
    numpy.testing.assert_array_equal(m.get(), numpy.abs(h).max(axis=axis, keepdims=keepdims))


def test_reduction_float32_strided_and_3d(kernel_device):
    h = RNG.standard_normal((6, 7, 40)).astype(numpy.float32)
    view = _dev(h).transpose(2, 0, 1)[::3]  # (14, 6, 7), non-contiguous
    hv = h.transpose(2, 0, 1)[::3]
    for axis in [(0, 2), (1,), 2, None]:
        r = L2(view, axis=axis)
        assert r.dtype == numpy.float32
        ref = numpy.sqrt((hv.astype(numpy.float64) ** 2).sum(axis=axis))
        numpy.testing.assert_allclose(r.get(), ref, rtol=1e-5)


def test_reduction_two_inputs_broadcast_and_out(kernel_device):
    dot = gpupy.ReductionKernel("T x, T y", "T z", "x * y", "a + b", "z = a", "0", "rowdot")
    a = RNG.standard_normal((9, 50))
    b = RNG.standard_normal(50)
    numpy.testing.assert_allclose(dot(_dev(a), _dev(b), axis=1).get(), a @ b, rtol=1e-12)
    out = gpupy.empty((9, 1))
    assert dot(_dev(a), _dev(b), axis=1, keepdims=True, out=out) is out
    numpy.testing.assert_allclose(out.get(), (a @ b)[:, None], rtol=1e-12)
    positional = gpupy.empty(50)
    dot(_dev(a), _dev(b), positional, axis=0)
    numpy.testing.assert_allclose(positional.get(), (a * b).sum(axis=0), rtol=1e-12)
    scaled = gpupy.ReductionKernel("T x, T w", "T z", "x * w", "a + b", "z = a", "0", "scaled_sum")
    numpy.testing.assert_allclose(
        scaled(_dev(a), 0.5, axis=0).get(), 0.5 * a.sum(axis=0), rtol=1e-12
    )


def test_reduction_positional_aliases_and_type_names(kernel_device):
    # in0/out0 and type_in0_raw as CuPy's reductions name them, next to the parameter names
    k = gpupy.ReductionKernel(
        "T x, float64 w",
        "T total, float64 count",
        "type_in0_raw(in0 * in1)",
        "a + b",
        "out0 = a, count = in_count",
        "0",
        "aliased",
        preamble="#define in_count 7.0",
    )
    h = numpy.arange(12.0).reshape(3, 4)
    total, count = k(_dev(h), 0.5, axis=0)
    numpy.testing.assert_array_equal(total.get(), 0.5 * h.sum(axis=0))
    numpy.testing.assert_array_equal(count.get(), numpy.full(4, 7.0))


def test_reduce_type_widens_the_accumulator(kernel_device):
    k = gpupy.ReductionKernel(
        "int8 x", "int64 y", "x", "a + b", "y = a", "0", "wide_sum", reduce_type="long long"
    )
    h = numpy.full((3, 1000), 100, dtype=numpy.int8)
    numpy.testing.assert_array_equal(k(_dev(h), axis=1).get(), h.sum(axis=1, dtype=numpy.int64))


def test_fixed_output_type_without_reduce_type(kernel_device):
    # reduce_type defaults to the output's type when the output has a dtype, not a placeholder
    k = gpupy.ReductionKernel("float64 x", "float64 y", "x", "a + b", "y = a", "0", "fixed_sum")
    h = numpy.arange(100.0).reshape(4, 25)
    numpy.testing.assert_array_equal(k(_dev(h), axis=1).get(), h.sum(axis=1))


def test_complex_reduction(kernel_device):
    h = RNG.standard_normal((5, 33)) + 1j * RNG.standard_normal((5, 33))
    s = gpupy.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "csum")
    numpy.testing.assert_allclose(s(_dev(h), axis=1).get(), h.sum(axis=1), rtol=1e-12)


def test_empty_reductions(kernel_device):
    numpy.testing.assert_array_equal(L2(_dev(numpy.zeros((4, 0))), axis=1).get(), numpy.zeros(4))
    with pytest.raises(ValueError, match=r"\[ReductionKernel\] zero-size array .* no identity"):
        MAX_ABS(_dev(numpy.zeros((4, 0))), axis=1)
    assert MAX_ABS(_dev(numpy.zeros((0, 4))), axis=1).shape == (0,)


def test_large_reduction(kernel_device):
    h = RNG.standard_normal(200_000)
    numpy.testing.assert_allclose(L2(_dev(h)).get(), numpy.sqrt((h * h).sum()), rtol=1e-12)


# RawKernel


def test_raw_kernel_saxpy_grid_stride(kernel_device):
    x = RNG.standard_normal(1000).astype(numpy.float32)
    y = RNG.standard_normal(1000).astype(numpy.float32)
    gy = _dev(y)
    SAXPY((4,), (64,), (numpy.float32(2.5), _dev(x), gy, 1000))  # 256 threads cover 1000
    numpy.testing.assert_allclose(gy.get(), numpy.float32(2.5) * x + y, rtol=1e-6)
    SAXPY(2, 32, [1.5, _dev(x), gy, 10])  # ints for grid/block, a list of args, Python scalars
    numpy.testing.assert_allclose(gy.get()[:10], 1.5 * x[:10] + 2.5 * x[:10] + y[:10], rtol=1e-6)


def test_raw_kernel_dynamic_shared_memory_and_2d(kernel_device):
    src = r"""
    extern "C" __global__ void block_sums(const double* x, double* out, int n) {
      extern __shared__ double s[];
      int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
      s[t] = i < n ? x[i] : 0.0;
      __syncthreads();
      for (int w = blockDim.x / 2; w > 0; w >>= 1) {
        if (t < w) s[t] += s[t + w];
        __syncthreads();
      }
      if (t == 0) out[blockIdx.x] = s[0];
    }
    extern "C" __global__ void fill2d(int* out, int nx, int ny) {
      int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
      if (i < nx && j < ny) out[j * nx + i] = 100 * j + i;
    }
    """
    h = RNG.standard_normal(1000)
    out = gpupy.zeros(8)
    k = gpupy.RawKernel(src, "block_sums")
    k((8,), (128,), (_dev(h), out, 1000), shared_mem=128 * 8)
    numpy.testing.assert_allclose(
        out.get(), numpy.add.reduceat(h, numpy.arange(0, 1000, 128)), rtol=1e-12
    )
    grid_out = gpupy.zeros((6, 5), dtype=numpy.int32)
    gpupy.RawKernel(src, "fill2d")((2, 3), (4, 2), (grid_out, 5, 6))
    numpy.testing.assert_array_equal(
        grid_out.get(), 100 * numpy.arange(6)[:, None] + numpy.arange(5)
    )


def test_raw_kernel_abs_of_a_double_is_not_truncated(kernel_device):
    k = gpupy.RawKernel(
        'extern "C" __global__ void absd(double* y) { y[threadIdx.x] = abs(y[threadIdx.x]); }',
        "absd",
    )
    h = numpy.array([-2.5, 1.25, -0.75, 3.0])
    y = _dev(h)
    k(1, 4, (y,))
    numpy.testing.assert_array_equal(y.get(), numpy.abs(h))


def test_raw_kernel_compile_and_attributes(kernel_device):
    k = gpupy.RawKernel(SAXPY_SRC, "saxpy", options=("-DUNUSED=1",))
    k.compile()
    assert 0 < k.max_threads_per_block <= 1024
    assert k.attributes["shared_size_bytes"] == 0
    assert (k.code, k.name, k.options, k.backend) == (SAXPY_SRC, "saxpy", ("-DUNUSED=1",), "nvrtc")


def test_generated_sources_compile_with_nvrtc(kernel_device):
    """Every source generated above (complex, float16-free, raw, reductions) also compiles for
    the GPU: NVRTC needs no GPU to produce a CUBIN."""
    ok, reason = _core._nvrtc_available()
    if not ok:
        pytest.skip(f"NVRTC unavailable: {reason}")
    h = numpy.arange(6.0) + 1j
    MUL_ADD(_dev(h), _dev(h))
    MUL_ADD(_dev(numpy.ones(3, numpy.float16)), 2)
    REVERSE(_dev(numpy.arange(4.0)), gpupy.empty(4))
    L2(_dev(numpy.ones((2, 3), numpy.float32)), axis=0)
    MAX_ABS(_dev(numpy.ones((2, 3), numpy.float32)), axis=None)
    csum = gpupy.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "csum_nvrtc")
    csum(_dev(h.reshape(2, 3)), axis=1)
    kernels = [*MUL_ADD.cached_codes.values(), *REVERSE.cached_codes.values()]
    kernels += [*L2.cached_codes.values(), *MAX_ABS.cached_codes.values()]
    kernels += [*csum.cached_codes.values()]
    for k in kernels:
        assert len(k.cubin()) > 0
    assert len(SAXPY._kernel.cubin()) > 0


def test_repeated_calls_replay_with_new_values_and_keep_their_checks(kernel_device):
    k = gpupy.ElementwiseKernel("T x, T y", "T z", "z = x * y - x", "replayed")
    h = numpy.arange(8, dtype=numpy.int32).reshape(2, 4)
    for scale in (2, 3, -7):  # same argument kinds: the later calls replay the first one's plan
        h = h + scale
        numpy.testing.assert_array_equal(k(_dev(h), scale).get(), h * scale - h)
        out = gpupy.empty((2, 4), dtype=numpy.int32)
        assert k(_dev(h), numpy.int32(scale), out) is out
        numpy.testing.assert_array_equal(out.get(), h * scale - h)
    with pytest.raises(OverflowError, match=r"parameter 'y' \(int32\)"):
        k(_dev(h), 2**40)
    frozen = gpupy.empty((2, 4), dtype=numpy.int32)
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match=r"output 'z' is read-only"):
        k(_dev(h), 1, frozen)
    wide = numpy.arange(12.0).reshape(3, 4)
    numpy.testing.assert_array_equal(k(_dev(wide)[::2], 2.0).get(), wide[::2] * 2 - wide[::2])
    numpy.testing.assert_array_equal(k(_dev(wide)[1:], 2.0).get(), wide[1:] * 2 - wide[1:])
    with pytest.raises(ValueError, match=r"arrays on different devices"):
        k(_dev(h), gpupy.ones((2, 4), dtype=numpy.int32, device="cpu"))


def _random_view(rng, ndim):
    """A random strided view (slices with steps, maybe transposed) of a fresh host array, and the
    same view of its device copy."""
    shape = tuple(int(n) for n in rng.integers(1, 6, ndim))
    big = rng.standard_normal(tuple(2 * n + 1 for n in shape))
    key = tuple(slice(int(rng.integers(0, 2)), None, 2) for _ in shape)
    perm = tuple(int(a) for a in rng.permutation(ndim))
    return big[key].transpose(perm), _dev(big)[key].transpose(perm)


def test_random_strided_broadcasts_match_numpy(kernel_device):
    rng = numpy.random.default_rng(11)
    for _ in range(12):
        hx, gx = _random_view(rng, int(rng.integers(1, 5)))
        drop = int(rng.integers(0, hx.ndim))  # y broadcasts against x along its leading axes
        hy = rng.standard_normal(hx.shape[drop:])
        numpy.testing.assert_allclose(MUL_ADD(gx, _dev(hy)).get(), hx * hy + hx, rtol=1e-15)


def test_random_axes_reductions_match_numpy(kernel_device):
    rng = numpy.random.default_rng(12)
    for _ in range(10):
        hx, gx = _random_view(rng, int(rng.integers(1, 5)))
        axes = tuple(int(a) for a in numpy.flatnonzero(rng.integers(0, 2, hx.ndim)))
        keepdims = bool(rng.integers(0, 2))
        ref = numpy.abs(hx).max(axis=axes, keepdims=keepdims)
        got = MAX_ABS(gx, axis=axes, keepdims=keepdims)
        assert got.shape == ref.shape
        numpy.testing.assert_array_equal(got.get(), ref)


def test_kernels_sharing_a_name_keep_their_own_code(kernel_device):
    plus = gpupy.ElementwiseKernel("T x", "T y", "y = x + 1")  # both named 'kernel'
    times = gpupy.ElementwiseKernel("T x", "T y", "y = x * 10")
    h = numpy.arange(4.0)
    numpy.testing.assert_array_equal(plus(_dev(h)).get(), h + 1)
    numpy.testing.assert_array_equal(times(_dev(h)).get(), h * 10)
    numpy.testing.assert_array_equal(plus(_dev(h)).get(), h + 1)


def test_negative_strides_in_inputs_outputs_and_raw(kernel_device):
    h = numpy.arange(24.0).reshape(4, 6)
    g = _dev(h)
    x, y = h[::-1, ::-2], h[:, ::2]
    numpy.testing.assert_array_equal(MUL_ADD(g[::-1, ::-2], g[:, ::2]).get(), x * y + x)
    out = gpupy.zeros((4, 6))
    MUL_ADD(g, g, out[::-1])
    numpy.testing.assert_array_equal(out.get(), (h * h + h)[::-1])
    numpy.testing.assert_allclose(
        L2(g[::-1, ::-1], axis=0).get(), numpy.sqrt((h[::-1, ::-1] ** 2).sum(0)), rtol=1e-15
    )
    res = REVERSE(g[::-1], gpupy.empty((4, 6)))
    numpy.testing.assert_array_equal(res.get(), h[::-1].ravel()[::-1].reshape(4, 6))


@pytest.mark.parametrize(
    ("shape", "axis"), [((1, 500), 0), ((3, 777), 0), ((5, 7), 1), ((2, 3, 5), (0, 2))]
)
def test_short_reductions_share_blocks(kernel_device, shape, axis):
    # short reductions put several outputs in one block; every output must get its own value
    h = RNG.standard_normal(shape)
    out_base = gpupy.zeros((2,) + numpy.sum(h, axis=axis).shape)
    out = out_base[1]  # a view with an offset
    L2(_dev(h), axis=axis, out=out)
    numpy.testing.assert_allclose(out.get(), numpy.sqrt((h * h).sum(axis=axis)), rtol=1e-14)
    numpy.testing.assert_array_equal(out_base.get()[0], 0.0)
    numpy.testing.assert_array_equal(MAX_ABS(_dev(h), axis=axis).get(), numpy.abs(h).max(axis=axis))


def test_many_call_layouts_stay_correct_and_bounded(kernel_device):
    # Every new shape is a new remembered layout; the oldest are dropped past a bound.
    kernel = gpupy.ElementwiseKernel("T x", "T y", "y = x + 1", "plus_one")
    for n in range(1, 300):
        h = numpy.arange(n, dtype=numpy.int32)
        numpy.testing.assert_array_equal(kernel(_dev(h)).get(), h + 1)
    assert len(kernel._plans) <= 256
    numpy.testing.assert_array_equal(
        kernel(_dev(numpy.arange(5, dtype=numpy.int32))).get(), numpy.arange(1, 6)
    )
