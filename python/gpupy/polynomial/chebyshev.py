"""gpupy.polynomial.chebyshev: numpy.polynomial.chebyshev (series in the Chebyshev polynomials
of the first kind T_n, low degree first) on gpupy arrays.

Computed with gpupy operations on the device of the gpupy arrays among the arguments (the
default device otherwise). Products and quotients go through "z-series" (the Laurent series in
z with x = (z + 1/z) / 2), as in NumPy. Host steps: chebroots' eigenvalues (NumPy's LAPACK on an
explicit copy of the companion matrix), the single index trimming reads back, chebfit's rank.
The constants chebdomain, chebzero, chebone and chebx are NumPy arrays.
"""

import math as _math

import numpy as _numpy

import gpupy as _xp
from gpupy._host_library import device_arrays as _device_arrays
from gpupy.polynomial import _shared
from gpupy.polynomial import polyutils as _pu
from gpupy.polynomial._polybase import ABCPolyBase

__all__ = [
    "chebzero",
    "chebone",
    "chebx",
    "chebdomain",
    "chebline",
    "chebadd",
    "chebsub",
    "chebmulx",
    "chebmul",
    "chebdiv",
    "chebpow",
    "chebval",
    "chebder",
    "chebint",
    "cheb2poly",
    "poly2cheb",
    "chebfromroots",
    "chebvander",
    "chebfit",
    "chebtrim",
    "chebroots",
    "chebpts1",
    "chebpts2",
    "Chebyshev",
    "chebval2d",
    "chebval3d",
    "chebgrid2d",
    "chebgrid3d",
    "chebvander2d",
    "chebvander3d",
    "chebcompanion",
    "chebgauss",
    "chebweight",
    "chebinterpolate",
]

chebdomain = _numpy.array([-1.0, 1.0])
chebzero = _numpy.array([0])
chebone = _numpy.array([1])
chebx = _numpy.array([0, 1])


def _to_z(c):
    """The symmetric z-series of a Chebyshev series."""
    n = c.shape[0]
    zs = _xp.concatenate([_xp.zeros((n - 1,), dtype=c.dtype, device=c.device), c / 2])
    return zs + zs[::-1]


def _from_z(zs):
    n = (zs.shape[0] + 1) // 2
    c = zs[n - 1 :].copy()
    c[1:n] = c[1:n] * 2
    return c


def _z_div(z1, z2):
    """Quotient and remainder of two symmetric z-series (NumPy's two-ended elimination)."""
    z1 = z1.copy()
    n1, n2 = z1.shape[0], z2.shape[0]
    if n2 == 1:
        z1 = z1 / z2
        return z1, z1[:1] * 0
    if n1 < n2:
        return z1[:1] * 0, z1
    dlen = n1 - n2
    scl = z2[0]
    z2 = z2 / scl
    quo = _xp.empty((dlen + 1,), dtype=z1.dtype, device=z1.device)
    i, j = 0, dlen
    while i < j:
        r = z1[i].copy()
        quo[i] = r
        quo[dlen - i] = r
        tmp = r * z2
        z1[i : i + n2] = z1[i : i + n2] - tmp
        z1[j : j + n2] = z1[j : j + n2] - tmp
        i, j = i + 1, j - 1
    r = z1[i].copy()
    quo[i] = r
    z1[i : i + n2] = z1[i : i + n2] - r * z2
    return quo / scl, z1[i + 1 : i - 1 + n2].copy()


def _mulx(c):
    """c times x, untrimmed (chebmulx without its checks)."""
    n = c.shape[0]
    prd = _shared.empty_like_rows(c, n + 1)
    prd[0] = c[0] * 0
    prd[1] = c[0]
    if n > 1:
        tmp = c[1:] / 2
        prd[2:] = tmp
        prd[:-2] = prd[:-2] + tmp
    return prd


def chebmulx(c):
    """See numpy.polynomial.chebyshev.chebmulx: c times x."""
    return _shared.checked_mulx("chebmulx", _mulx, c)


def _mul(c1, c2):
    """The untrimmed product, through z-series."""
    return _from_z(_xp.convolve(_to_z(c1), _to_z(c2)))


def chebmul(c1, c2):
    """See numpy.polynomial.chebyshev.chebmul."""
    return _shared.checked_mul("chebmul", _mul, c1, c2)


def chebdiv(c1, c2):
    """See numpy.polynomial.chebyshev.chebdiv: (quotient, remainder)."""
    c1, c2, result = _pu._div_input("chebdiv", c1, c2)
    if result is not None:
        return result
    quo, rem = _z_div(_to_z(c1), _to_z(c2))
    return _pu.trimseq(_from_z(quo)), _pu.trimseq(_from_z(rem))


def chebpow(c, pow, maxpower=16):  # noqa: A002 - NumPy's signature
    """See numpy.polynomial.chebyshev.chebpow (powers of the z-series)."""
    [c] = _pu._series("chebpow", [c])
    return _from_z(_pu._pow("chebpow", _xp.convolve, _to_z(c), pow, maxpower, trim=False))


def _der_step(c):
    # der[j - 1] = sum of 2 k c[k] over k >= j of j's parity (NumPy's recurrence, unrolled)
    n = c.shape[0] - 1
    der = _shared.reverse_cumsum(c[1:] * (2 * _pu._index_range(n, c)), step=2)
    der[0] = der[0] / 2
    return der


def chebder(c, m=1, scl=1, axis=0):
    """See numpy.polynomial.chebyshev.chebder."""
    return _shared.derivative("chebder", c, m, scl, axis, _der_step)


def _int_step(c):
    n = c.shape[0]
    out = _shared.empty_like_rows(c, n + 1)
    out[0] = c[0] * 0
    out[1] = c[0]
    if n > 1:
        out[2] = c[1] / 4
    if n > 2:
        j = _pu._index_range(n - 2, c, start=2)
        out[3:] = c[2:] / (2 * (j + 1))
        out[1 : n - 1] = out[1 : n - 1] - c[2:] / (2 * (j - 1))
    return out


def chebint(c, m=1, k=[], lbnd=0, scl=1, axis=0):  # noqa: B006 - NumPy's signature
    """See numpy.polynomial.chebyshev.chebint."""
    return _shared.integral("chebint", c, m, k, lbnd, scl, axis, _int_step, chebval)


def chebval(x, c, tensor=True):
    """See numpy.polynomial.chebyshev.chebval (Clenshaw's recurrence)."""
    return _shared.clenshaw_val(
        "chebval",
        x,
        c,
        tensor,
        lambda nd, c0, c1, ci, x, x2: (ci - c1, c0 + c1 * x2),
        lambda c0, c1, x, x2: c0 + c1 * x,
        prepare=lambda x: 2 * x,
    )


def chebvander(x, deg):
    """See numpy.polynomial.chebyshev.chebvander: T_0(x), ..., T_deg(x) along a new last
    axis."""
    return _shared.recurrence_vander(
        "chebvander", x, deg, lambda x: x, lambda i, v1, v2, x: v1 * (2 * x) - v2
    )


def chebcompanion(c):
    """See numpy.polynomial.chebyshev.chebcompanion (scaled to be symmetric for a constant
    last column)."""
    [c] = _pu._series("chebcompanion", [c])
    n = c.shape[0] - 1
    if n < 1:
        raise ValueError("[chebcompanion] Series must have maximum degree of at least 1.")
    if n == 1:
        return (-c[0] / c[1]).reshape(1, 1)
    off = _numpy.full(n - 1, 0.5)
    off[0] = _math.sqrt(0.5)
    mat = _xp.asarray((_numpy.diag(off, 1) + _numpy.diag(off, -1)).astype(c.dtype), device=c.device)
    scl = _numpy.full(n, _math.sqrt(0.5))
    scl[0] = 1.0
    column = c[:-1] / c[-1] * _xp.asarray(scl / scl[-1], device=c.device) * 0.5
    mat[:, -1] = mat[:, -1] - column
    return mat


_f = _shared.series_functions(
    "cheb",
    "chebyshev",
    raw_mul=_mul,
    val=chebval,
    vander=chebvander,
    companion=chebcompanion,
)
chebline, chebfromroots, chebadd, chebsub = _f.line, _f.fromroots, _f.add, _f.sub
chebval2d, chebval3d, chebgrid2d, chebgrid3d = _f.val2d, _f.val3d, _f.grid2d, _f.grid3d
chebvander2d, chebvander3d, chebfit, chebroots, chebtrim = (
    _f.vander2d,
    _f.vander3d,
    _f.fit,
    _f.roots,
    _f.trim,
)


def poly2cheb(pol):
    """See numpy.polynomial.chebyshev.poly2cheb: a power series as a Chebyshev series."""
    return _shared.from_power_series("poly2cheb", _mulx, pol)


def cheb2poly(c):
    """See numpy.polynomial.chebyshev.cheb2poly: a Chebyshev series as a power series."""
    return _shared.to_power_series(
        "cheb2poly",
        c,
        lambda i, c0, c1, ci: (_shared.sub(ci, c1), _shared.add(c0, _shared.power_mulx(c1) * 2)),
        lambda c0, c1: _shared.add(c0, _shared.power_mulx(c1)),
    )


def _npts(op, npts, least):
    count = int(npts)
    if count != npts:
        raise ValueError(f"[{op}] npts must be integer")
    if count < least:
        raise ValueError(f"[{op}] npts must be >= {least}")
    return count


def chebpts1(npts):
    """See numpy.polynomial.chebyshev.chebpts1: the Chebyshev points of the first kind (the
    zeros of T_npts), on the default device."""
    n = _npts("chebpts1", npts, 1)
    return _xp.sin(0.5 * _math.pi / n * _xp.arange(-n + 1, n + 1, 2))


def chebpts2(npts):
    """See numpy.polynomial.chebyshev.chebpts2: the Chebyshev points of the second kind (the
    extrema of T_(npts-1)), on the default device."""
    return _xp.cos(_xp.linspace(-_math.pi, 0, _npts("chebpts2", npts, 2)))


def chebgauss(deg):
    """See numpy.polynomial.chebyshev.chebgauss: Gauss-Chebyshev nodes and weights (closed
    forms, on the default device)."""
    n = _pu._as_int("chebgauss", deg, "deg")
    if n <= 0:
        raise ValueError("[chebgauss] deg must be a positive integer")
    x = _xp.cos(_math.pi * _xp.arange(1, 2 * n, 2) / (2.0 * n))
    return x, _xp.ones(n) * (_math.pi / n)


def chebweight(x):
    """See numpy.polynomial.chebyshev.chebweight: 1 / sqrt(1 - x**2)."""
    [x] = _device_arrays("chebweight", x)
    return 1.0 / (_xp.sqrt(1.0 + x) * _xp.sqrt(1.0 - x))


def chebinterpolate(func, deg, args=()):
    """See numpy.polynomial.chebyshev.chebinterpolate: the Chebyshev series of degree deg
    interpolating func at the Chebyshev points of the first kind (func gets gpupy arrays)."""
    d = _numpy.asarray(deg)
    if d.ndim > 0 or d.dtype.kind not in "iu" or d.size == 0:
        raise TypeError("[chebinterpolate] deg must be an int")
    if d < 0:
        raise ValueError("[chebinterpolate] expected deg >= 0")
    order = int(d) + 1
    xcheb = chebpts1(order)
    [yfunc] = _device_arrays("chebinterpolate", func(xcheb, *args))
    c = _xp.dot(chebvander(xcheb, int(d)).T, yfunc)
    c[0] = c[0] / order
    c[1:] = c[1:] / (0.5 * order)
    return c


class Chebyshev(ABCPolyBase, prefix="cheb", namespace=globals()):
    """See numpy.polynomial.Chebyshev: a Chebyshev series with a domain and a window, its
    coefficients a gpupy array on a device (see gpupy.polynomial._polybase)."""

    domain = _numpy.array(chebdomain)
    window = _numpy.array(chebdomain)
    basis_name = "T"
    _numpy_class = _numpy.polynomial.Chebyshev

    @classmethod
    def interpolate(cls, func, deg, domain=None, args=()):
        """See numpy.polynomial.Chebyshev.interpolate: func interpolated at the Chebyshev points
        of the first kind mapped to `domain`."""
        domain = cls.domain if domain is None else domain

        def mapped(x):
            return func(_pu.mapdomain(x, cls.window, domain), *args)

        return cls(chebinterpolate(mapped, deg), domain=domain)
