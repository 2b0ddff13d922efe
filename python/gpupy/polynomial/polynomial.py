"""gpupy.polynomial.polynomial: numpy.polynomial.polynomial (power series, coefficients from low
to high degree, the opposite of gpupy.polyval's order) on gpupy arrays.

Everything is computed with gpupy operations on the device of the gpupy arrays among the
arguments (the default device otherwise); integer and boolean coefficients compute in float64,
as NumPy's do. Host steps: polyroots' eigenvalues (NumPy's LAPACK on an explicit copy of the
companion matrix, as gpupy.roots), the single index trimming reads back, polyfit's rank. The
constants polydomain, polyzero, polyone and polyx are NumPy arrays, usable with any device.
"""

import numpy as _numpy

import gpupy as _xp
from gpupy import _core
from gpupy.polynomial import _shared
from gpupy.polynomial import polyutils as _pu
from gpupy.polynomial._polybase import ABCPolyBase

__all__ = [
    "polyzero",
    "polyone",
    "polyx",
    "polydomain",
    "polyline",
    "polyadd",
    "polysub",
    "polymulx",
    "polymul",
    "polydiv",
    "polypow",
    "polyval",
    "polyvalfromroots",
    "polyder",
    "polyint",
    "polyfromroots",
    "polyvander",
    "polyfit",
    "polytrim",
    "polyroots",
    "Polynomial",
    "polyval2d",
    "polyval3d",
    "polygrid2d",
    "polygrid3d",
    "polyvander2d",
    "polyvander3d",
    "polycompanion",
]

polydomain = _numpy.array([-1.0, 1.0])
polyzero = _numpy.array([0])
polyone = _numpy.array([1])
polyx = _numpy.array([0, 1])


def polymulx(c):
    """See numpy.polynomial.polynomial.polymulx: c times x."""
    return _shared.checked_mulx("polymulx", _shared.power_mulx, c)


def polymul(c1, c2):
    """See numpy.polynomial.polynomial.polymul."""
    return _shared.checked_mul("polymul", _xp.convolve, c1, c2)


def polydiv(c1, c2):
    """See numpy.polynomial.polynomial.polydiv: (quotient, remainder)."""
    c1, c2, result = _pu._div_input("polydiv", c1, c2)
    if result is not None:
        return result
    n1, n2 = c1.shape[0], c2.shape[0]
    scl = c2[-1]
    c2 = c2[:-1] / scl
    j = n1 - 1
    for i in range(n1 - n2, -1, -1):
        c1[i:j] = c1[i:j] - c2 * c1[j]
        j -= 1
    return c1[j + 1 :] / scl, _pu.trimseq(c1[: j + 1])


def polyder(c, m=1, scl=1, axis=0):
    """See numpy.polynomial.polynomial.polyder: the m-th derivative along `axis`, each
    differentiation multiplied by scl."""
    return _shared.derivative("polyder", c, m, scl, axis, _shared.der_by_index)


def polyint(c, m=1, k=[], lbnd=0, scl=1, axis=0):  # noqa: B006 - NumPy's signature
    """See numpy.polynomial.polynomial.polyint: m integrations along `axis`, constants k (the
    value at lbnd), each integration multiplied by scl."""
    return _shared.integral("polyint", c, m, k, lbnd, scl, axis, _shared.int_by_index, polyval)


def polyval(x, c, tensor=True):
    """See numpy.polynomial.polynomial.polyval: c[0] + c[1] x + c[2] x**2 + ... (Horner). With
    `tensor`, each coefficient's trailing axes are evaluated at every x (result shape
    c.shape[1:] + x.shape); without it, they broadcast against x."""
    x, c = _pu._values_input("polyval", x, c)
    c = _pu._tensor(x, c, tensor)
    result = c[-1] + x * 0
    for i in range(2, c.shape[0] + 1):
        result = c[-i] + result * x
    return result


def polyvalfromroots(x, r, tensor=True):
    """See numpy.polynomial.polynomial.polyvalfromroots: the product of (x - r) over r's first
    axis."""
    x, r = _pu._values_input("polyvalfromroots", x, r)
    if isinstance(x, _core.ndarray) and not tensor and x.ndim >= r.ndim:
        raise ValueError("[polyvalfromroots] x.ndim must be < r.ndim when tensor == False")
    return _xp.prod(x - _pu._tensor(x, r, tensor), axis=0)


def polyvander(x, deg):
    """See numpy.polynomial.polynomial.polyvander: [1, x, x**2, ..., x**deg] along a new last
    axis."""
    x, deg = _pu._vander_input("polyvander", x, deg)
    columns = [x * 0 + 1]
    if deg > 0:
        columns.append(x)
    for _ in range(2, deg + 1):
        columns.append(columns[-1] * x)
    return _xp.stack(columns, axis=-1)


def polycompanion(c):
    """See numpy.polynomial.polynomial.polycompanion."""
    [c] = _pu._series("polycompanion", [c])
    n = c.shape[0] - 1
    if n < 1:
        raise ValueError("[polycompanion] Series must have maximum degree of at least 1.")
    if n == 1:
        return (-c[0] / c[1]).reshape(1, 1)
    mat = _xp.eye(n, k=-1, dtype=c.dtype, device=c.device)
    mat[:, -1] = mat[:, -1] - c[:-1] / c[-1]
    return mat


_f = _shared.series_functions(
    "poly",
    "polynomial",
    raw_mul=_xp.convolve,
    val=polyval,
    vander=polyvander,
    companion=polycompanion,
    pow_trims=False,  # NumPy's polypow multiplies with convolve, which never trims
    maxpower=None,
    rotate=False,
)
polyline, polyfromroots, polyadd, polysub, polypow = _f.line, _f.fromroots, _f.add, _f.sub, _f.pow
polyval2d, polyval3d, polygrid2d, polygrid3d = _f.val2d, _f.val3d, _f.grid2d, _f.grid3d
polyvander2d, polyvander3d, polyfit, polyroots, polytrim = (
    _f.vander2d,
    _f.vander3d,
    _f.fit,
    _f.roots,
    _f.trim,
)


class Polynomial(ABCPolyBase, prefix="poly", namespace=globals()):
    """See numpy.polynomial.Polynomial: a power series with a domain and a window. ``coef`` is a
    gpupy array (lowest degree first) on its device, and so are the values, derivatives,
    integrals and fits computed from it (see gpupy.polynomial._polybase)."""

    domain = _numpy.array(polydomain)
    window = _numpy.array(polydomain)
    basis_name = None
    _numpy_class = _numpy.polynomial.Polynomial
