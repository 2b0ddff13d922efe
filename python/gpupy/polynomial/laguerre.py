"""gpupy.polynomial.laguerre: numpy.polynomial.laguerre (series in the Laguerre polynomials
L_n, low degree first; default domain and window [0, 1]) on gpupy arrays.

Computed with gpupy operations on the device of the gpupy arrays among the arguments (the
default device otherwise). Host steps: the eigenvalues of lagroots and laggauss (NumPy's LAPACK
on an explicit copy of the companion matrix), the single index trimming reads back, lagfit's
rank. The constants lagdomain, lagzero, lagone and lagx are NumPy arrays.
"""

import numpy as _numpy

import gpupy as _xp
from gpupy._host_library import device_arrays as _device_arrays
from gpupy.polynomial import _shared
from gpupy.polynomial import polyutils as _pu
from gpupy.polynomial._polybase import ABCPolyBase

__all__ = [
    "lagzero",
    "lagone",
    "lagx",
    "lagdomain",
    "lagline",
    "lagadd",
    "lagsub",
    "lagmulx",
    "lagmul",
    "lagdiv",
    "lagpow",
    "lagval",
    "lagder",
    "lagint",
    "lag2poly",
    "poly2lag",
    "lagfromroots",
    "lagvander",
    "lagfit",
    "lagtrim",
    "lagroots",
    "Laguerre",
    "lagval2d",
    "lagval3d",
    "laggrid2d",
    "laggrid3d",
    "lagvander2d",
    "lagvander3d",
    "lagcompanion",
    "laggauss",
    "lagweight",
]

lagdomain = _numpy.array([0.0, 1.0])
lagzero = _numpy.array([0])
lagone = _numpy.array([1])
lagx = _numpy.array([1, -1])


def _mulx(c):
    """c times x, untrimmed (lagmulx without its checks)."""
    n = c.shape[0]
    prd = _shared.empty_like_rows(c, n + 1)
    prd[0] = c[0]
    prd[1:] = -c * _pu._index_range(n, c)
    if n > 1:
        i = _pu._index_range(n - 1, c)
        prd[1:n] = prd[1:n] + c[1:] * (2 * i + 1)
        prd[: n - 1] = prd[: n - 1] - c[1:] * i
    return prd


def lagmulx(c):
    """See numpy.polynomial.laguerre.lagmulx: c times x (x L_i = -(i + 1) L_(i+1) + (2 i + 1)
    L_i - i L_(i-1))."""
    return _shared.checked_mulx("lagmulx", _mulx, c)


def _mul(c1, c2):
    """The untrimmed product (Clenshaw's recurrence on series)."""
    return _shared.clenshaw_product(
        c1,
        c2,
        lambda nd, a, b, cx: (
            _shared.sub(cx, b * (nd - 1) / nd),
            _shared.add(a, _shared.sub((2 * nd - 1) * b, _mulx(b)) / nd),
        ),
        lambda a, b: _shared.add(a, _shared.sub(b, _mulx(b))),
    )


def lagmul(c1, c2):
    """See numpy.polynomial.laguerre.lagmul."""
    return _shared.checked_mul("lagmul", _mul, c1, c2)


def lagdiv(c1, c2):
    """See numpy.polynomial.laguerre.lagdiv: (quotient, remainder)."""
    return _pu._div("lagdiv", _mul, c1, c2)


def lagder(c, m=1, scl=1, axis=0):
    """See numpy.polynomial.laguerre.lagder (der[j - 1] = -(c[j] + c[j + 1] + ...))."""
    return _shared.derivative("lagder", c, m, scl, axis, lambda c: -_shared.reverse_cumsum(c[1:]))


def _int_step(c):
    n = c.shape[0]
    out = _shared.empty_like_rows(c, n + 1)
    out[0] = c[0]
    out[1:] = -c
    out[1:n] = out[1:n] + c[1:]
    return out


def lagint(c, m=1, k=[], lbnd=0, scl=1, axis=0):  # noqa: B006 - NumPy's signature
    """See numpy.polynomial.laguerre.lagint."""
    return _shared.integral("lagint", c, m, k, lbnd, scl, axis, _int_step, lagval)


def lagval(x, c, tensor=True):
    """See numpy.polynomial.laguerre.lagval (Clenshaw's recurrence)."""
    return _shared.clenshaw_val(
        "lagval",
        x,
        c,
        tensor,
        lambda nd, c0, c1, ci, x, px: (
            ci - c1 * (nd - 1) / nd,
            c0 + c1 * (2 * nd - 1 - x) / nd,
        ),
        lambda c0, c1, x, px: c0 + c1 * (1 - x),
    )


def lagvander(x, deg):
    """See numpy.polynomial.laguerre.lagvander: L_0(x), ..., L_deg(x) along a new last axis."""
    return _shared.recurrence_vander(
        "lagvander",
        x,
        deg,
        lambda x: 1 - x,
        lambda i, v1, v2, x: (v1 * (2 * i - 1 - x) - v2 * (i - 1)) / i,
    )


def lagcompanion(c):
    """See numpy.polynomial.laguerre.lagcompanion (symmetric tridiagonal part)."""
    return _shared.companion(
        "lagcompanion",
        c,
        lambda c0, c1: 1 + c0 / c1,
        lambda n: _shared.tridiagonal(-_numpy.arange(1.0, n), 2.0 * _numpy.arange(n) + 1.0),
        lambda c, n: -(c[:-1] / c[-1] * n),
    )


_f = _shared.series_functions(
    "lag",
    "laguerre",
    raw_mul=_mul,
    val=lagval,
    vander=lagvander,
    companion=lagcompanion,
    line=_shared.make_line("lagline", lambda off, scl: (off + scl, -scl)),
    first_root=lambda c0, c1: 1 + c0 / c1,
)
lagline, lagfromroots, lagadd, lagsub, lagpow = _f.line, _f.fromroots, _f.add, _f.sub, _f.pow
lagval2d, lagval3d, laggrid2d, laggrid3d = _f.val2d, _f.val3d, _f.grid2d, _f.grid3d
lagvander2d, lagvander3d, lagfit, lagroots, lagtrim = (
    _f.vander2d,
    _f.vander3d,
    _f.fit,
    _f.roots,
    _f.trim,
)


def poly2lag(pol):
    """See numpy.polynomial.laguerre.poly2lag: a power series as a Laguerre series."""
    return _shared.from_power_series("poly2lag", _mulx, pol)


def lag2poly(c):
    """See numpy.polynomial.laguerre.lag2poly: a Laguerre series as a power series."""
    return _shared.to_power_series(
        "lag2poly",
        c,
        lambda i, c0, c1, ci: (
            _shared.sub(ci, c1 * (i - 1) / i),
            _shared.add(c0, _shared.sub((2 * i - 1) * c1, _shared.power_mulx(c1)) / i),
        ),
        lambda c0, c1: _shared.add(c0, _shared.sub(c1, _shared.power_mulx(c1))),
    )


def laggauss(deg):
    """See numpy.polynomial.laguerre.laggauss: Gauss-Laguerre nodes and weights (companion
    eigenvalues on the host, one Newton step on the default device)."""
    _, c, x = _shared.gauss_nodes("laggauss", deg, lagcompanion)
    dy, df = lagval(x, c), lagval(x, lagder(c))
    x = x - dy / df
    fm = lagval(x, c[1:])
    fm, df = fm / _xp.abs(fm).max(), df / _xp.abs(df).max()
    w = 1 / (fm * df)
    return x, w / w.sum()


def lagweight(x):
    """See numpy.polynomial.laguerre.lagweight: exp(-x)."""
    [x] = _device_arrays("lagweight", x)
    return _xp.exp(-x)


class Laguerre(ABCPolyBase, prefix="lag", namespace=globals()):
    """See numpy.polynomial.Laguerre: a Laguerre series with a domain and a window ([0, 1] by
    default), its coefficients a gpupy array on a device (see gpupy.polynomial._polybase)."""

    domain = _numpy.array(lagdomain)
    window = _numpy.array(lagdomain)
    basis_name = "L"
    _numpy_class = _numpy.polynomial.Laguerre
