"""gpupy.polynomial.hermite: numpy.polynomial.hermite (series in the physicists' Hermite
polynomials H_n, low degree first) on gpupy arrays.

Computed with gpupy operations on the device of the gpupy arrays among the arguments (the
default device otherwise). Host steps: the eigenvalues of hermroots and hermgauss (NumPy's
LAPACK on an explicit copy of the companion matrix), the single index trimming reads back,
hermfit's rank. The constants hermdomain, hermzero, hermone and hermx are NumPy arrays.
"""

import math as _math

import numpy as _numpy

import gpupy as _xp
from gpupy._host_library import device_arrays as _device_arrays
from gpupy.polynomial import _shared
from gpupy.polynomial import polyutils as _pu
from gpupy.polynomial._polybase import ABCPolyBase

__all__ = [
    "hermzero",
    "hermone",
    "hermx",
    "hermdomain",
    "hermline",
    "hermadd",
    "hermsub",
    "hermmulx",
    "hermmul",
    "hermdiv",
    "hermpow",
    "hermval",
    "hermder",
    "hermint",
    "herm2poly",
    "poly2herm",
    "hermfromroots",
    "hermvander",
    "hermfit",
    "hermtrim",
    "hermroots",
    "Hermite",
    "hermval2d",
    "hermval3d",
    "hermgrid2d",
    "hermgrid3d",
    "hermvander2d",
    "hermvander3d",
    "hermcompanion",
    "hermgauss",
    "hermweight",
]

hermdomain = _numpy.array([-1.0, 1.0])
hermzero = _numpy.array([0])
hermone = _numpy.array([1])
hermx = _numpy.array([0, 1 / 2])


def _mulx(c):
    """c times x, untrimmed (hermmulx without its checks)."""
    n = c.shape[0]
    prd = _shared.empty_like_rows(c, n + 1)
    prd[0] = c[0] * 0
    prd[1] = c[0] / 2
    if n > 1:
        prd[2:] = c[1:] / 2
        prd[: n - 1] = prd[: n - 1] + c[1:] * _pu._index_range(n - 1, c)
    return prd


def hermmulx(c):
    """See numpy.polynomial.hermite.hermmulx: c times x (x H_i = H_(i+1) / 2 + i H_(i-1))."""
    return _shared.checked_mulx("hermmulx", _mulx, c)


def _mul(c1, c2):
    """The untrimmed product (Clenshaw's recurrence on series)."""
    return _shared.clenshaw_product(
        c1,
        c2,
        lambda nd, a, b, cx: (_shared.sub(cx, b * (2 * (nd - 1))), _shared.add(a, _mulx(b) * 2)),
        lambda a, b: _shared.add(a, _mulx(b) * 2),
    )


def hermmul(c1, c2):
    """See numpy.polynomial.hermite.hermmul."""
    return _shared.checked_mul("hermmul", _mul, c1, c2)


def hermdiv(c1, c2):
    """See numpy.polynomial.hermite.hermdiv: (quotient, remainder)."""
    return _pu._div("hermdiv", _mul, c1, c2)


def hermder(c, m=1, scl=1, axis=0):
    """See numpy.polynomial.hermite.hermder."""
    return _shared.derivative(
        "hermder", c, m, scl, axis, lambda c: _shared.der_by_index(c, factor=2)
    )


def hermint(c, m=1, k=[], lbnd=0, scl=1, axis=0):  # noqa: B006 - NumPy's signature
    """See numpy.polynomial.hermite.hermint."""
    step = lambda c: _shared.int_by_index(c, factor=2)  # noqa: E731
    return _shared.integral("hermint", c, m, k, lbnd, scl, axis, step, hermval)


def hermval(x, c, tensor=True):
    """See numpy.polynomial.hermite.hermval (Clenshaw's recurrence)."""
    return _shared.clenshaw_val(
        "hermval",
        x,
        c,
        tensor,
        lambda nd, c0, c1, ci, x, x2: (ci - c1 * (2 * (nd - 1)), c0 + c1 * x2),
        lambda c0, c1, x, x2: c0 + c1 * x2,
        prepare=lambda x: x * 2,
    )


def hermvander(x, deg):
    """See numpy.polynomial.hermite.hermvander: H_0(x), ..., H_deg(x) along a new last axis."""
    return _shared.recurrence_vander(
        "hermvander",
        x,
        deg,
        lambda x: x * 2,
        lambda i, v1, v2, x: v1 * (x * 2) - v2 * (2 * (i - 1)),
    )


def _scales(n, a):
    # NumPy's scaling of the companion matrix's last column
    return _numpy.multiply.accumulate(
        _numpy.hstack((1.0, 1.0 / _numpy.sqrt(a * _numpy.arange(n - 1, 0, -1))))
    )[::-1]


def hermcompanion(c):
    """See numpy.polynomial.hermite.hermcompanion (scaled to be symmetric)."""
    return _shared.companion(
        "hermcompanion",
        c,
        lambda c0, c1: -0.5 * c0 / c1,
        lambda n: _shared.tridiagonal(_numpy.sqrt(0.5 * _numpy.arange(1, n))),
        lambda c, n: _xp.asarray(_scales(n, 2.0), device=c.device) * c[:-1] / (2.0 * c[-1]),
    )


_f = _shared.series_functions(
    "herm",
    "hermite",
    raw_mul=_mul,
    val=hermval,
    vander=hermvander,
    companion=hermcompanion,
    line=_shared.make_line("hermline", lambda off, scl: (off, scl / 2)),
    first_root=lambda c0, c1: -0.5 * c0 / c1,
)
hermline, hermfromroots, hermadd, hermsub, hermpow = _f.line, _f.fromroots, _f.add, _f.sub, _f.pow
hermval2d, hermval3d, hermgrid2d, hermgrid3d = _f.val2d, _f.val3d, _f.grid2d, _f.grid3d
hermvander2d, hermvander3d, hermfit, hermroots, hermtrim = (
    _f.vander2d,
    _f.vander3d,
    _f.fit,
    _f.roots,
    _f.trim,
)


def poly2herm(pol):
    """See numpy.polynomial.hermite.poly2herm: a power series as a Hermite series."""
    return _shared.from_power_series("poly2herm", _mulx, pol)


def herm2poly(c):
    """See numpy.polynomial.hermite.herm2poly: a Hermite series as a power series."""
    return _shared.to_power_series(
        "herm2poly",
        c,
        lambda i, c0, c1, ci: (
            _shared.sub(ci, c1 * (2 * (i - 1))),
            _shared.add(c0, _shared.power_mulx(c1) * 2),
        ),
        lambda c0, c1: _shared.add(c0, _shared.power_mulx(c1) * 2),
    )


def hermgauss(deg):
    """See numpy.polynomial.hermite.hermgauss: Gauss-Hermite nodes and weights (companion
    eigenvalues on the host, one Newton step on the default device)."""
    ideg, _, x = _shared.gauss_nodes("hermgauss", deg, hermcompanion)
    norm = 1 / _math.sqrt(_math.sqrt(_math.pi))
    dy = _shared.normed_hermite(x, ideg, norm, 2.0)
    df = _shared.normed_hermite(x, ideg - 1, norm, 2.0) * _math.sqrt(2 * ideg)
    x = x - dy / df
    fm = _shared.normed_hermite(x, ideg - 1, norm, 2.0)
    fm = fm / _xp.abs(fm).max()
    x, w = _shared.symmetrized(x, 1 / (fm * fm))
    return x, w * (_math.sqrt(_math.pi) / w.sum())


def hermweight(x):
    """See numpy.polynomial.hermite.hermweight: exp(-x**2)."""
    [x] = _device_arrays("hermweight", x)
    return _xp.exp(-(x**2))


class Hermite(ABCPolyBase, prefix="herm", namespace=globals()):
    """See numpy.polynomial.Hermite: a Hermite series with a domain and a window, its
    coefficients a gpupy array on a device (see gpupy.polynomial._polybase)."""

    domain = _numpy.array(hermdomain)
    window = _numpy.array(hermdomain)
    basis_name = "H"
    _numpy_class = _numpy.polynomial.Hermite
