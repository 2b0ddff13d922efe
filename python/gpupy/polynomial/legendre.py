"""gpupy.polynomial.legendre: numpy.polynomial.legendre (series in the Legendre polynomials P_n,
low degree first) on gpupy arrays.

Computed with gpupy operations on the device of the gpupy arrays among the arguments (the
default device otherwise). Host steps: the eigenvalues of legroots and leggauss (NumPy's LAPACK
on an explicit copy of the companion matrix), the single index trimming reads back, legfit's
rank. The constants legdomain, legzero, legone and legx are NumPy arrays.
"""

import numpy as _numpy

import gpupy as _xp
from gpupy._host_library import device_arrays as _device_arrays
from gpupy.polynomial import _shared
from gpupy.polynomial import polyutils as _pu
from gpupy.polynomial._polybase import ABCPolyBase

__all__ = [
    "legzero",
    "legone",
    "legx",
    "legdomain",
    "legline",
    "legadd",
    "legsub",
    "legmulx",
    "legmul",
    "legdiv",
    "legpow",
    "legval",
    "legder",
    "legint",
    "leg2poly",
    "poly2leg",
    "legfromroots",
    "legvander",
    "legfit",
    "legtrim",
    "legroots",
    "Legendre",
    "legval2d",
    "legval3d",
    "leggrid2d",
    "leggrid3d",
    "legvander2d",
    "legvander3d",
    "legcompanion",
    "leggauss",
    "legweight",
]

legdomain = _numpy.array([-1.0, 1.0])
legzero = _numpy.array([0])
legone = _numpy.array([1])
legx = _numpy.array([0, 1])


def _mulx(c):
    """c times x, untrimmed (legmulx without its checks)."""
    n = c.shape[0]
    prd = _shared.empty_like_rows(c, n + 1)
    prd[0] = c[0] * 0
    prd[1] = c[0]
    if n > 1:
        i = _pu._index_range(n - 1, c)
        prd[2:] = c[1:] * (i + 1) / (2 * i + 1)
        prd[: n - 1] = prd[: n - 1] + c[1:] * i / (2 * i + 1)
    return prd


def legmulx(c):
    """See numpy.polynomial.legendre.legmulx: c times x (x P_i = ((i + 1) P_(i+1) + i P_(i-1))
    / (2 i + 1))."""
    return _shared.checked_mulx("legmulx", _mulx, c)


def _mul(c1, c2):
    """The untrimmed product (Clenshaw's recurrence on series)."""
    return _shared.clenshaw_product(
        c1,
        c2,
        lambda nd, a, b, cx: (
            _shared.sub(cx, b * (nd - 1) / nd),
            _shared.add(a, _mulx(b) * (2 * nd - 1) / nd),
        ),
        lambda a, b: _shared.add(a, _mulx(b)),
    )


def legmul(c1, c2):
    """See numpy.polynomial.legendre.legmul."""
    return _shared.checked_mul("legmul", _mul, c1, c2)


def legdiv(c1, c2):
    """See numpy.polynomial.legendre.legdiv: (quotient, remainder)."""
    return _pu._div("legdiv", _mul, c1, c2)


def _der_step(c):
    # der[j - 1] = (2 j - 1) * (c[j] + c[j + 2] + ...): NumPy's recurrence, unrolled
    j = _pu._index_range(c.shape[0] - 1, c)
    return _shared.reverse_cumsum(c[1:], step=2) * (2 * j - 1)


def legder(c, m=1, scl=1, axis=0):
    """See numpy.polynomial.legendre.legder."""
    return _shared.derivative("legder", c, m, scl, axis, _der_step)


def _int_step(c):
    n = c.shape[0]
    out = _shared.empty_like_rows(c, n + 1)
    out[0] = c[0] * 0
    out[1] = c[0]
    if n > 1:
        out[2] = c[1] / 3
    if n > 2:
        t = c[2:] / (2 * _pu._index_range(n - 2, c, start=2) + 1)
        out[3:] = t
        out[1 : n - 1] = out[1 : n - 1] - t
    return out


def legint(c, m=1, k=[], lbnd=0, scl=1, axis=0):  # noqa: B006 - NumPy's signature
    """See numpy.polynomial.legendre.legint."""
    return _shared.integral("legint", c, m, k, lbnd, scl, axis, _int_step, legval)


def legval(x, c, tensor=True):
    """See numpy.polynomial.legendre.legval (Clenshaw's recurrence)."""
    return _shared.clenshaw_val(
        "legval",
        x,
        c,
        tensor,
        lambda nd, c0, c1, ci, x, px: (
            ci - c1 * ((nd - 1) / nd),
            c0 + c1 * x * ((2 * nd - 1) / nd),
        ),
        lambda c0, c1, x, px: c0 + c1 * x,
    )


def legvander(x, deg):
    """See numpy.polynomial.legendre.legvander: P_0(x), ..., P_deg(x) along a new last axis."""
    return _shared.recurrence_vander(
        "legvander",
        x,
        deg,
        lambda x: x,
        lambda i, v1, v2, x: (v1 * x * (2 * i - 1) - v2 * (i - 1)) / i,
    )


def _scales(n):
    return 1.0 / _numpy.sqrt(2 * _numpy.arange(n) + 1)


def legcompanion(c):
    """See numpy.polynomial.legendre.legcompanion (scaled to be symmetric)."""

    def band(n):
        scl = _scales(n)
        return _shared.tridiagonal(_numpy.arange(1, n) * scl[: n - 1] * scl[1:n])

    def column(c, n):
        scl = _scales(n)
        return c[:-1] / c[-1] * _xp.asarray(scl / scl[-1], device=c.device) * (n / (2 * n - 1))

    return _shared.companion("legcompanion", c, lambda c0, c1: -c0 / c1, band, column)


_f = _shared.series_functions(
    "leg",
    "legendre",
    raw_mul=_mul,
    val=legval,
    vander=legvander,
    companion=legcompanion,
)
legline, legfromroots, legadd, legsub, legpow = _f.line, _f.fromroots, _f.add, _f.sub, _f.pow
legval2d, legval3d, leggrid2d, leggrid3d = _f.val2d, _f.val3d, _f.grid2d, _f.grid3d
legvander2d, legvander3d, legfit, legroots, legtrim = (
    _f.vander2d,
    _f.vander3d,
    _f.fit,
    _f.roots,
    _f.trim,
)


def poly2leg(pol):
    """See numpy.polynomial.legendre.poly2leg: a power series as a Legendre series."""
    return _shared.from_power_series("poly2leg", _mulx, pol)


def leg2poly(c):
    """See numpy.polynomial.legendre.leg2poly: a Legendre series as a power series."""
    return _shared.to_power_series(
        "leg2poly",
        c,
        lambda i, c0, c1, ci: (
            _shared.sub(ci, c1 * (i - 1) / i),
            _shared.add(c0, _shared.power_mulx(c1) * (2 * i - 1) / i),
        ),
        lambda c0, c1: _shared.add(c0, _shared.power_mulx(c1)),
    )


def leggauss(deg):
    """See numpy.polynomial.legendre.leggauss: Gauss-Legendre nodes and weights (companion
    eigenvalues on the host, one Newton step on the default device)."""
    ideg, c, x = _shared.gauss_nodes("leggauss", deg, legcompanion)
    dy, df = legval(x, c), legval(x, legder(c))
    x = x - dy / df
    fm = legval(x, c[1:])
    fm, df = fm / _xp.abs(fm).max(), df / _xp.abs(df).max()
    x, w = _shared.symmetrized(x, 1 / (fm * df))
    return x, w * (2.0 / w.sum())


def legweight(x):
    """See numpy.polynomial.legendre.legweight: 1 everywhere."""
    [x] = _device_arrays("legweight", x)
    return x * 0.0 + 1.0


class Legendre(ABCPolyBase, prefix="leg", namespace=globals()):
    """See numpy.polynomial.Legendre: a Legendre series with a domain and a window, its
    coefficients a gpupy array on a device (see gpupy.polynomial._polybase)."""

    domain = _numpy.array(legdomain)
    window = _numpy.array(legdomain)
    basis_name = "P"
    _numpy_class = _numpy.polynomial.Legendre
