"""Philox4x32-10 counter-based random numbers on the host, bit-identical with the kernel header
`cunumpy/random.cuh` (uniform exact; normal equal up to the last bits of libm's log and cos)."""

import numpy

__all__ = ["philox4x32_10", "philox_normal", "philox_uniform"]

_M0, _M1 = numpy.uint64(0xD2511F53), numpy.uint64(0xCD9E8D57)
_W0, _W1 = numpy.uint32(0x9E3779B9), numpy.uint32(0xBB67AE85)
_LO = numpy.uint64(0xFFFFFFFF)


def philox4x32_10(counter, key):
    """Philox4x32 with 10 rounds: counter (..., 4) and key (..., 2) uint32 -> (..., 4) uint32."""
    c = numpy.asarray(counter, dtype=numpy.uint32)
    k = numpy.asarray(key, dtype=numpy.uint32)
    if c.shape[-1:] != (4,) or k.shape[-1:] != (2,):
        raise ValueError("philox4x32_10 takes counters of 4 and keys of 2 uint32 words")
    shape = numpy.broadcast_shapes(c.shape[:-1], k.shape[:-1])
    c0, c1, c2, c3 = (numpy.broadcast_to(c[..., i], shape).astype(numpy.uint64) for i in range(4))
    k0, k1 = (numpy.broadcast_to(k[..., i], shape).copy() for i in range(2))
    with numpy.errstate(over="ignore"):
        for _ in range(10):
            p0, p1 = _M0 * c0, _M1 * c2
            c0, c1, c2, c3 = (
                (p1 >> numpy.uint64(32)) ^ c1 ^ k0.astype(numpy.uint64),
                p1 & _LO,
                (p0 >> numpy.uint64(32)) ^ c3 ^ k1.astype(numpy.uint64),
                p0 & _LO,
            )
            k0 = k0 + _W0
            k1 = k1 + _W1
    return numpy.stack([c0, c1, c2, c3], axis=-1).astype(numpy.uint32)


def _words(seed, counter):
    counter = numpy.asarray(counter, dtype=numpy.uint64)
    seed = numpy.uint64(seed)
    ctr = numpy.zeros(counter.shape + (4,), numpy.uint32)
    ctr[..., 0] = counter & _LO
    ctr[..., 1] = counter >> numpy.uint64(32)
    key = numpy.array([int(seed) & 0xFFFFFFFF, int(seed) >> 32], numpy.uint32)
    return philox4x32_10(ctr, key).astype(numpy.uint64)


def _to_unit(a, b):
    bits = ((a << numpy.uint64(32)) | b) >> numpy.uint64(11)
    return bits.astype(numpy.float64) * (1.0 / 9007199254740992.0)


def philox_uniform(seed, counter):
    """Uniform doubles in [0, 1) for (seed, counter), as cunumpy_philox_uniform computes them."""
    w = _words(seed, counter)
    return _to_unit(w[..., 0], w[..., 1])


def philox_normal(seed, counter):
    """Standard normal doubles for (seed, counter), as cunumpy_philox_normal computes them."""
    w = _words(seed, counter)
    u1 = 1.0 - _to_unit(w[..., 0], w[..., 1])
    u2 = _to_unit(w[..., 2], w[..., 3])
    return numpy.sqrt(-2.0 * numpy.log(u1)) * numpy.cos(6.283185307179586 * u2)
