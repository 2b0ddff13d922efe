"""gpupy.random: Philox4x32-10 streams generated on the device under test, checked bit for bit
against the host reference gpupy.cunumpy.rng, and statistically."""

import math

import gpupy
import numpy
import pytest
from gpupy.cunumpy import rng as ref

N = 1_000_000


def _words(seed, counters):
    counters = numpy.asarray(counters, dtype=numpy.uint64)
    ctr = numpy.zeros(counters.shape + (4,), numpy.uint32)
    ctr[..., 0] = counters & numpy.uint64(0xFFFFFFFF)
    ctr[..., 1] = counters >> numpy.uint64(32)
    key = numpy.array([seed & 0xFFFFFFFF, seed >> 32], numpy.uint32)
    return ref.philox4x32_10(ctr, key)


@pytest.mark.parametrize("seed", [0, 1, 12345, 2**63 + 17])
def test_uniform_float64_bitwise_equals_reference(seed):
    g = gpupy.random.default_rng(seed)
    first = g.random(1000)
    second = g.random((10, 7))  # continues the counter where the first draw stopped
    numpy.testing.assert_array_equal(first.get(), ref.philox_uniform(seed, numpy.arange(1000)))
    expected = ref.philox_uniform(seed, numpy.arange(1000, 1070)).reshape(10, 7)
    numpy.testing.assert_array_equal(second.get(), expected)
    assert first.device == gpupy.get_default_device()


def test_uniform_float32_and_bits_equal_reference():
    seed = 99
    g = gpupy.random.default_rng(seed)
    got = g.random(500, dtype=numpy.float32)
    assert got.dtype == numpy.float32
    w = _words(seed, numpy.arange(500))
    expected = (w[:, 0] >> 8).astype(numpy.float32) * numpy.float32(2.0**-24)
    numpy.testing.assert_array_equal(got.get(), expected)
    # integers over the full uint64 range are the raw 64 bits (w0 << 32) | w1.
    bits = g.integers(0, 2**64, size=300, dtype=numpy.uint64)
    w = _words(seed, numpy.arange(500, 800)).astype(numpy.uint64)
    numpy.testing.assert_array_equal(bits.get(), (w[:, 0] << numpy.uint64(32)) | w[:, 1])


def test_normal_equals_reference():
    g = gpupy.random.default_rng(5)
    got = g.standard_normal(2000).get()
    numpy.testing.assert_allclose(got, ref.philox_normal(5, numpy.arange(2000)), rtol=1e-13)
    got32 = gpupy.random.default_rng(5).standard_normal(2000, dtype=numpy.float32)
    assert got32.dtype == numpy.float32
    numpy.testing.assert_allclose(got32.get(), got.astype(numpy.float32), rtol=1e-6)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("loc,scale", [(0.0, 1.0), (2.5, 3.0), (-1, 0.5), (0, 1)])
def test_scaled_samplers_are_loc_plus_scale_times_the_stream_exactly(loc, scale, dtype):
    # normal = loc + scale * standard_normal and uniform = low + width * random, each step
    # rounded in dtype as NumPy rounds it: bit for bit the same stream.
    dt = numpy.dtype(dtype)
    z = gpupy.random.default_rng(8).standard_normal(999, dtype=dtype).get()
    got = gpupy.random.default_rng(8).normal(loc, scale, size=999, dtype=dtype)
    assert got.dtype == dt
    numpy.testing.assert_array_equal(got.get(), z * dt.type(scale) + dt.type(loc))
    u = gpupy.random.default_rng(9).random(999, dtype=dtype).get()
    got = gpupy.random.default_rng(9).uniform(loc, loc + scale, size=999, dtype=dtype)
    width = dt.type(float(loc + scale) - float(loc))
    numpy.testing.assert_array_equal(got.get(), u * width + dt.type(loc))


@pytest.mark.parametrize(
    "low,high,dtype",
    [(0, 100, "int64"), (-50, 50, "int8"), (7, 2**40, "uint64"), (-(2**63), 2**63 - 1, "int64")],
)
def test_integers_are_the_bits_reduced_exactly(low, high, dtype):
    # integers = low + bits % span on the raw 64-bit stream, wrapped into dtype.
    bits = gpupy.random.default_rng(10).integers(0, 2**64, size=500, dtype=numpy.uint64).get()
    got = gpupy.random.default_rng(10).integers(low, high, size=500, dtype=dtype)
    span = numpy.uint64(high - low)
    expected = (bits % span + numpy.uint64(low % 2**64)).astype(dtype)
    assert got.dtype == numpy.dtype(dtype)
    numpy.testing.assert_array_equal(got.get(), expected)


def test_reproducible_and_distinct_streams():
    a = gpupy.random.default_rng(42).random(1000).get()
    b = gpupy.random.default_rng(42).random(1000).get()
    c = gpupy.random.default_rng(43).random(1000).get()
    numpy.testing.assert_array_equal(a, b)
    assert numpy.mean(a == c) < 0.01
    g = gpupy.random.default_rng(42)
    assert gpupy.random.default_rng(g) is g
    assert isinstance(gpupy.random.default_rng(), gpupy.random.Generator)
    x, y = gpupy.random.default_rng().random(8).get(), gpupy.random.default_rng().random(8).get()
    assert not numpy.array_equal(x, y)


def test_same_numbers_on_every_device(device_name):
    here = gpupy.random.default_rng(7).normal(1.0, 2.0, size=300, device=device_name)
    on_cpu = gpupy.random.default_rng(7).normal(1.0, 2.0, size=300, device="cpu")
    assert here.device == gpupy.Device(device_name)
    numpy.testing.assert_allclose(here.get(), on_cpu.get(), rtol=1e-14)
    numpy.testing.assert_array_equal(
        gpupy.random.default_rng(7).random(300, device=device_name).get(),
        gpupy.random.default_rng(7).random(300, device="cpu").get(),
    )


def _unit53(a, b):
    return (((int(a) << 32) | int(b)) >> 11) * (1.0 / 9007199254740992.0)


def _host_normal(seed, counters):
    """Box-Muller with the C library's log and cos (Python's math module calls the same ones)."""
    w = _words(seed, counters)
    return numpy.array(
        [
            math.sqrt(-2.0 * math.log(1.0 - _unit53(a, b)))
            * math.cos(6.283185307179586 * _unit53(x, y))
            for a, b, x, y in w
        ]
    )


# The cpu draws eight counters per vector step and Box-Muller in blocks of 256: sizes around
# those, and counters whose low word wraps inside a step (and the 2**64 wrap), hit every edge.
@pytest.mark.parametrize("counter", [0, 2**32 - 3, 2**33 - 260, 2**64 - 5])
@pytest.mark.parametrize("n", [1, 7, 8, 9, 255, 257, 1031])
def test_draws_at_vector_edges_equal_reference(device_name, counter, n):
    seed = 2**63 + 12345
    g = gpupy.random.Generator(seed, counter)
    u = g.random(n, device=device_name)
    f = g.random(n, dtype=numpy.float32, device=device_name)
    bits = g.integers(0, 2**64, size=n, dtype=numpy.uint64, device=device_name)
    z = g.standard_normal(n, device=device_name).get()
    z32 = g.standard_normal(n, dtype=numpy.float32, device=device_name).get()
    c = [(counter + k * n + numpy.arange(n, dtype=object)) % 2**64 for k in range(5)]
    c = [numpy.asarray(x, dtype=numpy.uint64) for x in c]
    numpy.testing.assert_array_equal(u.get(), ref.philox_uniform(seed, c[0]))
    w = _words(seed, c[1])
    expected = (w[:, 0] >> 8).astype(numpy.float32) * numpy.float32(2.0**-24)
    numpy.testing.assert_array_equal(f.get(), expected)
    w = _words(seed, c[2]).astype(numpy.uint64)
    numpy.testing.assert_array_equal(bits.get(), (w[:, 0] << numpy.uint64(32)) | w[:, 1])
    # Bit for bit on the host devices, to the last bits of CUDA's log and cos on cuda.
    expected = _host_normal(seed, c[3])
    expected32 = _host_normal(seed, c[4]).astype(numpy.float32)
    if device_name == "cuda":
        numpy.testing.assert_allclose(z, expected, rtol=1e-13, atol=1e-300)
        numpy.testing.assert_allclose(z32, expected32, rtol=1e-6)
    else:
        numpy.testing.assert_array_equal(z, expected)
        numpy.testing.assert_array_equal(z32, expected32)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_statistics(dtype):
    g = gpupy.random.default_rng(2024)
    u = g.random(N, dtype=dtype).get().astype(numpy.float64)
    assert u.min() >= 0.0 and u.max() < 1.0
    # 1e6 samples: the standard error of the mean is 2.9e-4 (uniform) and 1e-3 (normal).
    assert abs(u.mean() - 0.5) < 2e-3 and abs(u.var() - 1 / 12) < 2e-3
    z = g.standard_normal(N, dtype=dtype).get().astype(numpy.float64)
    assert abs(z.mean()) < 5e-3 and abs(z.var() - 1) < 1e-2
    assert abs(numpy.mean(z**3)) < 2e-2 and abs(numpy.mean(z**4) - 3) < 5e-2
    n = g.normal(3.0, 0.5, N, dtype=dtype).get()
    assert abs(n.mean() - 3.0) < 3e-3 and abs(n.std() - 0.5) < 3e-3
    v = g.uniform(-2.0, 6.0, N, dtype=dtype).get()
    assert v.min() >= -2.0 and v.max() < 6.0 and abs(v.mean() - 2.0) < 2e-2


@pytest.mark.parametrize(
    "low,high,endpoint,dtype",
    [
        (0, 10, False, "int64"),
        (-5, 5, True, "int32"),
        (-128, 127, True, "int8"),
        (0, 255, True, "uint8"),
        (3, 4, False, "int64"),
        (-(2**63), 2**63 - 1, True, "int64"),
    ],
)
def test_integers_exact_range(low, high, endpoint, dtype):
    g = gpupy.random.default_rng(11)
    x = g.integers(low, high, size=200_000, dtype=dtype, endpoint=endpoint)
    assert x.dtype == numpy.dtype(dtype)
    h = x.get().astype(numpy.float64)
    top = high if endpoint else high - 1
    assert h.min() >= low and h.max() <= top
    span = top - low + 1
    if span <= 256:
        counts = numpy.bincount((x.get().astype(numpy.int64) - low), minlength=span)
        assert counts.min() > 0 and counts.size == span  # both ends are reached
        expected = 200_000 / span
        chi2 = numpy.sum((counts - expected) ** 2 / expected)
        assert chi2 < span + 6 * numpy.sqrt(2 * span)  # far beyond 5 sigma for a biased draw


def test_integers_single_argument_and_scalar():
    g = gpupy.random.default_rng(1)
    x = g.integers(5, size=1000)
    assert x.dtype == numpy.int64 and x.get().min() == 0 and x.get().max() == 4
    s = g.integers(3, 9)
    assert isinstance(s, int) and 3 <= s < 9
    r = g.random()
    assert isinstance(r, float) and 0 <= r < 1


def test_permutation_and_shuffle():
    g = gpupy.random.default_rng(3)
    p = g.permutation(50)
    assert sorted(p.get().tolist()) == list(range(50))
    assert p.get().tolist() != list(range(50))
    x = gpupy.arange(30).reshape(10, 3)
    q = gpupy.random.default_rng(3).permutation(x)
    assert sorted(q.get()[:, 0].tolist()) == list(range(0, 30, 3))
    numpy.testing.assert_array_equal(q.get()[:, 1] - q.get()[:, 0], 1)
    y = gpupy.arange(20)
    gpupy.random.default_rng(4).shuffle(y)
    assert sorted(y.get().tolist()) == list(range(20))


def test_out_and_array_parameters():
    g = gpupy.random.default_rng(8)
    out = gpupy.empty((4, 5))
    assert g.random(out=out) is out
    numpy.testing.assert_array_equal(out.get().ravel(), ref.philox_uniform(8, numpy.arange(20)))
    loc = gpupy.asarray([0.0, 100.0, -100.0])
    n = g.normal(loc, 1.0)
    assert n.shape == (3,) and numpy.all(numpy.abs(n.get() - loc.get()) < 10)


def test_errors():
    with pytest.raises(ValueError, match="non-negative"):
        gpupy.random.default_rng(-1)
    g = gpupy.random.default_rng(0)
    with pytest.raises(TypeError, match=r"\[random\]"):
        g.random(3, dtype="int32")
    with pytest.raises(ValueError, match=r"\[integers\]"):
        g.integers(5, 5)
    with pytest.raises(ValueError, match=r"\[integers\].*bounds"):
        g.integers(0, 300, dtype="uint8")
    with pytest.raises(TypeError, match=r"\[integers\]"):
        g.integers(0, 3, dtype="float64")
    with pytest.raises(ValueError, match=r"\[normal\]"):
        g.normal(0, -1.0, size=3)
    with pytest.raises(ValueError, match=r"\[random\]"):
        g.random((2, -1))


def test_integers_array_bounds():
    g = gpupy.random.default_rng(21)
    low = gpupy.asarray([0, -10, 100])
    high = gpupy.asarray([[1], [5]]) * gpupy.asarray([2, 3, 200])
    # rows: high = [2, 3, 200] and [10, 15, 1000]
    x = g.integers(low, high, size=(1000, 2, 3), endpoint=True)
    assert x.shape == (1000, 2, 3) and x.dtype == numpy.int64
    h = x.get()
    lo, hi = low.get(), high.get()
    assert (h >= lo).all() and (h <= hi).all()
    assert (h.min(axis=0) == numpy.broadcast_to(lo, (2, 3))).all()  # both ends reached
    assert (h[:, 0, :2].max(axis=0) == hi[0, :2]).all()
    y = g.integers(gpupy.asarray([5, 7]), 9, dtype="int8")
    assert y.shape == (2,) and y.dtype == numpy.int8 and (y.get() >= [5, 7]).all()
    with pytest.raises(ValueError, match=r"\[integers\] low >= high"):
        g.integers(gpupy.asarray([3, 4]), gpupy.asarray([5, 4]))
    with pytest.raises(ValueError, match=r"\[integers\].*bounds"):
        g.integers(gpupy.asarray([0]), 200, dtype="int8")


@pytest.mark.parametrize(
    "call",
    [lambda g, xp: g.shuffle(xp.asarray(5.0)), lambda g, xp: g.permuted(xp.asarray(5.0), axis=0),
     lambda g, xp: g.permuted(xp.asarray(5.0)), lambda g, xp: g.integers(2.5, size=3),
     lambda g, xp: g.integers(-1.5, 2, size=3), lambda g, xp: g.integers(0.5, size=3),
     lambda g, xp: g.integers(numpy.nan), lambda g, xp: g.integers(numpy.inf),
     lambda g, xp: g.integers(numpy.float32(3.0), size=(2, 2))],
)  # fmt: skip
def test_generator_argument_checks_follow_numpy(call, device_name):
    # errors of the same class as NumPy's (0-d arrays have no axis and no len()); float bounds
    # of integers() truncate toward zero (found by tools/fuzz_numpy.py)
    def outcome(xp):
        try:
            r = call(xp.random.default_rng(3), xp)
        except Exception as exc:  # noqa: BLE001 - compared below
            return type(exc).__mro__[1] if type(exc).__name__ == "AxisError" else type(exc)
        return (tuple(r.shape), str(r.dtype), bool((r >= -1).all() and (r < 3).all()))

    expected = outcome(numpy)
    with gpupy.Device(device_name):
        got = outcome(gpupy)
    if isinstance(expected, type):
        assert isinstance(got, type) and issubclass(got, expected), (expected, got)
    else:
        assert got == expected
