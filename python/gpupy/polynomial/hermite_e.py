"""gpupy.polynomial.hermite_e: numpy.polynomial.hermite_e (series in the probabilists'
Hermite polynomials He_n, low degree first) on gpupy arrays.

Computed with gpupy operations on the device of the gpupy arrays among the arguments (the
default device otherwise). Host steps: the eigenvalues of hermeroots and hermegauss (NumPy's
LAPACK on an explicit copy of the companion matrix), the single index trimming reads back,
hermefit's rank. The constants hermedomain, hermezero, hermeone and hermex are NumPy arrays.
"""

import math as _math

import numpy as _numpy

import gpupy as _xp
from gpupy._host_library import device_arrays as _device_arrays
from gpupy.polynomial import _shared
from gpupy.polynomial import polyutils as _pu
from gpupy.polynomial._polybase import ABCPolyBase
from gpupy.polynomial.hermite import _scales

__all__ = [
    "hermezero",
    "hermeone",
    "hermex",
    "hermedomain",
    "hermeline",
    "hermeadd",
    "hermesub",
    "hermemulx",
    "hermemul",
    "hermediv",
    "hermepow",
    "hermeval",
    "hermeder",
    "hermeint",
    "herme2poly",
    "poly2herme",
    "hermefromroots",
    "hermevander",
    "hermefit",
    "hermetrim",
    "hermeroots",
    "HermiteE",
    "hermeval2d",
    "hermeval3d",
    "hermegrid2d",
    "hermegrid3d",
    "hermevander2d",
    "hermevander3d",
    "hermecompanion",
    "hermegauss",
    "hermeweight",
]

hermedomain = _numpy.array([-1.0, 1.0])
hermezero = _numpy.array([0])
hermeone = _numpy.array([1])
hermex = _numpy.array([0, 1])


def _mulx(c):
    """c times x, untrimmed (hermemulx without its checks)."""
    n = c.shape[0]
    prd = _shared.empty_like_rows(c, n + 1)
    prd[0] = c[0] * 0
    prd[1:] = c
    if n > 1:
        prd[: n - 1] = prd[: n - 1] + c[1:] * _pu._index_range(n - 1, c)
    return prd


def hermemulx(c):
    """See numpy.polynomial.hermite_e.hermemulx: c times x (x He_i = He_(i+1) + i He_(i-1))."""
    return _shared.checked_mulx("hermemulx", _mulx, c)


def _mul(c1, c2):
    """The untrimmed product (Clenshaw's recurrence on series)."""
    return _shared.clenshaw_product(
        c1,
        c2,
        lambda nd, a, b, cx: (_shared.sub(cx, b * (nd - 1)), _shared.add(a, _mulx(b))),
        lambda a, b: _shared.add(a, _mulx(b)),
    )


def hermemul(c1, c2):
    """See numpy.polynomial.hermite_e.hermemul."""
    return _shared.checked_mul("hermemul", _mul, c1, c2)


def hermediv(c1, c2):
    """See numpy.polynomial.hermite_e.hermediv: (quotient, remainder)."""
    return _pu._div("hermediv", _mul, c1, c2)


def hermeder(c, m=1, scl=1, axis=0):
    """See numpy.polynomial.hermite_e.hermeder."""
    return _shared.derivative("hermeder", c, m, scl, axis, _shared.der_by_index)


def hermeint(c, m=1, k=[], lbnd=0, scl=1, axis=0):  # noqa: B006 - NumPy's signature
    """See numpy.polynomial.hermite_e.hermeint."""
    return _shared.integral("hermeint", c, m, k, lbnd, scl, axis, _shared.int_by_index, hermeval)


def hermeval(x, c, tensor=True):
    """See numpy.polynomial.hermite_e.hermeval (Clenshaw's recurrence)."""
    return _shared.clenshaw_val(
        "hermeval",
        x,
        c,
        tensor,
        lambda nd, c0, c1, ci, x, px: (ci - c1 * (nd - 1), c0 + c1 * x),
        lambda c0, c1, x, px: c0 + c1 * x,
    )


def hermevander(x, deg):
    """See numpy.polynomial.hermite_e.hermevander: He_0(x), ..., He_deg(x) along a new last
    axis."""
    return _shared.recurrence_vander(
        "hermevander", x, deg, lambda x: x, lambda i, v1, v2, x: v1 * x - v2 * (i - 1)
    )


def hermecompanion(c):
    """See numpy.polynomial.hermite_e.hermecompanion (scaled to be symmetric)."""
    return _shared.companion(
        "hermecompanion",
        c,
        lambda c0, c1: -c0 / c1,
        lambda n: _shared.tridiagonal(_numpy.sqrt(_numpy.arange(1, n))),
        lambda c, n: _xp.asarray(_scales(n, 1.0), device=c.device) * c[:-1] / c[-1],
    )


_f = _shared.series_functions(
    "herme",
    "hermite_e",
    raw_mul=_mul,
    val=hermeval,
    vander=hermevander,
    companion=hermecompanion,
)
hermeline, hermefromroots, hermeadd, hermesub = _f.line, _f.fromroots, _f.add, _f.sub
hermepow, hermeval2d, hermeval3d = _f.pow, _f.val2d, _f.val3d
hermegrid2d, hermegrid3d, hermevander2d, hermevander3d = (
    _f.grid2d,
    _f.grid3d,
    _f.vander2d,
    _f.vander3d,
)
hermefit, hermeroots, hermetrim = _f.fit, _f.roots, _f.trim


def poly2herme(pol):
    """See numpy.polynomial.hermite_e.poly2herme: a power series as a HermiteE series."""
    return _shared.from_power_series("poly2herme", _mulx, pol)


def herme2poly(c):
    """See numpy.polynomial.hermite_e.herme2poly: a HermiteE series as a power series."""
    return _shared.to_power_series(
        "herme2poly",
        c,
        lambda i, c0, c1, ci: (
            _shared.sub(ci, c1 * (i - 1)),
            _shared.add(c0, _shared.power_mulx(c1)),
        ),
        lambda c0, c1: _shared.add(c0, _shared.power_mulx(c1)),
    )


def hermegauss(deg):
    """See numpy.polynomial.hermite_e.hermegauss: Gauss-HermiteE nodes and weights (companion
    eigenvalues on the host, one Newton step on the default device)."""
    ideg, _, x = _shared.gauss_nodes("hermegauss", deg, hermecompanion)
    norm = 1 / _math.sqrt(_math.sqrt(2 * _math.pi))
    dy = _shared.normed_hermite(x, ideg, norm, 1.0)
    df = _shared.normed_hermite(x, ideg - 1, norm, 1.0) * _math.sqrt(ideg)
    x = x - dy / df
    fm = _shared.normed_hermite(x, ideg - 1, norm, 1.0)
    fm = fm / _xp.abs(fm).max()
    x, w = _shared.symmetrized(x, 1 / (fm * fm))
    return x, w * (_math.sqrt(2 * _math.pi) / w.sum())


def hermeweight(x):
    """See numpy.polynomial.hermite_e.hermeweight: exp(-x**2 / 2)."""
    [x] = _device_arrays("hermeweight", x)
    return _xp.exp(-0.5 * x**2)


class HermiteE(ABCPolyBase, prefix="herme", namespace=globals()):
    """See numpy.polynomial.HermiteE: a HermiteE series with a domain and a window, its
    coefficients a gpupy array on a device (see gpupy.polynomial._polybase)."""

    domain = _numpy.array(hermedomain)
    window = _numpy.array(hermedomain)
    basis_name = "He"
    _numpy_class = _numpy.polynomial.HermiteE
