"""xp.rng (spec section 5): get_rng, random_streams, and the Philox functions of (seed, stream,
counter) on NumPy and gpupy arrays, against a scalar Philox written here, NumPy's generators built
by hand from the documented SeedSequence, and the kernel header random.cuh on a device."""

import math

import gpupy
import numpy
import pytest
from gpupy import cunumpy as xp
from gpupy.cunumpy import rng


def philox_scalar(words, key):
    """Philox4x32-10 of one counter (4 words) and key (2 words), in Python ints."""
    c, (k0, k1) = list(words), key
    for _ in range(10):
        p0, p1 = 0xD2511F53 * c[0], 0xCD9E8D57 * c[2]
        c = [(p1 >> 32) ^ c[1] ^ k0, p1 & 0xFFFFFFFF, (p0 >> 32) ^ c[3] ^ k1, p0 & 0xFFFFFFFF]
        k0, k1 = (k0 + 0x9E3779B9) & 0xFFFFFFFF, (k1 + 0xBB67AE85) & 0xFFFFFFFF
    return c


def draws_scalar(seed, stream, counter):
    """(u0, u1, z0, z1) for one (seed, stream, counter), as random.cuh documents them."""
    m = 0xFFFFFFFF
    w = philox_scalar(
        [counter & m, counter >> 32, stream & m, stream >> 32], (seed & m, seed >> 32)
    )
    u0 = (((w[0] << 32) | w[1]) >> 11) / 2.0**53
    u1 = (((w[2] << 32) | w[3]) >> 11) / 2.0**53
    radius = math.sqrt(-2.0 * math.log(1.0 - u0))
    return u0, u1, radius * math.cos(2 * math.pi * u1), radius * math.sin(2 * math.pi * u1)


CASES = [(0, 0, 0), (42, 7, 3), (2**40 + 3, 2**33 + 5, 2**32 - 1), (2**64 - 1, 2**64 - 1, 2**63)]


@pytest.mark.parametrize("seed, stream, counter", CASES)
def test_philox_draws_match_a_scalar_philox(seed, stream, counter):
    u0, u1, z0, z1 = draws_scalar(seed, stream, counter)
    got = rng.philox_uniform2(seed, stream, counter)
    assert (float(got[0]), float(got[1])) == (u0, u1)
    got = rng.philox_normal2(seed, stream, counter)
    assert float(got[0]) == pytest.approx(z0, rel=1e-14, abs=1e-15)
    assert float(got[1]) == pytest.approx(z1, rel=1e-14, abs=1e-15)
    # stream 0 is what the one-stream functions draw
    s0 = draws_scalar(seed, 0, counter)
    assert float(rng.philox_uniform(seed, counter)) == s0[0]
    assert float(rng.philox_normal(seed, counter)) == pytest.approx(s0[2], rel=1e-14, abs=1e-15)


def test_philox_on_gpupy_arrays_equals_the_host(device_name):
    ids = numpy.arange(2000, dtype=numpy.uint64) * numpy.uint64(2**31 + 11)
    steps = numpy.arange(2000) % 7
    host_u = rng.philox_uniform2(5, ids, steps)
    host_z = rng.philox_normal2(5, ids, steps)
    dev_u = rng.philox_uniform2(5, gpupy.asarray(ids), gpupy.asarray(steps))
    dev_z = rng.philox_normal2(5, gpupy.asarray(ids), gpupy.asarray(steps))
    for h, d in zip(host_u, dev_u, strict=True):
        assert isinstance(d, gpupy.ndarray) and str(d.device) == device_name
        numpy.testing.assert_array_equal(gpupy.asnumpy(d), h)  # uniform: bit for bit
    for h, d in zip(host_z, dev_z, strict=True):
        numpy.testing.assert_allclose(gpupy.asnumpy(d), h, rtol=1e-13, atol=1e-15)
    numpy.testing.assert_array_equal(
        gpupy.asnumpy(rng.philox_uniform(9, gpupy.arange(100))),
        rng.philox_uniform(9, numpy.arange(100)),
    )
    ctr = numpy.arange(40, dtype=numpy.uint32).reshape(10, 4)
    numpy.testing.assert_array_equal(
        gpupy.asnumpy(rng.philox4x32_10(gpupy.asarray(ctr), gpupy.asarray([1, 2]))),
        rng.philox4x32_10(ctr, [1, 2]),
    )
    # broadcasting: a column of streams against a row of counters
    u0, _ = rng.philox_uniform2(1, numpy.arange(3)[:, None], numpy.arange(4))
    assert u0.shape == (3, 4) and u0[2, 3] == draws_scalar(1, 2, 3)[0]


def test_philox_errors():
    with pytest.raises(TypeError, match=r"\[philox_uniform2\] seed must be an integer, got float"):
        rng.philox_uniform2(1.5, 0, 0)
    with pytest.raises(ValueError, match=r"\[philox_normal\] seed must not be negative"):
        rng.philox_normal(-1, 0)
    with pytest.raises(ValueError, match=r"\[philox_uniform\] seed must be in \[0, 2\*\*64\)"):
        rng.philox_uniform(2**64, 0)
    with pytest.raises(TypeError, match=r"\[philox_uniform2\] arrays from different backends"):
        rng.philox_uniform2(1, numpy.arange(3), gpupy.arange(3))
    with pytest.raises(TypeError, match=r"\[philox4x32_10\] arrays from different backends"):
        rng.philox4x32_10(gpupy.zeros(4, dtype=gpupy.uint32), [1, 2])
    with pytest.raises(ValueError, match=r"\[philox4x32_10\] takes counters of 4 and keys of 2"):
        rng.philox4x32_10(numpy.zeros(3, numpy.uint32), [1, 2])


RANDOM2 = r"""
#include <cunumpy/random.cuh>
#include <cunumpy/index.cuh>
__global__ void draws2(double* out, const unsigned long long* stream, unsigned long long seed,
                       unsigned long long step, long long n) {
    CUNUMPY_GRID_STRIDE_1D(i, n) {
        cunumpy_philox_uniform2(seed, stream[i], step, &out[4 * i], &out[4 * i + 1]);
        cunumpy_philox_normal2(seed, stream[i], step, &out[4 * i + 2], &out[4 * i + 3]);
    }
}
"""


def test_device_two_stream_draws_match_the_host(kernel_device):
    ids = numpy.arange(3000, dtype=numpy.uint64) * numpy.uint64(0x9E3779B97F4A7C15 % 2**61)
    out = gpupy.zeros((3000, 4), device=kernel_device)
    xp.CudaKernel(RANDOM2, "draws2")(
        out, gpupy.asarray(ids, device=kernel_device), 2**50 + 1, 17, 3000, grid=8
    )
    got = gpupy.asnumpy(out)
    u0, u1 = rng.philox_uniform2(2**50 + 1, ids, 17)
    z0, z1 = rng.philox_normal2(2**50 + 1, ids, 17)
    numpy.testing.assert_array_equal(got[:, 0], u0)
    numpy.testing.assert_array_equal(got[:, 1], u1)
    numpy.testing.assert_allclose(got[:, 2], z0, rtol=1e-13, atol=1e-15)
    numpy.testing.assert_allclose(got[:, 3], z1, rtol=1e-13, atol=1e-15)


# ---- get_rng and random_streams ----


@pytest.fixture
def streams():
    """The process's random_streams and NumPy's global state, restored afterwards."""
    state = numpy.random.get_state()
    before = xp.get_backend()
    yield rng.random_streams
    xp.set_backend(before)
    numpy.random.set_state(state)
    rng.random_streams.__init__()


def test_get_rng_is_the_active_backends_generator(device_name):
    g = rng.get_rng(12)
    assert isinstance(g, numpy.random.Generator)
    numpy.testing.assert_array_equal(g.random(5), numpy.random.default_rng(12).random(5))
    with xp.use_backend("gpupy"):
        g = rng.get_rng(12)
        assert isinstance(g, gpupy.random.Generator)
        u = g.random(6)
        assert str(u.device) == device_name
        # gpupy's generator with an integer seed draws philox_uniform(seed, i)
        numpy.testing.assert_array_equal(gpupy.asnumpy(u), rng.philox_uniform(12, numpy.arange(6)))


@pytest.mark.parametrize("bits", [None, "SFC64", "MT19937"])
def test_random_streams_draw_the_stream_of_seed_and_rank(streams, bits):
    for rank in (0, 3):
        streams.seed(42, rank=rank, bit_generator=bits)
        seq = numpy.random.SeedSequence(42, spawn_key=(rank, 0))
        want = numpy.random.Generator(getattr(numpy.random, bits or "PCG64")(seq))
        assert streams.generator() is streams.generator("numpy")
        numpy.testing.assert_array_equal(streams.random(4), want.random(4))
        numpy.testing.assert_array_equal(streams.normal(1.0, 2.0, 3), want.normal(1.0, 2.0, 3))
        numpy.testing.assert_array_equal(streams.uniform(-1, 1, 3), want.uniform(-1, 1, 3))
        numpy.testing.assert_array_equal(streams.standard_normal(2), want.standard_normal(2))
        # NumPy's global state is seeded from the same stream
        legacy = numpy.random.RandomState(
            int(numpy.random.SeedSequence(42, spawn_key=(rank,)).generate_state(1)[0])
        )
        assert numpy.random.random() == legacy.random()
    assert streams.bit_generator == (bits or "PCG64")
    assert (
        repr(streams)
        == f"RandomStreams(entropy=42, spawn_key=(3,), bit_generator={bits or 'PCG64'!r})"
    )


def test_random_streams_on_gpupy(streams, device_name):
    with xp.use_backend("gpupy"):
        streams.seed(7, rank=2)
        g = streams.generator()
        assert g is streams.generator("gpupy") and isinstance(g, gpupy.random.Generator)
        key = int(numpy.random.SeedSequence(7, spawn_key=(2, 2)).generate_state(1, numpy.uint64)[0])
        u = streams.random(5)
        assert str(u.device) == device_name
        numpy.testing.assert_array_equal(gpupy.asnumpy(u), rng.philox_uniform(key, numpy.arange(5)))
        assert streams.generator("numpy") is not g  # one generator per backend
        # reseeding replaces the generators: the same numbers again
        streams.seed(7, rank=2)
        numpy.testing.assert_array_equal(gpupy.asnumpy(streams.random(5)), gpupy.asnumpy(u))


def test_random_streams_components_and_errors(streams):
    assert repr(streams) == "RandomStreams(not seeded)"
    own = streams.make_generator(seed=5)
    numpy.testing.assert_array_equal(own.random(3), numpy.random.default_rng(5).random(3))
    streams.seed(1)
    assert streams.make_generator() is streams.generator()
    assert isinstance(streams.make_generator(5, backend="gpupy"), gpupy.random.Generator)
    explicit = numpy.random.default_rng(3)
    numpy.testing.assert_array_equal(
        streams.random(2, rng=explicit), numpy.random.default_rng(3).random(2)
    )
    with pytest.raises(ValueError, match=r"\[random_streams.seed\] unknown bit generator 'XOR'"):
        streams.seed(1, bit_generator="XOR")
    with pytest.raises(ValueError, match=r"\[random_streams.seed\] the seed must not be negative"):
        streams.seed(-1)
    with pytest.raises(TypeError, match=r"\[random_streams.seed\] rank must be an integer"):
        streams.seed(1, rank=1.0)
    with pytest.raises(ValueError, match=r"\[random_streams.generator\] backend must be one of"):
        streams.generator("torch")
    streams.seed(None)  # entropy from the operating system: two processes differ, but it works
    assert streams.random().__class__ is float
