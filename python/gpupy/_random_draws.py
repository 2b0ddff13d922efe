"""Shared plumbing for gpupy.random's samplers: output shapes, parameter checks and placement,
open-interval uniforms, the vectorised rejection loop and log-gamma, all as gpupy array ops.

A parameter stays where it is: a gpupy array is checked and used on its device, anything else is
converted with NumPy on the host (it is the caller's host data) and uploaded once when used.
"""

import math
import operator

import numpy

from gpupy import _core

_DIST = _core._RandomDistribution
_F64 = numpy.dtype(numpy.float64)
_I64 = numpy.dtype(numpy.int64)
_HALF_LOG_2PI = 0.5 * math.log(2.0 * math.pi)
_MAX_ROUNDS = 10_000  # a rejection loop that needs more has a bug or a NaN; never hang


def _shape(size, op="random"):
    """`size` as a shape tuple (() for None); negative entries are the caller's to refuse."""
    if size is None:
        return ()
    try:
        return (operator.index(size),)
    except TypeError:
        pass
    try:
        return tuple(operator.index(s) for s in size)
    except TypeError:
        msg = f"expected a sequence of integers or a single integer, got {size!r}"
        raise TypeError(f"[{op}] {msg}") from None


def _float_dtype(dtype, op):
    if dtype is numpy.float64:  # the default: numpy.dtype() and the check cost ~0.4 us
        return _F64
    dt = numpy.dtype(dtype)
    if dt not in (numpy.float32, numpy.float64):
        raise TypeError(f"[{op}] dtype must be float32 or float64, got {dt}")
    return dt


def _from_out(out, size, device, op="random"):
    if out is None:
        return size, device
    if not isinstance(out, _core.ndarray):
        raise TypeError(f"[{op}] out must be a gpupy array")
    if size is not None and _shape(size) != out.shape:
        raise ValueError(f"[{op}] size must match out.shape when used together")
    return out.shape, out.device


def _param(x, dtype=_F64):
    """x as a `dtype` array: a gpupy array on its own device, else a NumPy array on the host."""
    if isinstance(x, _core.ndarray):
        return x.astype(dtype, copy=False)
    return numpy.asarray(x, dtype=dtype)


def _check(op, message, bad, error=ValueError):
    """Raises error('[op] message') when any element of the boolean array `bad` is set (one read
    back for a gpupy array: the validation NumPy makes)."""
    hit = _core.any(bad) if isinstance(bad, _core.ndarray) else numpy.any(bad)
    if bool(hit):
        raise error(f"[{op}] {message}")


def output_shape(op, size, shapes):
    """The draw's shape: `size`, which the parameters' shapes must broadcast to, or else their
    broadcast shape (NumPy's rule)."""
    if size is not None and any(s < 0 for s in _shape(size, op)):
        raise ValueError(f"[{op}] negative dimensions are not allowed")
    try:
        shape = numpy.broadcast_shapes(*shapes)
        if size is not None:
            want = _shape(size, op)
            if numpy.broadcast_shapes(want, shape) != want:
                raise ValueError
            shape = want
    except ValueError:
        msg = "shape mismatch: objects cannot be broadcast to a single shape"
        raise ValueError(f"[{op}] {msg} (parameters {shapes}, size {size})") from None
    return shape


def _place(op, size, device, params):
    """(shape, device, params): the output shape (`size`, or the parameters' broadcast shape),
    the device (given, else the first gpupy parameter's) and the parameters ready for gpupy
    arithmetic: host scalars as Python numbers, everything else as gpupy arrays on the device."""
    shape = output_shape(op, size, [p.shape for p in params])
    if device is None:
        device = next((p.device for p in params if isinstance(p, _core.ndarray)), None)
    return shape, device, [_placed(p, device) for p in params]


def _placed(p, device):
    from gpupy import asarray

    if isinstance(p, _core.ndarray):
        return p if device is None else asarray(p, device=device)
    return p.item() if p.ndim == 0 else asarray(p, device=device)


def _flat(p, shape, dtype=_F64, device=None):
    """A placed parameter broadcast to `shape` and flattened (a contiguous gpupy array)."""
    from gpupy import broadcast_to, full

    if isinstance(p, _core.ndarray):
        return _core.ascontiguousarray(broadcast_to(p.astype(dtype), shape)).reshape(-1)
    return full((math.prod(shape),), p, dtype=dtype, device=device)


def _done(r, size):
    """NumPy returns a Python scalar when size is None and every parameter is a scalar."""
    return r[()].item() if size is None and r.ndim == 0 else r


def _same_shape(x, shape):
    return x if x.shape == shape else x.reshape(shape)


def _stirling_series(z):
    """lgamma(z) - ((z - 1/2) log z - z + log(2 pi) / 2) for z >= 7 (error below 1e-14)."""
    w = 1.0 / (z * z)
    return (
        1.0 / 12.0
        + w * (-1.0 / 360.0 + w * (1.0 / 1260.0 + w * (-1.0 / 1680.0 + w * (1.0 / 1188.0))))
    ) / z


def loggam(x):
    """log(Gamma(x)) for x > 0 (gpupy float64 array): Stirling's series, shifted by 7 below 7."""
    from gpupy import where

    low = x < 7.0
    z = where(low, x + 7.0, x)
    shift = _core.log(x)
    for i in range(1, 7):
        shift = shift + _core.log(x + float(i))
    stirling = (z - 0.5) * _core.log(z) - z + _HALF_LOG_2PI + _stirling_series(z)
    return where(low, stirling - shift, stirling)


def loggam_ratio(a, b):
    """log(Gamma(a) / Gamma(b)) for a, b > 0. Where both are at least 7, Stirling's form in
    log1p((a - b) / b) avoids subtracting two huge log-gammas (binomial n up to 1e15)."""
    from gpupy import where

    big = _core.minimum(a, b) >= 7.0
    sa, sb = where(big, a, 7.0), where(big, b, 7.0)
    d = sa - sb
    near = (sa - 0.5) * _core.log1p(d / sb) + d * (_core.log(sb) - 1.0)
    near = near + (_stirling_series(sa) - _stirling_series(sb))
    return where(big, near, loggam(a) - loggam(b))  # both always: a test would be a device read


def log_poisson_pmf(k, lam, loglam):
    """log(lam**k exp(-lam) / k!) for float64 arrays k >= 0 and lam > 0, written around
    log1p((k + 1 - lam) / lam) so that it stays accurate for lam up to 1e15."""
    from gpupy import where

    z = k + 1.0
    big = z >= 7.0
    sz = where(big, z, 7.0)
    near = (sz - lam) - (sz - 0.5) * _core.log1p((sz - lam) / lam) - 0.5 * loglam
    near = near - _HALF_LOG_2PI - _stirling_series(sz)
    return where(big, near, k * loglam - lam - loggam(z))


class _Draws:
    """Mixed into Generator: element-wise draws on top of its `_draw(shape, dtype, dist, device,
    op)` (one Philox counter per element)."""

    def _uniform(self, shape, device, op):
        """float64 in [0, 1)."""
        return self._draw(shape, _F64, _DIST.uniform, device, op)

    def _open_uniform(self, shape, device, op):
        """float64 in (0, 1): odd multiples of 2**-53, so logs and quotients stay finite."""
        bits = self._draw(shape, numpy.uint64, _DIST.bits, device, op)
        _core.right_shift(bits, numpy.uint64(11), out=bits)  # in place: fresh outputs cost more
        _core.bitwise_or(bits, numpy.uint64(1), out=bits)
        u = bits.astype(_F64)
        return _core.multiply(u, 2.0**-53, out=u)

    def _normal(self, shape, device, op):
        return self._draw(shape, _F64, _DIST.normal, device, op)

    def _exponential(self, shape, device, op):
        """Standard exponential by inversion: -log of an open uniform (finite, positive). In place:
        fresh 1M-element outputs cost more than the log."""
        u = self._open_uniform(shape, device, op)
        return _core.negative(_core.log(u, out=u), out=u)

    def _rejection(self, n, dtype, device, propose, op):
        """A length-n array filled by `propose(pos) -> (values, accepted)` for the still-pending
        positions `pos`. Each redraw proposes several copies per rejected element, as many as
        the last round's rejection rate says are needed to settle nearly all of them, so a call
        usually reads the device two or three times (each read is a sync on cuda)."""
        from gpupy import arange, flatnonzero, where

        pos = arange(n, dtype=_I64, device=device)
        values, ok = propose(pos)
        out = values.astype(dtype, copy=False)  # rejected entries are overwritten below
        tried = n
        for _ in range(_MAX_ROUNDS):
            rejected = flatnonzero(_core.logical_not(ok))
            m = rejected.shape[0]
            if m == 0:
                return out
            pos = pos[rejected]
            copies = _copies(m, tried, n)
            tried = m * copies
            values, ok = _first_accepted(propose, pos, copies)
            out[pos] = where(ok, values.astype(dtype), out[pos])
        raise RuntimeError(f"[{op}] rejection sampling did not converge")


def _copies(m, tried, n):
    """Proposals per pending element so that m * rate**copies < 0.05 for the observed rejection
    rate m / tried, at most 16 and at most n / m (never more work than the first round)."""
    rate = m / tried
    want = 1 if rate > 0.99 else math.ceil(math.log(0.05 / m) / math.log(rate))
    return max(1, min(want, 16, n // m))


def _first_accepted(propose, pos, copies):
    """(values, accepted) of the first accepted of `copies` proposals for each of `pos`."""
    from gpupy import any as any_
    from gpupy import argmax, take_along_axis, tile

    if copies == 1:
        return propose(pos)
    m = pos.shape[0]
    values, ok = propose(tile(pos, copies))
    values, ok = values.reshape(copies, m), ok.reshape(copies, m)
    first = argmax(ok, axis=0).reshape(1, m)
    return take_along_axis(values, first, axis=0).reshape(m), any_(ok, axis=0)
