"""Philox4x32-10 counter-based random numbers on any backend, bit-identical with the kernel header
`cunumpy/random.cuh` (uniform exact; normal equal up to the last bits of log, cos and sin)."""

import numpy

from gpupy.cunumpy._backend import get_array_module
from gpupy.cunumpy._checks import array_module, nonnegative_int

__all__ = [
    "philox4x32_10",
    "philox_normal",
    "philox_normal2",
    "philox_uniform",
    "philox_uniform2",
]

_U = numpy.uint64
_M0, _M1 = _U(0xD2511F53), _U(0xCD9E8D57)
_W0, _W1 = _U(0x9E3779B9), _U(0xBB67AE85)
_LO, _32 = _U(0xFFFFFFFF), _U(32)


def _rounds(c0, c1, c2, c3, k0, k1):
    """The 10 rounds on 32-bit words held in uint64 (products of two words are exact there)."""
    for _ in range(10):
        p0, p1 = _M0 * c0, _M1 * c2
        c0, c1, c2, c3 = (p1 >> _32) ^ c1 ^ k0, p1 & _LO, (p0 >> _32) ^ c3 ^ k1, p0 & _LO
        k0, k1 = (k0 + _W0) & _LO, (k1 + _W1) & _LO
    return c0, c1, c2, c3


def _device_of(values):
    for v in values:
        if hasattr(v, "device") and not isinstance(v, numpy.ndarray):
            return {"device": v.device}
    return {}


def _uint(xpm, value, dtype, where):
    """value as an array of dtype on xpm (a NumPy array or Python ints: NumPy's conversion)."""
    if xpm is numpy or not hasattr(value, "astype"):
        value = numpy.asarray(value, dtype=dtype)
        return value if xpm is numpy else xpm.asarray(value, **where)
    return value.astype(dtype)


def philox4x32_10(counter, key):
    """Philox4x32 with 10 rounds: counter (..., 4) and key (..., 2) uint32 -> (..., 4) uint32, on
    the arguments' backend."""
    xpm = array_module("philox4x32_10", counter, key)
    where = _device_of((counter, key)) if xpm.__name__ == "gpupy" else {}
    c = _uint(xpm, counter, numpy.uint32, where)
    k = _uint(xpm, key, numpy.uint32, where)
    if tuple(c.shape[-1:]) != (4,) or tuple(k.shape[-1:]) != (2,):
        raise ValueError(
            "[philox4x32_10] takes counters of 4 and keys of 2 uint32 words, got shapes "
            f"{tuple(c.shape)} and {tuple(k.shape)}"
        )
    words = xpm.broadcast_arrays(*(c[..., i] for i in range(4)), k[..., 0], k[..., 1])
    out = _rounds(*(w.astype(_U) for w in words))
    return xpm.stack(out, axis=-1).astype(numpy.uint32)


def _seed_words(op, seed):
    seed = nonnegative_int(op, "seed", seed)
    if seed >= 2**64:
        raise ValueError(f"[{op}] seed must be in [0, 2**64), got {seed}")
    return _U(seed & 0xFFFFFFFF), _U(seed >> 32)


def _words(op, seed, stream, counter):
    """The 4 words for (seed, stream, counter): key = seed's low/high words, counter words =
    {counter lo, counter hi, stream lo, stream hi} (random.cuh's cunumpy_philox_words2)."""
    k0, k1 = _seed_words(op, seed)
    xpm = array_module(op, stream, counter)
    where = _device_of((stream, counter)) if xpm.__name__ == "gpupy" else {}
    counter, stream = xpm.broadcast_arrays(
        _uint(xpm, counter, _U, where), _uint(xpm, stream, _U, where)
    )
    return _rounds(counter & _LO, counter >> _32, stream & _LO, stream >> _32, k0, k1)


def _to_unit(a, b):
    """53 random bits of two words as a double in [0, 1)."""
    bits = ((a << _32) | b) >> _U(11)
    return bits.astype(numpy.float64) * (1.0 / 9007199254740992.0)


def philox_uniform2(seed, stream, counter):
    """Two uniform doubles in [0, 1) per (seed, stream, counter), as cunumpy_philox_uniform2
    computes them: (unit(w0, w1), unit(w2, w3)). stream and counter are 64-bit integers or
    arrays (broadcast together; e.g. a particle id and a time step); the results are on their
    backend (NumPy for Python ints)."""
    w = _words("philox_uniform2", seed, stream, counter)
    return _to_unit(w[0], w[1]), _to_unit(w[2], w[3])


def philox_uniform(seed, counter):
    """Uniform doubles in [0, 1) for (seed, counter), as cunumpy_philox_uniform computes them
    (the first of philox_uniform2 with stream 0)."""
    w = _words("philox_uniform", seed, 0, counter)
    return _to_unit(w[0], w[1])


def _box_muller(w, xpm, both):
    u1 = 1.0 - _to_unit(w[0], w[1])
    angle = 6.283185307179586 * _to_unit(w[2], w[3])
    radius = xpm.sqrt(-2.0 * xpm.log(u1))
    z0 = radius * xpm.cos(angle)
    return (z0, radius * xpm.sin(angle)) if both else z0


def philox_normal2(seed, stream, counter):
    """Two standard normal doubles per (seed, stream, counter), as cunumpy_philox_normal2:
    Box-Muller with radius sqrt(-2 log(1 - unit(w0, w1))) and angle 2 pi unit(w2, w3),
    (radius cos, radius sin)."""
    w = _words("philox_normal2", seed, stream, counter)
    return _box_muller(w, get_array_module(w[0]), both=True)


def philox_normal(seed, counter):
    """Standard normal doubles for (seed, counter), as cunumpy_philox_normal computes them (the
    first of philox_normal2 with stream 0)."""
    w = _words("philox_normal", seed, 0, counter)
    return _box_muller(w, get_array_module(w[0]), both=False)
