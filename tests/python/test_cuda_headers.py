"""The kernel headers shipped under cunumpy/ (atomic, index, reduce, scan, random, morton, array
view bounds checks), each run in a kernel on emu against a NumPy or host reference."""

import gpupy
import numpy
import pytest
from gpupy import cunumpy as xp
from gpupy.cunumpy import algorithms, rng


@pytest.fixture
def emu(device_name):
    if device_name != "emu":
        pytest.skip("kernel launches need --device=emu here")


def dev(a):
    return gpupy.asarray(numpy.asarray(a))


# Published known-answer vectors of Philox4x32-10 (Random123, kat_vectors).
PHILOX_KAT = [
    ([0, 0, 0, 0], [0, 0], [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]),
    ([0xFFFFFFFF] * 4, [0xFFFFFFFF] * 2, [0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD]),
    (
        [0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344],
        [0xA4093822, 0x299F31D0],
        [0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1],
    ),
]


@pytest.mark.parametrize(("ctr", "key", "out"), PHILOX_KAT)
def test_host_philox_known_answers(ctr, key, out):
    assert rng.philox4x32_10(ctr, key).tolist() == out


def test_host_uniform_normal_statistics():
    u = rng.philox_uniform(7, numpy.arange(100000))
    assert 0.0 <= u.min() and u.max() < 1.0 and abs(u.mean() - 0.5) < 0.01
    z = rng.philox_normal(7, numpy.arange(100000))
    assert abs(z.mean()) < 0.02 and abs(z.std() - 1.0) < 0.02


RANDOM = r"""
#include <cunumpy/random.cuh>
#include <cunumpy/index.cuh>
__global__ void words(unsigned int* out, const unsigned int* in, long long n) {
    CUNUMPY_THREAD_1D(i, n);
    cunumpy_philox4x32 c = {{in[6 * i], in[6 * i + 1], in[6 * i + 2], in[6 * i + 3]}};
    cunumpy_philox4x32 r = cunumpy_philox4x32_10(c, in[6 * i + 4], in[6 * i + 5]);
    for (int k = 0; k < 4; ++k) out[4 * i + k] = r.v[k];
}
__global__ void draws(double* u, double* z, unsigned long long seed, long long n) {
    CUNUMPY_GRID_STRIDE_1D(i, n) {
        u[i] = cunumpy_philox_uniform(seed, i);
        z[i] = cunumpy_philox_normal(seed, i);
    }
}
"""


def test_device_philox_matches_host(emu):
    words = xp.CudaKernel(RANDOM, "words")
    inp = numpy.array([c + k for c, k, _ in PHILOX_KAT], numpy.uint32)
    out = dev(numpy.zeros((3, 4), numpy.uint32))
    words(out, dev(inp.ravel()), 3, n_threads=3)
    assert gpupy.asnumpy(out).tolist() == [o for _, _, o in PHILOX_KAT]
    u, z = dev(numpy.zeros(5000)), dev(numpy.zeros(5000))
    xp.CudaKernel(RANDOM, "draws")(u, z, 2**40 + 3, 5000, grid=4)
    seq = numpy.arange(5000)
    numpy.testing.assert_array_equal(gpupy.asnumpy(u), rng.philox_uniform(2**40 + 3, seq))
    numpy.testing.assert_allclose(gpupy.asnumpy(z), rng.philox_normal(2**40 + 3, seq), rtol=1e-13)


ATOMIC = r"""
#include <cunumpy/atomic.cuh>
#include <cunumpy/index.cuh>
template <class T>
__global__ void hist(T* bins, const int* which, long long n) {
    CUNUMPY_THREAD_1D(i, n);
    cunumpy_atomic_add(&bins[which[i]], T(1));
}
__global__ void grid2(double* g, long long n1, const int* ij, long long n) {
    CUNUMPY_THREAD_1D(i, n);
    cunumpy_atomic_add_2d(g, n1, ij[2 * i], ij[2 * i + 1], 0.5);
}
"""


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64, numpy.int32, numpy.int64])
def test_atomic_add(emu, dtype):
    which = numpy.random.default_rng(0).integers(0, 7, 3000).astype(numpy.int32)
    bins = dev(numpy.zeros(7, dtype))
    xp.CudaKernel(ATOMIC, "hist", template_args=(dtype,))(bins, dev(which), 3000, n_threads=3000)
    numpy.testing.assert_array_equal(gpupy.asnumpy(bins), numpy.bincount(which, minlength=7))
    ij = numpy.random.default_rng(1).integers(0, 4, (500, 2)).astype(numpy.int32)
    g = dev(numpy.zeros((4, 4)))
    xp.CudaKernel(ATOMIC, "grid2")(g, 4, dev(ij), 500, n_threads=500)
    want = numpy.zeros((4, 4))
    numpy.add.at(want, (ij[:, 0], ij[:, 1]), 0.5)
    numpy.testing.assert_array_equal(gpupy.asnumpy(g), want)


REDUCE = r"""
#include <cunumpy/reduce.cuh>
#include <cunumpy/scan.cuh>
__global__ void stats(const double* x, long long n, double* out, double* mins, double* maxs,
                      double* warp_sums) {
    long long i = CUNUMPY_GLOBAL_INDEX(); bool in = i < n;
    double v = in ? x[i] : 0.0;
    cunumpy_block_sum_to(out, v);
    double lo = cunumpy_block_min(in ? v : 1e300), hi = cunumpy_block_max(in ? v : -1e300);
    if (cunumpy_block_thread() == 0) { mins[blockIdx.x] = lo; maxs[blockIdx.x] = hi; }
    double w = cunumpy_warp_sum(v);
    if ((threadIdx.x & 31) == 0) warp_sums[i / 32] = w;
}
__global__ void scans(const int* x, int* inc, int* exc, int* wexc, int* totals) {
    long long i = CUNUMPY_GLOBAL_INDEX();
    int total;
    inc[i] = cunumpy_block_inclusive_sum(x[i], &total);
    exc[i] = cunumpy_block_exclusive_sum(x[i]);
    wexc[i] = cunumpy_warp_exclusive_sum(x[i]);
    if (threadIdx.x == 0) totals[blockIdx.x] = total;
}
""".replace("CUNUMPY_GLOBAL_INDEX()", "(long long)(blockIdx.x * blockDim.x + threadIdx.x)")


def test_reduce_and_scan(emu):
    x = numpy.random.default_rng(2).standard_normal(1000)
    out, mins, maxs = dev(numpy.zeros(1)), dev(numpy.zeros(8)), dev(numpy.zeros(8))
    ws = dev(numpy.zeros(32))
    xp.CudaKernel(REDUCE, "stats")(dev(x), 1000, out, mins, maxs, ws, n_threads=1000)
    assert gpupy.asnumpy(out)[0] == pytest.approx(x.sum(), rel=1e-12)
    pad = numpy.concatenate([x, numpy.zeros(24)])
    blocks = [x[b * 128 : (b + 1) * 128] for b in range(8)]
    numpy.testing.assert_array_equal(gpupy.asnumpy(mins), [b.min() for b in blocks])
    numpy.testing.assert_array_equal(gpupy.asnumpy(maxs), [b.max() for b in blocks])
    numpy.testing.assert_allclose(gpupy.asnumpy(ws), pad.reshape(32, 32).sum(1), rtol=1e-12)
    v = numpy.random.default_rng(3).integers(0, 9, 512).astype(numpy.int32)
    inc, exc, wexc = (dev(numpy.zeros(512, numpy.int32)) for _ in range(3))
    tot = dev(numpy.zeros(2, numpy.int32))
    xp.CudaKernel(REDUCE, "scans", block_size=256)(dev(v), inc, exc, wexc, tot, n_threads=512)
    b = v.reshape(2, 256)
    numpy.testing.assert_array_equal(gpupy.asnumpy(inc).reshape(2, 256), b.cumsum(1))
    numpy.testing.assert_array_equal(gpupy.asnumpy(exc).reshape(2, 256), b.cumsum(1) - b)
    w = v.reshape(16, 32)
    numpy.testing.assert_array_equal(gpupy.asnumpy(wexc).reshape(16, 32), w.cumsum(1) - w)
    numpy.testing.assert_array_equal(gpupy.asnumpy(tot), b.sum(1))


MORTON = r"""
#include <cunumpy/morton.cuh>
#include <cunumpy/index.cuh>
__global__ void keys(const unsigned int* c, unsigned long long* k2, unsigned long long* k3,
                     long long n) {
    CUNUMPY_THREAD_1D(i, n);
    k2[i] = cunumpy_morton_encode_2d(c[3 * i], c[3 * i + 1]);
    k3[i] = cunumpy_morton_encode_3d(c[3 * i], c[3 * i + 1], c[3 * i + 2]);
}
"""


def test_morton(emu):
    assert algorithms.morton_encode_2d(0b11, 0b01).tolist() == 0b0111
    assert algorithms.morton_encode_3d(1, 1, 1).tolist() == 7
    assert algorithms.morton_encode_3d(2, 0, 0).tolist() == 8
    c = numpy.random.default_rng(4).integers(0, 2**21, (300, 3)).astype(numpy.uint32)
    k2, k3 = dev(numpy.zeros(300, numpy.uint64)), dev(numpy.zeros(300, numpy.uint64))
    xp.CudaKernel(MORTON, "keys")(dev(c), k2, k3, 300)
    numpy.testing.assert_array_equal(
        gpupy.asnumpy(k2), algorithms.morton_encode_2d(c[:, 0], c[:, 1])
    )
    want3 = algorithms.morton_encode_3d(c[:, 0], c[:, 1], c[:, 2])
    numpy.testing.assert_array_equal(gpupy.asnumpy(k3), want3)


INDEX = r"""
#include <cunumpy/index.cuh>
__global__ void fill2(Array2D<int> a) {
    CUNUMPY_THREAD_2D(i, j, a.shape[0], a.shape[1]);
    a(i, j) = (int)(10 * i + j);
}
__global__ void fill3(CArray3D<int> a) {
    CUNUMPY_THREAD_3D(i, j, k, a.shape[0], a.shape[1], a.shape[2]);
    a(i, j, k) = (int)(100 * i + 10 * j + k);
}
__global__ void oob(Array1D<double> a, long long at) { a(at) = 1.0; }
"""


def test_index_macros(emu):
    a = dev(numpy.zeros((5, 7), numpy.int32))
    xp.CudaKernel(INDEX, "fill2", block_size=(4, 4))(a)
    numpy.testing.assert_array_equal(
        gpupy.asnumpy(a), numpy.add.outer(10 * numpy.arange(5), numpy.arange(7))
    )
    b = dev(numpy.zeros((3, 4, 5), numpy.int32))
    xp.CudaKernel(INDEX, "fill3", block_size=(2, 2, 2))(b)
    i, j, k = numpy.indices((3, 4, 5))
    numpy.testing.assert_array_equal(gpupy.asnumpy(b), 100 * i + 10 * j + k)


def test_bounds_check(emu):
    a = dev(numpy.zeros(4))
    xp.CudaKernel(INDEX, "oob")(a, 3, n_threads=1)  # in range, no check compiled in
    k = xp.CudaKernel(INDEX, "oob", options=("-DCUNUMPY_BOUNDS_CHECK",))
    k(a, 2, n_threads=1)
    with pytest.raises(Exception, match="index 4 is out of bounds for axis 0 with size 4"):
        k(a, 4, n_threads=1)
